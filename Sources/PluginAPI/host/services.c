/* shelf-plugin-host: the host's side of the ABI. Log lines go to stderr; progress is accepted;
 * nothing is cancelled; the credentials service keeps secrets in memory for the run; there is no
 * HTTP service (a connector must say so in words, not crash).
 * SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE   /* realpath */
#define _POSIX_C_SOURCE 200809L
#include "host.h"

#include <stdlib.h>
#include <sys/stat.h>

static void host_log(const shelf_host *host, int32_t level, const char *message)
{
    static const char *const names[] = { "debug", "info", "warning", "error" };
    (void)host;
    fprintf(stderr, "plugin %s: %s\n", level >= 0 && level <= 3 ? names[level] : "?", message ? message : "(null)");
}

static shelf_status host_progress(const shelf_host *host, double fraction, const char *label)
{
    (void)host; (void)label;
    if (fraction > 1) breach("progress", "fraction %g is above 1", fraction);
    return SHELF_OK;
}

static int32_t host_cancelled(const shelf_host *host)
{
    (void)host;
    return 0;
}

/* ----- credentials, in memory ------------------------------------------------------------------ */

#define SECRETS 32
static char *secret_keys[SECRETS], *secret_values[SECRETS];

static int secret_slot(const char *key, int create)
{
    int i, free_slot = -1;
    for (i = 0; i < SECRETS; i++) {
        if (secret_keys[i] && strcmp(secret_keys[i], key) == 0) return i;
        if (!secret_keys[i] && free_slot < 0) free_slot = i;
    }
    return create ? free_slot : -1;
}

static shelf_status secret_get(const shelf_host *host, const char *key, const shelf_writer *out, shelf_error *err)
{
    int i = key ? secret_slot(key, 0) : -1;
    (void)host;
    if (i < 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, key, "no secret is stored under %s", key ? key : "(null)");
    return out->write(out->context, secret_values[i], strlen(secret_values[i]));
}

static shelf_status secret_set(const shelf_host *host, const char *key, const char *value, shelf_error *err)
{
    int i = key ? secret_slot(key, 1) : -1;
    (void)host;
    if (i < 0 || value == NULL) return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, key, "cannot store this secret");
    free(secret_keys[i]);
    free(secret_values[i]);
    secret_keys[i] = strdup(key);
    secret_values[i] = strdup(value);
    return SHELF_OK;
}

static shelf_status secret_remove(const shelf_host *host, const char *key, shelf_error *err)
{
    int i = key ? secret_slot(key, 0) : -1;
    (void)host; (void)err;
    if (i >= 0) {
        free(secret_keys[i]);
        free(secret_values[i]);
        secret_keys[i] = secret_values[i] = NULL;
    }
    return SHELF_OK;
}

static const shelf_host_credentials_v1 credentials = {
    sizeof(shelf_host_credentials_v1), secret_get, secret_set, secret_remove
};

/* credentials/2: a service's keys are "service:key" in the same table (a /1 key has no ':'). */
static const char *service_key(const char *service, const char *key, char *buffer, size_t size)
{
    if (service == NULL || key == NULL) return key;
    snprintf(buffer, size, "%s:%s", service, key);
    return buffer;
}

static shelf_status secret_get2(const shelf_host *host, const char *service, const char *key, const shelf_writer *out, shelf_error *err)
{
    char buffer[512];
    return secret_get(host, service_key(service, key, buffer, sizeof buffer), out, err);
}

static shelf_status secret_set2(const shelf_host *host, const char *service, const char *key, const char *value, shelf_error *err)
{
    char buffer[512];
    return secret_set(host, service_key(service, key, buffer, sizeof buffer), value, err);
}

static shelf_status secret_remove2(const shelf_host *host, const char *service, const char *key, shelf_error *err)
{
    char buffer[512];
    return secret_remove(host, service_key(service, key, buffer, sizeof buffer), err);
}

static const shelf_host_credentials_v2 service_credentials = {
    sizeof(shelf_host_credentials_v2), secret_get2, secret_set2, secret_remove2
};

static const void *host_service(const shelf_host *host, const char *id)
{
    (void)host;
    if (id != NULL && strcmp(id, SHELF_HOST_CREDENTIALS) == 0) return &credentials;
    if (id != NULL && strcmp(id, SHELF_HOST_CREDENTIALS_2) == 0) return &service_credentials;
    return NULL;
}

const shelf_host *host_services(const char *scratch, const char *plugin_path)
{
    static shelf_host host;
    static char own[4096];
    static char data[4096], cache[4096];
    snprintf(data, sizeof data, "%s/data", scratch);
    snprintf(cache, sizeof cache, "%s/cache", scratch);
    mkdir(data, 0700);
    mkdir(cache, 0700);
    memset(&host, 0, sizeof host);
    host.struct_size = sizeof host;
    host.abi_major = SHELF_ABI_MAJOR;
    host.abi_minor = SHELF_ABI_MINOR;
    host.host_name = "shelf-plugin-host";
    host.host_version = SHELF_HELPER_VERSION;
    host.log = host_log;
    host.data_dir = data;
    host.cache_dir = cache;
    host.progress = host_progress;
    host.is_cancelled = host_cancelled;
    host.get_service = host_service;
    /* ABI 1.1: the plugin's own file, absolute */
    if (realpath(plugin_path, own) == NULL) snprintf(own, sizeof own, "%s", plugin_path);
    host.plugin_path = own;
    return &host;
}

/* ----- --set KEY=VALUE ------------------------------------------------------------------------- */

static char settings[8192] = "{}";

void settings_add(const char *assignment)
{
    shelf_writer w;
    shelf_buffer b = { 0 };
    shelf_out out;
    shelf_json_doc *doc = shelf_json_parse(settings, "settings", NULL);
    const shelf_json_value *m;
    const char *eq = strchr(assignment, '=');
    w = shelf_buffer_writer(&b);
    shelf_out_init(&out, &w);
    shelf_json_begin_object(&out);
    for (m = shelf_json_first(shelf_json_root(doc)); m; m = shelf_json_next(m)) {
        shelf_json_member_string(&out, shelf_json_key_of(m), shelf_json_as_string(m, ""));
    }
    if (eq != NULL) {
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
        shelf_json_member_string(&out, key, eq + 1);
    }
    shelf_json_end_object(&out);
    if (shelf_out_finish(&out, NULL) == SHELF_OK && b.size < sizeof settings) memcpy(settings, b.data, b.size + 1);
    shelf_json_free(doc);
    shelf_buffer_free(&b);
}

const char *settings_json(void)
{
    return settings;
}
