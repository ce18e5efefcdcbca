#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

static void load(struct shelf_lazy_library *l) {
    void *handle = NULL;
    for (size_t i = 0; i < SHELF_LAZY_MAX_SONAMES && l->sonames[i] && !handle; i++) {
        handle = dlopen(l->sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (handle) l->opened = l->sonames[i];
    }
    if (!handle) {
        /* dlerror says why the last candidate failed, which names it. */
        const char *why = dlerror();
        snprintf(l->failure, sizeof l->failure, "%s could not be opened (%s): install it with apt-get install %s",
                 l->what, why ? why : l->sonames[0], l->package);
        return;
    }
    for (size_t i = 0; i < l->symbol_count; i++) {
        /* dlsym on the library's handle searches its dependencies too (GLib's g_error_free for libsecret). */
        *l->symbols[i].slot = dlsym(handle, l->symbols[i].name);
        if (!*l->symbols[i].slot) {
            snprintf(l->failure, sizeof l->failure, "the %s found has no %s: install %s with apt-get install %s",
                     l->opened, l->symbols[i].name, l->needs, l->package);
            return;
        }
    }
    if (l->start && l->start(l->failure, sizeof l->failure) != 0) return;
    l->ready = 1;
}

const char *shelf_lazy_load(struct shelf_lazy_library *l) {
    pthread_mutex_lock(&l->lock);
    if (!l->tried) {
        l->tried = 1;
        load(l);
    }
    int ready = l->ready;
    pthread_mutex_unlock(&l->lock);
    return ready ? NULL : l->failure;
}
