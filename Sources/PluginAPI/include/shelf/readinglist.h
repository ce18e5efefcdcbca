/*
 * shelf plugin ABI, version 1 — reading-list connectors and the host services they use.
 *
 *   "shelf.readinglist/1"       a connector: pull a patron's shelves from a reading-list service
 *                               (Goodreads, Google Books, ...), push reads and want-to-reads back
 *   "shelf.host.http/1"         host service: one HTTP request/response over the host's client
 *   "shelf.host.credentials/1"  host service: the patron's secrets for this plugin, kept by the host
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here.
 *
 * A connector lists the services it speaks in its descriptor's `services` ("goodreads") and
 * answers get_extension("shelf.readinglist/1"). The host finds the two host services through
 * `shelf_host.get_service`; a connector never opens a network connection of its own and never
 * stores a secret in its data_dir.
 *
 * ---------------------------------------------------------------------------------------------
 * JSON SHAPES (unknown keys are ignored by both sides; absent keys mean "not known")
 *
 * Capabilities, written by `describe`:
 *   {"service": "goodreads",            the service id, as in the descriptor
 *    "name": "Goodreads",               for people
 *    "pull": true,                      can read shelves
 *    "pushRead": true,                  can record a finished book
 *    "pushToRead": true,                can add a want-to-read
 *    "pushWrites": "service"|"file",    "file": pushes produce a file for the patron to upload
 *                                       (the push result names it) instead of changing the service
 *    "authorization": "none"|"oauth1"|"oauth2",   whether `authorize_begin` is needed
 *    "settings": [{"key": "userId", "label": "Goodreads user id", "required": false,
 *                  "secret": false}, ...]}
 *   A setting with "secret": true is never put into settings JSON: the host stores it with the
 *   credentials service under its key, and the connector reads it from there.
 *
 * Settings, passed to `connect`: an object of the non-secret settings, strings only:
 *   {"userId": "12345", "file": "/home/p/goodreads_library_export.csv"}
 *
 * Entry (a book on a reading list):
 *   {"identifiers": {"isbn13": "9780142402498", "isbn10": "0142402494",
 *                    "goodreads": "19302", "google": "zyTCAlFPjgYC"},   service ids by service id
 *    "title": "Pippi Longstocking",
 *    "authors": ["Astrid Lindgren", "Florence Lamborn"],
 *    "shelf": "to-read",        the exclusive shelf, normalised: "read", "to-read",
 *                               "currently-reading", or the service's own name for a custom one
 *    "shelves": ["to-read", "childhood"],   every shelf it is on, as the service names them
 *    "dateAdded": "2020-12-13", "dateRead": "2021-01-02",   ISO 8601 dates (or date-times)
 *    "rating": 4}              1...5, absent when not rated
 *   ISBNs are digits only (an ISBN-10 may end in "X").
 *
 * Pull options: {"shelf": "to-read"} (only that shelf) or {} / NULL (every shelf).
 * Pull result:  {"shelves": [{"id": "2", "name": "to-read", "count": 12}, ...],
 *                "entries": [Entry, ...]}
 *
 * Push input:   {"entries": [Entry, ...]}, each with "shelf" "read" or "to-read".
 * Push result:  {"results": [{"index": 0, "status": "added"|"unchanged"|"exported"|"failed",
 *                             "message": "..."}],
 *                "file": "/path/to/goodreads-import.csv"}     only when "pushWrites" is "file"
 *   Push is idempotent: an entry already on that shelf is "unchanged", never added twice.
 *
 * Authorization (for "oauth1"/"oauth2" services), driven by the host:
 *   1. authorize_begin(connection, {"redirectURI": "http://127.0.0.1:PORT/callback"}) writes
 *      {"url": "https://...", "state": "..."}: the host opens the url in the patron's browser and
 *      listens on 127.0.0.1:PORT itself.
 *   2. authorize_complete(connection, {"query": {"code": "...", "state": "...", ...}}) with every
 *      query parameter of the redirect; the connector exchanges them for tokens over
 *      "shelf.host.http/1" and stores them with "shelf.host.credentials/1".
 * ---------------------------------------------------------------------------------------------
 */
#ifndef SHELF_READINGLIST_H
#define SHELF_READINGLIST_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----- shelf.host.http/1 ------------------------------------------------------------------- */

#define SHELF_HOST_HTTP "shelf.host.http/1"

/* The host does not retry or back off on its own (the connector knows when a retry is safe). */
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

/* ----- shelf.host.credentials/1 ------------------------------------------------------------ */

#define SHELF_HOST_CREDENTIALS "shelf.host.credentials/1"

/*
 * Secrets (API keys, OAuth tokens and secrets) kept by the host for this plugin: in a file of
 * mode 0600, never printed, never logged. Keys are the plugin's own ("google-books.refresh_token"):
 * the host keeps each plugin's keys apart, so two plugins never see each other's. A key is
 * 1..128 bytes of [A-Za-z0-9._-]; a value is UTF-8 text of at most 64 KiB.
 * Threading: as for every host service (plugin.h). Calls are atomic: a set is on disk when it
 * returns, and two shelf processes never lose each other's change.
 */
typedef struct shelf_host_credentials_v1 {
    uint32_t struct_size;

    /* Writes the value stored under `key` to `out`. SHELF_E_NOT_FOUND when there is none. */
    shelf_status (*get)(const shelf_host *host, const char *key, const shelf_writer *out, shelf_error *err);

    /* Stores `value` under `key`, replacing what was there. */
    shelf_status (*set)(const shelf_host *host, const char *key, const char *value, shelf_error *err);

    /* Deletes the value under `key`. Deleting a key that has no value is SHELF_OK. */
    shelf_status (*remove)(const shelf_host *host, const char *key, shelf_error *err);
} shelf_host_credentials_v1;

/* ----- shelf.readinglist/1 ----------------------------------------------------------------- */

#define SHELF_EXT_READINGLIST "shelf.readinglist/1"

/* One configured connection to one service: the connector's own type, opaque to the host. */
typedef struct shelf_connection shelf_connection;

typedef struct shelf_readinglist_v1 {
    uint32_t struct_size;

    /*
     * Writes the capabilities JSON of `service` (one of the descriptor's services) to `out`.
     * Fails with SHELF_E_NOT_FOUND for a service this connector does not speak. No I/O.
     * Threading: any thread, any time after init, concurrently (like get_extension).
     */
    shelf_status (*describe)(const char *service, const shelf_writer *out, shelf_error *err);

    /*
     * Opens a connection to `service` with `settings_json` (see "Settings"; may be NULL for {}).
     * Checks the settings and fails with SHELF_E_INVALID_ARGUMENT naming a missing or malformed
     * one; does no network I/O. On SHELF_OK *out is a connection owned by the connector until the
     * host passes it to `disconnect`, exactly once; on failure *out is NULL.
     */
    shelf_status (*connect)(const char *service, const char *settings_json, shelf_connection **out,
                            shelf_error *err);

    /*
     * Reads the patron's shelves and entries (see "Pull") and writes the pull result to `out`.
     * options_json may be NULL. Fails with SHELF_E_PROTECTED when the service refuses the
     * patron's credentials or there are none (the message says how to connect),
     * SHELF_E_IO when the service cannot be reached, SHELF_E_BAD_DATA when its answer is not
     * what the service documents, SHELF_E_UNSUPPORTED when this service cannot be read.
     */
    shelf_status (*pull)(shelf_connection *connection, const char *options_json,
                         const shelf_writer *out, shelf_error *err);

    /*
     * Records `entries_json` (see "Push") on the service, or in the export file when the service
     * has no write path, and writes the push result to `out`. Idempotent. A per-entry failure is
     * a "failed" result, not a failed call; the call fails only when nothing could be attempted
     * (no credentials: SHELF_E_PROTECTED; malformed input: SHELF_E_INVALID_ARGUMENT).
     */
    shelf_status (*push)(shelf_connection *connection, const char *entries_json,
                         const shelf_writer *out, shelf_error *err);

    /*
     * Starts an interactive sign-in (see "Authorization"). SHELF_E_UNSUPPORTED when the service
     * needs none. May use the network (an OAuth 1.0a request token).
     */
    shelf_status (*authorize_begin)(shelf_connection *connection, const char *options_json,
                                    const shelf_writer *out, shelf_error *err);

    /* Finishes the sign-in with the redirect's parameters and stores the tokens. */
    shelf_status (*authorize_complete)(shelf_connection *connection, const char *callback_json,
                                       shelf_error *err);

    /* Releases the connection and everything it owns. Never fails; never called twice. */
    void (*disconnect)(shelf_connection *connection);
} shelf_readinglist_v1;

/*
 * Threading for connections: one connection is used by one thread at a time; different
 * connections from different threads only with SHELF_PLUGIN_CONCURRENT_HANDLES (plugin.h).
 * pull, push and authorize_* may block on the network for as long as the service takes:
 * poll shelf_host.is_cancelled between requests and report progress for long pulls.
 */

#ifdef __cplusplus
}
#endif

#endif /* SHELF_READINGLIST_H */
