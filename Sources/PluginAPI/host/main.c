/* shelf-plugin-host: the stand-in host. Loads a plugin, checks its descriptor, calls each
 * capability it offers on the samples (format plugins) or on its services (connectors) and prints
 * what came back. Exits 1 when the plugin breaks the contract, 2 on a usage error, 0 otherwise.
 * Made for running a plugin under valgrind or a sanitizer while developing it, without shelf:
 *
 *   shelf-plugin-host ./libshelf-mine.so book.mine
 *   valgrind --error-exitcode=3 shelf-plugin-host ./libshelf-mine.so book.mine
 *   shelf-plugin-host --set url=http://127.0.0.1:8000/list.tsv ./libshelf-tsvlist.so
 *
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "host.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const known_extensions[] = {
    SHELF_EXT_FORMAT, SHELF_EXT_RENDER, SHELF_EXT_POSITIONS, SHELF_EXT_SEARCH, SHELF_EXT_READINGLIST, NULL
};

static int usage(void)
{
    fprintf(stderr, "usage: shelf-plugin-host [--set KEY=VALUE]... PLUGIN.so [SAMPLE]...\n"
                    "Runs a shelf plugin without shelf and prints what each call returns; exit status 1\n"
                    "when the plugin breaks the contract of the shelf headers.\n");
    return 2;
}

static int id_is_valid(const char *id)
{
    size_t i;
    if (id == NULL || id[0] == '\0' || strchr(id, '.') == NULL) return 0;
    for (i = 0; id[i]; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_')) return 0;
    }
    return 1;
}

static void check_descriptor(const shelf_plugin_descriptor *d)
{
    size_t i;
    say("plugin", "%s %s (ABI %u.%u) \"%s\", licence %s", d->id ? d->id : "(no id)", d->version ? d->version : "(no version)",
        (unsigned)d->abi_major, (unsigned)d->abi_minor, d->name ? d->name : "(no name)", d->license ? d->license : "(none)");
    if (d->struct_size < sizeof *d) breach("descriptor", "struct_size %u is smaller than ABI 1.0's %lu", (unsigned)d->struct_size, (unsigned long)sizeof *d);
    if (!id_is_valid(d->id)) breach("descriptor", "id \"%s\" is not reverse-DNS of [a-z0-9._-]", d->id ? d->id : "(null)");
    if (d->name == NULL || d->version == NULL || d->license == NULL) breach("descriptor", "name, version and license are required");
    if (d->get_extension == NULL) breach("descriptor", "get_extension is required");
    for (i = 0; d->media_types && d->media_types[i]; i++) say("media type", "%s", d->media_types[i]);
    for (i = 0; d->file_extensions && d->file_extensions[i]; i++) say("extension", "%s", d->file_extensions[i]);
    for (i = 0; d->services && d->services[i]; i++) say("service", "%s", d->services[i]);
}

int main(int argc, char **argv)
{
    const char *plugin = NULL, *samples[64];
    char scratch[] = "/tmp/shelf-plugin-host-XXXXXX", path[64];
    size_t sample_count = 0, i;
    void *library;
    shelf_plugin_entry_fn entry;
    const shelf_plugin_descriptor *d;
    shelf_error err = fresh_error();
    int a;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--set") == 0 && a + 1 < argc && strchr(argv[a + 1], '=')) settings_add(argv[++a]);
        else if (strcmp(argv[a], "--help") == 0 || argv[a][0] == '-') return usage();
        else if (plugin == NULL) plugin = argv[a];
        else if (sample_count < sizeof samples / sizeof samples[0]) samples[sample_count++] = argv[a];
    }
    if (plugin == NULL) return usage();
    /* dlopen searches the library path for a bare name; a file here is meant. */
    if (strchr(plugin, '/') == NULL && snprintf(path, sizeof path, "./%s", plugin) < (int)sizeof path) plugin = path;
    library = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "shelf-plugin-host: cannot load %s: %s\n", plugin, dlerror());
        return 1;
    }
    *(void **)&entry = dlsym(library, SHELF_PLUGIN_ENTRY_SYMBOL);
    if (entry == NULL) {
        fprintf(stderr, "shelf-plugin-host: %s exports no %s\n", plugin, SHELF_PLUGIN_ENTRY_SYMBOL);
        dlclose(library);
        return 1;
    }
    d = entry();
    if (d == NULL || d != entry()) {
        breach("shelf_plugin_entry", "must return the same static descriptor every time");
        dlclose(library);
        return 1;
    }
    if (d->abi_major != SHELF_ABI_MAJOR) {
        breach("descriptor", "ABI %u, this host speaks ABI %d", (unsigned)d->abi_major, SHELF_ABI_MAJOR);
        dlclose(library);
        return 1;
    }
    check_descriptor(d);
    if (mkdtemp(scratch) == NULL) {
        perror("shelf-plugin-host: a scratch folder");
        return 1;
    }
    if (d->init != NULL && d->init(host_services(scratch, plugin), &err) != SHELF_OK) {
        breach("init", "failed: %s", err.message[0] ? err.message : "(no message)");
    } else if (d->get_extension != NULL) {
        for (i = 0; known_extensions[i]; i++) {
            const void *table = d->get_extension(known_extensions[i]);
            if (table == NULL) continue;
            say("offers", "%s", known_extensions[i]);
            if (table != d->get_extension(known_extensions[i])) breach("get_extension", "%s: another pointer the second time", known_extensions[i]);
        }
        if (d->get_extension("org.example.no-such-extension/1") != NULL) breach("get_extension", "answers an unknown id");
        if (d->media_types && d->media_types[0]) {
            if (sample_count == 0) say("note", "no SAMPLE given: the format capabilities were not called");
            for (i = 0; i < sample_count; i++) run_format(d, samples[i]);
        }
        if (d->services && d->services[0]) run_connector(d);
        if (d->deinit != NULL) d->deinit();
    }
    {
        char folder[sizeof scratch + 8];
        snprintf(folder, sizeof folder, "%s/data", scratch);
        rmdir(folder);
        snprintf(folder, sizeof folder, "%s/cache", scratch);
        rmdir(folder);
        rmdir(scratch);
    }
    dlclose(library);
    printf("%d contract breach%s\n", breaches, breaches == 1 ? "" : "es");
    return breaches == 0 ? 0 : 1;
}
