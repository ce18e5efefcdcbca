#include "CMicroHTTPD.h"

#include "CLazyLibrary.h"

static struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                       MHD_AccessHandlerCallback, void *, ...);
    void (*stop_daemon)(struct MHD_Daemon *);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
    int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind, MHD_KeyValueIterator, void *);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
                                                          MHD_ContentReaderFreeCallback);
    void (*destroy_response)(struct MHD_Response *);
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
    enum MHD_Result (*set_connection_option)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...);
} mhd;

static const struct shelf_lazy_symbol symbols[] = {
    { (void **)&mhd.start_daemon, "MHD_start_daemon" },
    { (void **)&mhd.stop_daemon, "MHD_stop_daemon" },
    { (void **)&mhd.get_daemon_info, "MHD_get_daemon_info" },
    { (void **)&mhd.get_connection_values, "MHD_get_connection_values" },
    { (void **)&mhd.create_response_from_buffer, "MHD_create_response_from_buffer" },
    { (void **)&mhd.create_response_from_callback, "MHD_create_response_from_callback" },
    { (void **)&mhd.destroy_response, "MHD_destroy_response" },
    { (void **)&mhd.add_response_header, "MHD_add_response_header" },
    { (void **)&mhd.queue_response, "MHD_queue_response" },
    { (void **)&mhd.set_connection_option, "MHD_set_connection_option" },
};

/* Debian's libmicrohttpd12. */
static struct shelf_lazy_library library = {
    .sonames = { "libmicrohttpd.so.12" }, .what = "libmicrohttpd", .needs = "libmicrohttpd 0.9.71 or newer",
    .package = "libmicrohttpd12", .symbols = symbols, .symbol_count = sizeof symbols / sizeof *symbols,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *shelf_mhd_load(void) { return shelf_lazy_load(&library); }

/* Everything below is reached only through a daemon, which exists only after a successful load. */
struct MHD_Daemon *shelf_mhd_start(unsigned int flags, const struct sockaddr *address,
                                   MHD_AccessHandlerCallback handler, void *context,
                                   MHD_RequestCompletedCallback completed,
                                   unsigned int connection_limit, unsigned int timeout_seconds) {
    if (shelf_mhd_load()) return NULL;
    return mhd.start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_END);
}

enum MHD_Result shelf_mhd_set_timeout(struct MHD_Connection *connection, unsigned int timeout_seconds) {
    return mhd.set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, timeout_seconds);
}

void shelf_mhd_stop(struct MHD_Daemon *daemon) { mhd.stop_daemon(daemon); }

uint16_t shelf_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

int shelf_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                    MHD_KeyValueIterator iterator, void *context) {
    return mhd.get_connection_values(connection, kind, iterator, context);
}

struct MHD_Response *shelf_mhd_response_from_buffer(size_t size, const void *buffer) {
    return mhd.create_response_from_buffer(size, (void *)buffer, MHD_RESPMEM_MUST_COPY);
}

struct MHD_Response *shelf_mhd_response_from_callback(uint64_t size, size_t block_size,
                                                      MHD_ContentReaderCallback reader, void *context,
                                                      MHD_ContentReaderFreeCallback free_context) {
    return mhd.create_response_from_callback(size, block_size, reader, context, free_context);
}

void shelf_mhd_destroy_response(struct MHD_Response *response) { mhd.destroy_response(response); }

enum MHD_Result shelf_mhd_add_header(struct MHD_Response *response, const char *name, const char *value) {
    return mhd.add_response_header(response, name, value);
}

enum MHD_Result shelf_mhd_queue_response(struct MHD_Connection *connection, unsigned int status,
                                         struct MHD_Response *response) {
    return mhd.queue_response(connection, status, response);
}
