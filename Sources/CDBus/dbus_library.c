#include "CDBus.h"

#include <dbus/dbus.h>
#include "CLazyLibrary.h"

#include <stdalign.h>
#include <stdio.h>
#include <string.h>

/* The stand-ins of CDBus.h against the real thing. */
_Static_assert(sizeof(shelf_dbus_iter) >= sizeof(DBusMessageIter), "shelf_dbus_iter is smaller than DBusMessageIter");
_Static_assert(alignof(shelf_dbus_iter) >= alignof(DBusMessageIter), "shelf_dbus_iter is less aligned than DBusMessageIter");

const int shelf_dbus_type_string = DBUS_TYPE_STRING;
const int shelf_dbus_type_uint32 = DBUS_TYPE_UINT32;
const int shelf_dbus_type_int32 = DBUS_TYPE_INT32;
const int shelf_dbus_type_array = DBUS_TYPE_ARRAY;
const int shelf_dbus_type_variant = DBUS_TYPE_VARIANT;
const int shelf_dbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;
const int shelf_dbus_type_byte = DBUS_TYPE_BYTE;
const int shelf_dbus_type_invalid = DBUS_TYPE_INVALID;
const int shelf_dbus_message_method_call = DBUS_MESSAGE_TYPE_METHOD_CALL;
const int shelf_dbus_message_method_return = DBUS_MESSAGE_TYPE_METHOD_RETURN;
const int shelf_dbus_message_error = DBUS_MESSAGE_TYPE_ERROR;
const int shelf_dbus_message_signal = DBUS_MESSAGE_TYPE_SIGNAL;
const unsigned int shelf_dbus_name_flag_do_not_queue = DBUS_NAME_FLAG_DO_NOT_QUEUE;
const int shelf_dbus_request_name_reply_primary_owner = DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER;

#define ITER(iter) ((DBusMessageIter *)(iter))

static struct {
    dbus_bool_t (*threads_init_default)(void);
    void (*error_init)(DBusError *);
    void (*error_free)(DBusError *);
    dbus_bool_t (*error_is_set)(const DBusError *);
    DBusConnection *(*connection_open_private)(const char *, DBusError *);
    void (*connection_set_exit_on_disconnect)(DBusConnection *, dbus_bool_t);
    dbus_bool_t (*bus_register)(DBusConnection *, DBusError *);
    int (*bus_request_name)(DBusConnection *, const char *, unsigned int, DBusError *);
    void (*connection_close)(DBusConnection *);
    void (*connection_unref)(DBusConnection *);
    void (*connection_flush)(DBusConnection *);
    dbus_bool_t (*connection_send)(DBusConnection *, DBusMessage *, dbus_uint32_t *);
    dbus_bool_t (*connection_read_write)(DBusConnection *, int);
    DBusMessage *(*connection_pop_message)(DBusConnection *);
    DBusMessage *(*connection_send_with_reply_and_block)(DBusConnection *, DBusMessage *, int, DBusError *);
    DBusMessage *(*message_new_method_call)(const char *, const char *, const char *, const char *);
    DBusMessage *(*message_new_method_return)(DBusMessage *);
    DBusMessage *(*message_new_error)(DBusMessage *, const char *, const char *);
    void (*message_unref)(DBusMessage *);
    int (*message_get_type)(DBusMessage *);
    const char *(*message_get_member)(DBusMessage *);
    void (*message_iter_init_append)(DBusMessage *, DBusMessageIter *);
    dbus_bool_t (*message_iter_append_basic)(DBusMessageIter *, int, const void *);
    dbus_bool_t (*message_iter_open_container)(DBusMessageIter *, int, const char *, DBusMessageIter *);
    dbus_bool_t (*message_iter_close_container)(DBusMessageIter *, DBusMessageIter *);
    dbus_bool_t (*message_iter_init)(DBusMessage *, DBusMessageIter *);
    int (*message_iter_get_arg_type)(DBusMessageIter *);
    void (*message_iter_get_basic)(DBusMessageIter *, void *);
    dbus_bool_t (*message_iter_next)(DBusMessageIter *);
    void (*message_iter_recurse)(DBusMessageIter *, DBusMessageIter *);
} dbus;

static const struct shelf_lazy_symbol symbols[] = {
    { (void **)&dbus.threads_init_default, "dbus_threads_init_default" },
    { (void **)&dbus.error_init, "dbus_error_init" },
    { (void **)&dbus.error_free, "dbus_error_free" },
    { (void **)&dbus.error_is_set, "dbus_error_is_set" },
    { (void **)&dbus.connection_open_private, "dbus_connection_open_private" },
    { (void **)&dbus.connection_set_exit_on_disconnect, "dbus_connection_set_exit_on_disconnect" },
    { (void **)&dbus.bus_register, "dbus_bus_register" },
    { (void **)&dbus.bus_request_name, "dbus_bus_request_name" },
    { (void **)&dbus.connection_close, "dbus_connection_close" },
    { (void **)&dbus.connection_unref, "dbus_connection_unref" },
    { (void **)&dbus.connection_flush, "dbus_connection_flush" },
    { (void **)&dbus.connection_send, "dbus_connection_send" },
    { (void **)&dbus.connection_read_write, "dbus_connection_read_write" },
    { (void **)&dbus.connection_pop_message, "dbus_connection_pop_message" },
    { (void **)&dbus.connection_send_with_reply_and_block, "dbus_connection_send_with_reply_and_block" },
    { (void **)&dbus.message_new_method_call, "dbus_message_new_method_call" },
    { (void **)&dbus.message_new_method_return, "dbus_message_new_method_return" },
    { (void **)&dbus.message_new_error, "dbus_message_new_error" },
    { (void **)&dbus.message_unref, "dbus_message_unref" },
    { (void **)&dbus.message_get_type, "dbus_message_get_type" },
    { (void **)&dbus.message_get_member, "dbus_message_get_member" },
    { (void **)&dbus.message_iter_init_append, "dbus_message_iter_init_append" },
    { (void **)&dbus.message_iter_append_basic, "dbus_message_iter_append_basic" },
    { (void **)&dbus.message_iter_open_container, "dbus_message_iter_open_container" },
    { (void **)&dbus.message_iter_close_container, "dbus_message_iter_close_container" },
    { (void **)&dbus.message_iter_init, "dbus_message_iter_init" },
    { (void **)&dbus.message_iter_get_arg_type, "dbus_message_iter_get_arg_type" },
    { (void **)&dbus.message_iter_get_basic, "dbus_message_iter_get_basic" },
    { (void **)&dbus.message_iter_next, "dbus_message_iter_next" },
    { (void **)&dbus.message_iter_recurse, "dbus_message_iter_recurse" },
};

/* Connections are used from more than one thread (the tests' fake service has its own). */
static int start_threads(char *failure, size_t size) {
    if (dbus.threads_init_default()) return 0;
    snprintf(failure, size, "libdbus could not start (dbus_threads_init_default failed: out of memory)");
    return -1;
}

/* libdbus-1-3, Debian's package of the library (and everyone else's name for it). */
static struct shelf_lazy_library library = {
    .sonames = { "libdbus-1.so.3" }, .what = "libdbus", .needs = "libdbus", .package = "libdbus-1-3",
    .symbols = symbols, .symbol_count = sizeof symbols / sizeof *symbols, .start = start_threads,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *shelf_dbus_load(void) { return shelf_lazy_load(&library); }

static void say(char *into, size_t capacity, const char *what) {
    if (into && capacity > 0) snprintf(into, capacity, "%s", what);
}

DBusConnection *shelf_dbus_connect(const char *address, char *reason, size_t capacity) {
    const char *missing = shelf_dbus_load();
    if (missing) {
        say(reason, capacity, missing);
        return NULL;
    }
    DBusError error;
    dbus.error_init(&error);
    DBusConnection *connection = dbus.connection_open_private(address, &error);
    if (connection) {
        dbus.connection_set_exit_on_disconnect(connection, FALSE);
        if (!dbus.bus_register(connection, &error)) {
            dbus.connection_close(connection);
            dbus.connection_unref(connection);
            connection = NULL;
        }
    }
    if (!connection)
        say(reason, capacity, dbus.error_is_set(&error) && error.message ? error.message : "cannot connect to the bus");
    dbus.error_free(&error);
    return connection;
}

/* Connections and messages only exist after a successful load, so the functions taking one need no check. */
void shelf_dbus_disconnect(DBusConnection *connection) {
    if (!connection) return;
    dbus.connection_close(connection);
    dbus.connection_unref(connection);
}

void shelf_dbus_connection_flush(DBusConnection *connection) { dbus.connection_flush(connection); }

int shelf_dbus_connection_send(DBusConnection *connection, DBusMessage *message) {
    return dbus.connection_send(connection, message, NULL);
}

int shelf_dbus_connection_read_write(DBusConnection *connection, int timeout_milliseconds) {
    return dbus.connection_read_write(connection, timeout_milliseconds);
}

DBusMessage *shelf_dbus_connection_pop_message(DBusConnection *connection) {
    return dbus.connection_pop_message(connection);
}

DBusMessage *shelf_dbus_call(DBusConnection *connection, DBusMessage *message, int timeout_milliseconds) {
    DBusError error;
    dbus.error_init(&error);
    DBusMessage *reply = dbus.connection_send_with_reply_and_block(connection, message, timeout_milliseconds, &error);
    dbus.error_free(&error);
    return reply;
}

int shelf_dbus_request_name(DBusConnection *connection, const char *name, unsigned int flags) {
    DBusError error;
    dbus.error_init(&error);
    int reply = dbus.bus_request_name(connection, name, flags, &error);
    dbus.error_free(&error);
    return reply;
}

DBusMessage *shelf_dbus_message_new_method_call(const char *destination, const char *path, const char *interface,
                                                const char *method) {
    return shelf_dbus_load() ? NULL : dbus.message_new_method_call(destination, path, interface, method);
}

DBusMessage *shelf_dbus_message_new_method_return(DBusMessage *call) { return dbus.message_new_method_return(call); }

DBusMessage *shelf_dbus_message_new_error(DBusMessage *call, const char *name, const char *text) {
    return dbus.message_new_error(call, name, text);
}

void shelf_dbus_message_unref(DBusMessage *message) {
    if (message) dbus.message_unref(message);
}

int shelf_dbus_message_get_type(DBusMessage *message) { return dbus.message_get_type(message); }

const char *shelf_dbus_message_get_member(DBusMessage *message) { return dbus.message_get_member(message); }

void shelf_dbus_message_iter_init_append(DBusMessage *message, shelf_dbus_iter *iter) {
    dbus.message_iter_init_append(message, ITER(iter));
}

int shelf_dbus_message_iter_append_basic(shelf_dbus_iter *iter, int type, const void *value) {
    return dbus.message_iter_append_basic(ITER(iter), type, value);
}

int shelf_dbus_message_iter_open_container(shelf_dbus_iter *iter, int type, const char *signature, shelf_dbus_iter *sub) {
    return dbus.message_iter_open_container(ITER(iter), type, signature, ITER(sub));
}

int shelf_dbus_message_iter_close_container(shelf_dbus_iter *iter, shelf_dbus_iter *sub) {
    return dbus.message_iter_close_container(ITER(iter), ITER(sub));
}

int shelf_dbus_message_iter_init(DBusMessage *message, shelf_dbus_iter *iter) {
    return dbus.message_iter_init(message, ITER(iter));
}

int shelf_dbus_message_iter_get_arg_type(shelf_dbus_iter *iter) { return dbus.message_iter_get_arg_type(ITER(iter)); }

void shelf_dbus_message_iter_get_basic(shelf_dbus_iter *iter, void *value) {
    dbus.message_iter_get_basic(ITER(iter), value);
}

int shelf_dbus_message_iter_next(shelf_dbus_iter *iter) { return dbus.message_iter_next(ITER(iter)); }

void shelf_dbus_message_iter_recurse(shelf_dbus_iter *iter, shelf_dbus_iter *sub) {
    dbus.message_iter_recurse(ITER(iter), ITER(sub));
}
