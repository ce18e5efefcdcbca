/*
 * shelf plugin ABI, version 1 — the host's HTTP client ("shelf.host.http/1").
 *
 * A plugin never opens a network connection of its own: its requests go through the host, which
 * owns TLS, proxies, redirects, timeouts, retries and the patron's limits.
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here. A plugin
 * finds this service through `shelf_host.get_service`; a host that lacks it returns NULL.
 */
#ifndef SHELF_HTTP_H
#define SHELF_HTTP_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----- shelf.host.http/1 ------------------------------------------------------------------- */

#define SHELF_HOST_HTTP "shelf.host.http/1"

/*
 * Retries.  By default the host repeats a request that got no answer or a passing refusal, with
 * backoff: at most 3 attempts in all and 30 s of waiting, a `Retry-After` honoured within that.
 * It repeats only what the server cannot have acted on, or what is safe to repeat: any method after
 * a connection that could not be made, or a 429 or 503; a GET, HEAD, PUT or DELETE also after a timeout, a broken
 * connection, a 408 or another 5xx but 501 and 505. A POST is never repeated after the server may
 * have received it. With SHELF_HTTP_NO_RETRY the host makes exactly one attempt: set it when
 * a second attempt could do harm the host cannot see (a one-use OAuth code or nonce).
 */
#define SHELF_HTTP_NO_RETRY  ((uint32_t)1 << 0)

/*
 * One request. The connector owns it and everything it points to; the host reads it during `send`
 * only. `struct_size` is sizeof(shelf_http_request) as the connector was built.
 */
typedef struct shelf_http_request {
    uint32_t struct_size;
    uint32_t flags;             /* SHELF_HTTP_* bits, 0 for the defaults */
    const char *method;         /* "GET", "POST", "PUT", "DELETE" or "HEAD" */
    const char *url;            /* absolute http:// or https:// URL */
    /* NULL-terminated list of "Name: value" strings, or NULL. CR and LF are refused. */
    const char *const *headers;
    const void *body;           /* may be NULL when body_size is 0 */
    size_t body_size;
    uint32_t timeout_ms;        /* 0: the host's default */
    uint32_t reserved;          /* zero */
} shelf_http_request;

typedef struct shelf_host_http_v1 {
    uint32_t struct_size;

    /*
     * Sends `request` through the host's HTTP client (redirects, TLS, proxies and the patron's
     * limits are the host's) and blocks until the answer is complete.
     * On SHELF_OK *status is the final HTTP status (any, 4xx and 5xx included: reading them is
     * the connector's job), the body went to `body` and, when `headers` is not NULL, each
     * response header field to `headers` as one "Name: value\n" line. Fails with SHELF_E_IO (no
     * answer: network, TLS, timeout), SHELF_E_LIMIT (body too large), SHELF_E_CANCELLED,
     * SHELF_E_INVALID_ARGUMENT (malformed request); `err` then says which, in words. The host
     * never logs header values or bodies.
     * Threading: call it only from a thread the host called into, during that call (plugin.h).
     * Several calls may be in flight at once when the host called in on several threads.
     */
    shelf_status (*send)(const shelf_host *host, const shelf_http_request *request, int32_t *status,
                         const shelf_writer *headers, const shelf_writer *body, shelf_error *err);
} shelf_host_http_v1;

#ifdef __cplusplus
}
#endif

#endif /* SHELF_HTTP_H */
