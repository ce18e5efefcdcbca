#ifndef SHELF_CDBUS_H
#define SHELF_CDBUS_H

/*
 * libdbus, opened on first use instead of linked.
 *
 * Linking libdbus-1 costs every shelf process about 1.2 ms before main (it brings libsystemd, libgcrypt,
 * libzstd, liblz4, libcap and libgpg-error along), yet only a notification for the desktop needs it. So the host
 * links no libdbus: the first use dlopen()s libdbus-1.so.3 and resolves the entry points below, the way CCurl
 * opens libcurl.
 *
 * Unlike CCurl.h, this header does not include <dbus/dbus.h>: its folders (/usr/include/dbus-1.0 and the
 * architecture's lib/.../dbus-1.0/include) are not on the default search path, and SwiftPM hands a C target's
 * cSettings to that target's own C files only, never to the Swift modules importing it. So only
 * dbus_library.c sees libdbus's declarations; Swift sees these stand-ins, whose sizes and values
 * dbus_library.c checks against the real ones at compile time.
 */
#include <stddef.h>
#include <stdint.h>

/* The very structs of libdbus (same tags), incomplete here: Swift sees OpaquePointer. */
typedef struct DBusConnection shelf_dbus_connection;
typedef struct DBusMessage shelf_dbus_message;

/* A DBusMessageIter on the caller's stack (Swift: `var iter = shelf_dbus_iter()`): at least its size and
   alignment, which libdbus keeps for ABI stability. */
typedef struct shelf_dbus_iter { void *space[16]; } shelf_dbus_iter;

/* libdbus's type codes and message types are macros with casts, which Swift would not import anyway: the same
   values as constants, defined from libdbus's own macros in dbus_library.c. */
extern const int shelf_dbus_type_string;
extern const int shelf_dbus_type_uint32;
extern const int shelf_dbus_type_int32;
extern const int shelf_dbus_type_array;
extern const int shelf_dbus_type_variant;
extern const int shelf_dbus_type_dict_entry;
extern const int shelf_dbus_type_byte;
extern const int shelf_dbus_type_invalid;
extern const int shelf_dbus_message_method_call;
extern const int shelf_dbus_message_method_return;
extern const int shelf_dbus_message_error;
extern const int shelf_dbus_message_signal;
/* dbus_bus_request_name: its flag, and the answer meaning the name is ours. */
extern const unsigned int shelf_dbus_name_flag_do_not_queue;
extern const int shelf_dbus_request_name_reply_primary_owner;

/* Opens libdbus and makes it thread-safe (dbus_threads_init_default), once per process, thread-safe. NULL when
   ready; otherwise a message saying what is missing and what to install. The functions that make a connection or
   a message call it first and fail (NULL) without the library; the others take a connection or a message, which
   only exists once the library is open. */
const char *shelf_dbus_load(void);

/*
 * A private connection to the bus at `address`, registered (it has a unique name), that does not exit the
 * process when the bus goes away: dbus_connection_open_private, dbus_bus_register and
 * dbus_connection_set_exit_on_disconnect(0). NULL when it cannot be made, with the reason in `failure` (when
 * not NULL; cut to `capacity`): libdbus missing, or the bus's or libdbus's error message.
 */
shelf_dbus_connection *shelf_dbus_connect(const char *address, char *failure, size_t capacity);
/* Closes and releases a connection from shelf_dbus_connect; NULL is ignored. */
void shelf_dbus_disconnect(shelf_dbus_connection *connection);
void shelf_dbus_connection_flush(shelf_dbus_connection *connection);
/* Queues a message; false when out of memory. */
int shelf_dbus_connection_send(shelf_dbus_connection *connection, shelf_dbus_message *message);
/* Reads and writes what is pending, waiting at most `timeout_milliseconds`; false once disconnected. */
int shelf_dbus_connection_read_write(shelf_dbus_connection *connection, int timeout_milliseconds);
/* The next message received, owned by the caller (shelf_dbus_message_unref); NULL when none is queued. */
shelf_dbus_message *shelf_dbus_connection_pop_message(shelf_dbus_connection *connection);
/* dbus_connection_send_with_reply_and_block: the reply (the caller unrefs it, and it may be an error reply),
   or NULL when there was none in time or it could not be sent. */
shelf_dbus_message *shelf_dbus_call(shelf_dbus_connection *connection, shelf_dbus_message *message,
                                    int timeout_milliseconds);
/* dbus_bus_request_name: one of DBUS_REQUEST_NAME_REPLY_*, or -1 on error. */
int shelf_dbus_request_name(shelf_dbus_connection *connection, const char *name, unsigned int flags);

shelf_dbus_message *shelf_dbus_message_new_method_call(const char *destination, const char *path,
                                                       const char *interface, const char *method);
shelf_dbus_message *shelf_dbus_message_new_method_return(shelf_dbus_message *call);
shelf_dbus_message *shelf_dbus_message_new_error(shelf_dbus_message *call, const char *name, const char *text);
void shelf_dbus_message_unref(shelf_dbus_message *message);
int shelf_dbus_message_get_type(shelf_dbus_message *message);
/* The method or signal name; it belongs to the message. */
const char *shelf_dbus_message_get_member(shelf_dbus_message *message);

/* The dbus_message_iter_* functions, one for one. A value is passed by address, as libdbus takes it: for a
   string, the address of a `const char *`. */
void shelf_dbus_message_iter_init_append(shelf_dbus_message *message, shelf_dbus_iter *iter);
int shelf_dbus_message_iter_append_basic(shelf_dbus_iter *iter, int type, const void *value);
int shelf_dbus_message_iter_open_container(shelf_dbus_iter *iter, int type, const char *signature,
                                           shelf_dbus_iter *sub);
int shelf_dbus_message_iter_close_container(shelf_dbus_iter *iter, shelf_dbus_iter *sub);
int shelf_dbus_message_iter_init(shelf_dbus_message *message, shelf_dbus_iter *iter);
int shelf_dbus_message_iter_get_arg_type(shelf_dbus_iter *iter);
void shelf_dbus_message_iter_get_basic(shelf_dbus_iter *iter, void *value);
int shelf_dbus_message_iter_next(shelf_dbus_iter *iter);
void shelf_dbus_message_iter_recurse(shelf_dbus_iter *iter, shelf_dbus_iter *sub);

#endif
