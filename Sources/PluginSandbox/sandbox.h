/* shelf-plugin-sandbox: one plugin in a process of its own, confined, answering shelf's calls over the channel
 * (CPluginChannel.h). Started by shelf (RemotePlugin.swift), once per plugin and command; never by hand. */
#ifndef SHELF_PLUGIN_SANDBOX_H
#define SHELF_PLUGIN_SANDBOX_H

#include <CPluginChannel.h>
#include <shelf/shelf.h>

/* The channel to shelf. */
extern int channel;

/* Output a plugin call writes, gathered for the reply (plugin.h: the host copies before `write` returns). */
typedef struct output {
    uint8_t *data;
    size_t size, capacity;
    int overflowed;     /* a write was refused over the limit: the answer is cut, whatever the plugin returns */
} output;
shelf_writer output_writer(output *out);
void output_free(output *out);

/* Answers the request in `m` (any SHELF_OP_* call but LOAD); returns -1 when the channel broke. */
int answer_call(const shelf_plugin_descriptor *plugin, const shelf_message *m);
/* The reply to a call: status, the error's message and location, then `count` more fields. */
int reply(shelf_status status, const shelf_error *err, uint32_t count, const void *const *fields, const uint32_t *lengths);

/* The shelf_host handed to the plugin's init: log, progress and cancellation, the HTTP and credentials services,
 * all answered by shelf over the channel. */
const shelf_host *host_services(const char *data_dir, const char *cache_dir, const char *host_version);
/* Clears the cancellation of the call before a new one starts. */
void host_services_new_call(void);
/* The plugin's own file, for shelf_host.plugin_path (ABI 1.1); made absolute here. */
void host_services_plugin_path(const char *path);

/* The libraries the plugin links from the folders of its run path, resolved by shelf (libraries.c): each file's
 * real path followed by '\n'. The folders themselves are never made readable. */
void plugin_libraries(const char *plugin, char *out, size_t size);

/* Landlock (reading only `read_roots`, writing only `write_roots`, each a '\n'-separated list of paths), a seccomp
 * filter by allowlist and a memory limit of `memory` bytes (0: none). Writes what was applied, or why not, to
 * `report` (one line). Returns 0 when the process is confined, 1 when the kernel lacks Landlock (the child then reads
 * as shelf may, its calls still filtered), -1 on a failure. */
int confine(const char *read_roots, const char *write_roots, uint64_t memory, char *report, size_t report_size);

#endif
