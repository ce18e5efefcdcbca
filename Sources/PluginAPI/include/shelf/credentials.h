/*
 * shelf plugin ABI, version 1 — the patron's secrets ("shelf.host.credentials/1" and "/2").
 *
 * A plugin never stores a secret in its data_dir: it keeps them with this service.
 *   /1  one set of keys per plugin: a connector with two services shares them between both.
 *   /2  one set per service of the plugin, and the plugin's own set (service NULL, the very set /1
 *       reads and writes): a connector for StoryGraph and Open Library keeps a token for each.
 * A host that offers /2 offers /1 too; a plugin asks for /2 and falls back to /1 when it gets NULL.
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here. A plugin
 * finds this service through `shelf_host.get_service`; a host that lacks it returns NULL.
 */
#ifndef SHELF_CREDENTIALS_H
#define SHELF_CREDENTIALS_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

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

    /* Writes the value stored under `key` to `out`. SHELF_E_NOT_FOUND when there is none.
     * Threading: any thread the host called into, during that call (plugin.h); also from init. */
    shelf_status (*get)(const shelf_host *host, const char *key, const shelf_writer *out, shelf_error *err);

    /* Stores `value` under `key`, replacing what was there. Threading: as get. */
    shelf_status (*set)(const shelf_host *host, const char *key, const char *value, shelf_error *err);

    /* Deletes the value under `key`. Deleting a key that has no value is SHELF_OK. Threading: as get. */
    shelf_status (*remove)(const shelf_host *host, const char *key, shelf_error *err);
} shelf_host_credentials_v1;

/* ----- shelf.host.credentials/2 ------------------------------------------------------------ */

#define SHELF_HOST_CREDENTIALS_2 "shelf.host.credentials/2"

/*
 * The same store, secrets and rules as /1, with a service: `service` is one of the plugin's
 * descriptor services (an id that breaks the service-id rule of readinglist.h is
 * SHELF_E_INVALID_ARGUMENT), or NULL for the plugin's own keys, which are /1's. Two services of one plugin never see each other's values under one key.
 * `shelf lists connect SERVICE --secret KEY` stores the value for SERVICE here, and for /1 under
 * KEY, so connectors of either version find it.
 */
typedef struct shelf_host_credentials_v2 {
    uint32_t struct_size;

    /* Writes the value stored for `service` under `key` to `out`. SHELF_E_NOT_FOUND when none.
     * Threading: any thread the host called into, during that call (plugin.h); also from init. */
    shelf_status (*get)(const shelf_host *host, const char *service, const char *key,
                        const shelf_writer *out, shelf_error *err);

    /* Stores `value` for `service` under `key`, replacing what was there. Threading: as get. */
    shelf_status (*set)(const shelf_host *host, const char *service, const char *key, const char *value,
                        shelf_error *err);

    /* Deletes the value for `service` under `key`. Deleting a key that has no value is SHELF_OK.
     * Threading: as get. */
    shelf_status (*remove)(const shelf_host *host, const char *service, const char *key, shelf_error *err);
} shelf_host_credentials_v2;

#ifdef __cplusplus
}
#endif

#endif /* SHELF_CREDENTIALS_H */
