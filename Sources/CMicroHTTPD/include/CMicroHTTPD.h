#ifndef SHELF_CMICROHTTPD_H
#define SHELF_CMICROHTTPD_H

/*
 * libmicrohttpd, opened on first use instead of linked.
 *
 * Debian's libmicrohttpd links GnuTLS, whose set-up (p11-kit modules, entropy) costs a process about
 * 20 ms before main, yet only `shelf serve` serves. So shelf links no libmicrohttpd: `shelf serve`
 * dlopen()s libmicrohttpd.so.12 and resolves the few entry points below. The types and constants
 * still come from microhttpd.h (libmicrohttpd-dev), so the ABI is the one we compiled against.
 */
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <microhttpd.h>

/* Opens libmicrohttpd, once per process, thread-safe. NULL when ready; otherwise what is missing. */
const char *shelf_mhd_load(void);

/* MHD_start_daemon is variadic, which Swift cannot call: this passes the options shelf sets. */
struct MHD_Daemon *shelf_mhd_start(unsigned int flags, const struct sockaddr *address,
                                   MHD_AccessHandlerCallback handler, void *context,
                                   MHD_RequestCompletedCallback completed,
                                   unsigned int connection_limit, unsigned int timeout_seconds);
void shelf_mhd_stop(struct MHD_Daemon *daemon);
/* One connection's idle time limit (0: none); going from none to a limit starts its clock afresh. */
enum MHD_Result shelf_mhd_set_timeout(struct MHD_Connection *connection, unsigned int timeout_seconds);
/* The port a daemon listens on (the one the kernel chose when asked for port 0). */
uint16_t shelf_mhd_port(struct MHD_Daemon *daemon);

int shelf_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                    MHD_KeyValueIterator iterator, void *context);
struct MHD_Response *shelf_mhd_response_from_buffer(size_t size, const void *buffer);
struct MHD_Response *shelf_mhd_response_from_callback(uint64_t size, size_t block_size,
                                                      MHD_ContentReaderCallback reader, void *context,
                                                      MHD_ContentReaderFreeCallback free_context);
void shelf_mhd_destroy_response(struct MHD_Response *response);
enum MHD_Result shelf_mhd_add_header(struct MHD_Response *response, const char *name, const char *value);
enum MHD_Result shelf_mhd_queue_response(struct MHD_Connection *connection, unsigned int status,
                                         struct MHD_Response *response);

#endif
