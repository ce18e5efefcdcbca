/* shelf-plugin-sandbox: loads one plugin when shelf says LOAD (after confining itself), then answers calls until
 * shelf closes the channel. A crash, an exit or a hang here ends only this process; shelf names it and goes on. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int channel = SHELF_CHANNEL_CHILD_FD;

static const char *const known_extensions[] = {
    SHELF_EXT_FORMAT, SHELF_EXT_RENDER, SHELF_EXT_POSITIONS, SHELF_EXT_SEARCH, SHELF_EXT_AUDIO, SHELF_EXT_READINGLIST,
    SHELF_EXT_PROBE, NULL
};

static void join(output *out, const char *const *list)
{
    shelf_writer w = output_writer(out);
    size_t i;
    for (i = 0; list && list[i] && i < 256; i++) {
        w.write(w.context, list[i], strlen(list[i]));
        w.write(w.context, "\n", 1);
    }
}

static int refuse_load(const char *why)
{
    shelf_error err = { sizeof(shelf_error), SHELF_E_BAD_DATA, {0}, {0} };
    snprintf(err.message, sizeof err.message, "%s", why);
    return reply(SHELF_E_BAD_DATA, &err, 0, NULL, NULL);
}

/* LOAD: [plugin path, read roots, write roots, confine (int), memory limit in bytes (int, 0: none)] -> [numbers: struct_size, abi major, abi minor,
 * flags; id, name, version, license, vendor, url, description; media types, extensions, services (each a
 * '\n'-separated list); offered extensions ("id size\n"); confinement report]. */
static const shelf_plugin_descriptor *load(const shelf_message *m)
{
    char report[512] = "unconfined (asked to run without confinement)";
    const char *path = shelf_message_string(m, 0);
    const shelf_plugin_descriptor *d;
    shelf_plugin_entry_fn entry;
    void *library;
    if (path == NULL) { refuse_load("no plugin path"); return NULL; }
    host_services_plugin_path(path);   /* before confinement: realpath reads the folders above the plugin */
    if (shelf_message_int(m, 3) != 0) {
        /* The libraries the plugin links from its run path are part of it: readable too, each file alone. */
        static char reads[65536];
        const char *roots = shelf_message_string(m, 1);
        size_t used;
        snprintf(reads, sizeof reads, "%s\n", roots ? roots : "");
        used = strlen(reads);
        plugin_libraries(path, reads + used, sizeof reads - used);
        if (confine(reads, shelf_message_string(m, 2), (uint64_t)shelf_message_int(m, 4), report, sizeof report) < 0) {
            char why[600];
            snprintf(why, sizeof why, "could not confine the plugin's process: %s", report);
            refuse_load(why);
            return NULL;
        }
    }
    library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        char why[1024];
        const char *error = dlerror();
        snprintf(why, sizeof why, "cannot be loaded (%s)", error ? error : "unknown dlopen error");
        refuse_load(why);
        return NULL;
    }
    entry = (shelf_plugin_entry_fn)dlsym(library, SHELF_PLUGIN_ENTRY_SYMBOL);
    if (entry == NULL) { refuse_load("is not a shelf plugin: it exports no " SHELF_PLUGIN_ENTRY_SYMBOL); return NULL; }
    d = entry();
    if (d == NULL) { refuse_load(SHELF_PLUGIN_ENTRY_SYMBOL " returned no descriptor"); return NULL; }
    {
        int64_t numbers[4] = { d->struct_size, d->abi_major, d->abi_minor, 0 };
        output types = {0}, extensions = {0}, services = {0}, offered = {0};
        const void *fields[13];
        uint32_t lengths[13], i;
        /* Fields past ABI 1.0's are read only when struct_size covers them (plugin.h, "Versions"); 1.0 has all. */
        int whole = d->abi_major == SHELF_ABI_MAJOR && d->struct_size >= sizeof *d;
        numbers[3] = whole ? (int64_t)d->flags : 0;
        if (whole) {
            join(&types, d->media_types);
            join(&extensions, d->file_extensions);
            join(&services, d->services);
            for (i = 0; d->get_extension && known_extensions[i]; i++) {
                const void *table = d->get_extension(known_extensions[i]);
                if (table) {
                    char line[128];
                    int n = snprintf(line, sizeof line, "%s %u\n", known_extensions[i], (unsigned)*(const uint32_t *)table);
                    shelf_writer w = output_writer(&offered);
                    w.write(w.context, line, (size_t)n);
                }
            }
        }
        fields[0] = numbers; lengths[0] = sizeof numbers;
        {
            const char *strings[7] = { whole ? d->id : NULL, whole ? d->name : NULL, whole ? d->version : NULL,
                                       whole ? d->license : NULL, whole ? d->vendor : NULL, whole ? d->url : NULL,
                                       whole ? d->description : NULL };
            for (i = 0; i < 7; i++) {
                fields[1 + i] = strings[i];
                lengths[1 + i] = strings[i] ? (uint32_t)strnlen(strings[i], 4096) : 0;
            }
        }
        /* A NULL list stays NULL; an empty one is sent as "". */
        fields[8] = whole && d->media_types ? (types.data ? (const void *)types.data : "") : NULL;
        fields[9] = whole && d->file_extensions ? (extensions.data ? (const void *)extensions.data : "") : NULL;
        fields[10] = whole && d->services ? (services.data ? (const void *)services.data : "") : NULL;
        lengths[8] = (uint32_t)types.size; lengths[9] = (uint32_t)extensions.size; lengths[10] = (uint32_t)services.size;
        fields[11] = offered.data ? (const void *)offered.data : ""; lengths[11] = (uint32_t)offered.size;
        fields[12] = report; lengths[12] = (uint32_t)strlen(report);
        if (reply(SHELF_OK, NULL, 13, fields, lengths) != 0) exit(0);
        output_free(&types); output_free(&extensions); output_free(&services); output_free(&offered);
    }
    return d;
}

int main(void)
{
    const shelf_plugin_descriptor *plugin = NULL;
    /* Ctrl-C reaches the whole process group: shelf cancels the call in flight itself (SHELF_OP_CANCEL). */
    signal(SIGINT, SIG_IGN);
    /* Nothing of shelf's but the channel: an inherited descriptor (the library database) would pass the sandbox. */
    close_range(SHELF_CHANNEL_CHILD_FD + 1, ~0U, 0);
    signal(SIGPIPE, SIG_IGN);
    /* Never outlive shelf, whatever the plugin does. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) return 0;
    for (;;) {
        shelf_message m;
        if (shelf_channel_receive(channel, &m) != 0) return 0;  /* shelf is done with this plugin */
        if (m.op == SHELF_OP_LOAD) {
            if (plugin == NULL) plugin = load(&m);
        } else if (m.op == SHELF_OP_CANCEL) {
            /* A cancellation that arrived after its call ended: nothing to stop. */
        } else if (plugin == NULL) {
            refuse_load("no plugin loaded");
        } else if (answer_call(plugin, &m) != 0) {
            return 0;
        }
        shelf_message_free(&m);
    }
}
