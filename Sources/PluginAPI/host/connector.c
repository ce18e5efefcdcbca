/* shelf-plugin-host: a connector's services: describe, connect with the --set settings, pull.
 * SPDX-License-Identifier: MIT */
#include "host.h"

static void run_service(const shelf_readinglist_v1 *rl, const char *service)
{
    shelf_buffer b = { 0 };
    shelf_writer w = shelf_buffer_writer(&b);
    shelf_error err = fresh_error();
    shelf_connection *connection = NULL;
    shelf_json_doc *doc;
    shelf_status status;
    char call[512];
    snprintf(call, sizeof call, "describe(%s)", service);
    status = rl->describe(service, &w, &err);
    if (status != SHELF_OK) {
        breach(call, "status %d: %s", (int)status, err.message);
    } else if ((doc = shelf_json_parse(b.data ? b.data : "", call, &err)) == NULL) {
        breach(call, "%s", err.message);
    } else {
        const shelf_json_value *root = shelf_json_root(doc), *s;
        const char *id = shelf_json_as_string(shelf_json_get(root, "service"), NULL);
        say("describe", "%s: %s", service, excerpt(b.data, 200));
        if (id == NULL || strcmp(id, service) != 0) breach(call, "\"service\" must be \"%s\"", service);
        for (s = shelf_json_first(shelf_json_get(root, "settings")); s != NULL; s = shelf_json_next(s)) {
            if (shelf_json_as_string(shelf_json_get(s, "key"), NULL) == NULL) breach(call, "a setting without a \"key\" string");
        }
        shelf_json_free(doc);
    }
    snprintf(call, sizeof call, "connect(%s, %s)", service, settings_json());
    err = fresh_error();
    status = rl->connect(service, settings_json(), &connection, &err);
    if (status != SHELF_OK) {
        if (connection != NULL) breach(call, "failed but left a connection");
        if (err.message[0] == '\0') breach(call, "failed with status %d and no message", (int)status);
        else say("connect", "%s: status %d: %s (give settings with --set KEY=VALUE)", service, (int)status, err.message);
        shelf_buffer_free(&b);
        return;
    }
    say("connect", "%s: connected", service);
    shelf_buffer_reset(&b);
    err = fresh_error();
    snprintf(call, sizeof call, "pull(%s, NULL)", service);
    status = rl->pull(connection, NULL, &w, &err);
    if (status != SHELF_OK) {
        if (err.message[0] == '\0') breach(call, "failed with status %d and no message", (int)status);
        else say("pull", "%s: status %d: %s", service, (int)status, err.message);
    } else if ((doc = shelf_json_parse(b.data ? b.data : "", call, &err)) == NULL) {
        breach(call, "%s", err.message);
    } else {
        const shelf_json_value *root = shelf_json_root(doc), *e;
        say("pull", "%s: %lu shelves, %lu entries", service, (unsigned long)shelf_json_count(shelf_json_get(root, "shelves")),
            (unsigned long)shelf_json_count(shelf_json_get(root, "entries")));
        for (e = shelf_json_first(shelf_json_get(root, "entries")); e != NULL; e = shelf_json_next(e)) {
            shelf_entry entry;
            if (shelf_entry_read(e, service, &entry, &err) != SHELF_OK) breach(call, "an entry: %s", err.message);
        }
        shelf_json_free(doc);
    }
    rl->disconnect(connection);
    shelf_buffer_free(&b);
}

void run_connector(const shelf_plugin_descriptor *d)
{
    const shelf_readinglist_v1 *rl = d->get_extension(SHELF_EXT_READINGLIST);
    size_t i;
    if (rl == NULL) {
        breach("get_extension(shelf.readinglist/1)", "the plugin lists services but offers no connector vtable");
        return;
    }
    for (i = 0; d->services[i] != NULL; i++) run_service(rl, d->services[i]);
}
