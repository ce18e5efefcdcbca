/*
 * shelf plugin ABI, version 1 — reading-list connectors.
 *
 *   "shelf.readinglist/1"       a connector: pull a patron's shelves from a reading-list service
 *                               (Goodreads, Google Books, ...), push reads and want-to-reads back
 *
 * and the host services they use, declared in headers of their own and included here:
 *   "shelf.host.http/1"         http.h: one HTTP request/response over the host's client
 *   "shelf.host.credentials/1"  credentials.h: the patron's secrets for this plugin, kept by the host
 *   "shelf.host.credentials/2"  credentials.h: the same, kept apart for each service of the plugin
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here; each call
 * says from which threads it comes ("Threading:").
 *
 * A connector lists the services it speaks in its descriptor's `services` ("goodreads") and
 * answers get_extension("shelf.readinglist/1"). A service id is 1 to 128 bytes of lowercase
 * letters, digits, '.', '-' and '_', beginning with a letter or a digit ("google-books",
 * "storygraph"); the host refuses a plugin that lists another. Patrons type it
 * (`shelf lists connect storygraph`), so keep it short and name the service, not the plugin. The host finds the two host services through
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
 *    "uploadURL": "https://www.goodreads.com/review/import",   with "file": the page where the
 *                                       patron uploads it (the host shows it; without it the host
 *                                       names the service and no address)
 *    "authorization": "none"|"oauth1"|"oauth2",   whether `authorize_begin` is needed
 *    "settings": [{"key": "userId", "label": "Goodreads user id", "required": false,
 *                  "secret": false, "type": "text"}, ...]}
 *   A setting with "secret": true is never put into settings JSON: the host stores it with the
 *   credentials service under its key (for /2, under the service), and the connector reads it
 *   from there. "type" says what the value is, so the host checks what it can before connecting:
 *   "text" (the default), "file" (a local file: the host makes the path absolute and refuses one
 *   that does not exist) or "url". `shelf lists connect SERVICE` without options lists the
 *   settings from `describe` and calls no `connect`; a connect keeps the stored settings it is
 *   not given again.
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
 *    "rating": 4.5}            a number from 1 to 5 in steps of 0.5 (halves allowed: 4.5),
 *                              absent (or 0) when not rated; the host rounds other values to
 *                              the nearest half and drops values outside 1...5
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
/* The host services connectors use, each in a header of its own (any plugin may ask for them). */
#include "http.h"
#include "credentials.h"

#ifdef __cplusplus
extern "C" {
#endif

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
     * Threading: any thread; concurrently with other connects and other connections' calls only
     * with SHELF_PLUGIN_CONCURRENT_HANDLES (the new connection is not yet in use anywhere).
     */
    shelf_status (*connect)(const char *service, const char *settings_json, shelf_connection **out,
                            shelf_error *err);

    /*
     * Reads the patron's shelves and entries (see "Pull") and writes the pull result to `out`.
     * options_json may be NULL. Fails with SHELF_E_PROTECTED when the service refuses the
     * patron's credentials or there are none (the message says how to connect),
     * SHELF_E_IO when the service cannot be reached, SHELF_E_BAD_DATA when its answer is not
     * what the service documents, SHELF_E_UNSUPPORTED when this service cannot be read.
     * Threading: a handle call on `connection` (plugin.h); may block on the network (below).
     */
    shelf_status (*pull)(shelf_connection *connection, const char *options_json,
                         const shelf_writer *out, shelf_error *err);

    /*
     * Records `entries_json` (see "Push") on the service, or in the export file when the service
     * has no write path, and writes the push result to `out`. Idempotent. A per-entry failure is
     * a "failed" result, not a failed call; the call fails only when nothing could be attempted
     * (no credentials: SHELF_E_PROTECTED; malformed input: SHELF_E_INVALID_ARGUMENT).
     * Threading: a handle call on `connection` (plugin.h); may block on the network (below).
     */
    shelf_status (*push)(shelf_connection *connection, const char *entries_json,
                         const shelf_writer *out, shelf_error *err);

    /*
     * Starts an interactive sign-in (see "Authorization"). SHELF_E_UNSUPPORTED when the service
     * needs none. May use the network (an OAuth 1.0a request token).
     * Threading: a handle call on `connection` (plugin.h).
     */
    shelf_status (*authorize_begin)(shelf_connection *connection, const char *options_json,
                                    const shelf_writer *out, shelf_error *err);

    /* Finishes the sign-in with the redirect's parameters and stores the tokens.
     * Threading: a handle call on `connection` (plugin.h). */
    shelf_status (*authorize_complete)(shelf_connection *connection, const char *callback_json,
                                       shelf_error *err);

    /* Releases the connection and everything it owns. Never fails; never called twice.
     * Threading: with no other call on this connection in flight. */
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
