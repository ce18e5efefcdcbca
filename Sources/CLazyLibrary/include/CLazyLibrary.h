#ifndef SHELF_LAZY_LIBRARY_H
#define SHELF_LAZY_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/* A system library shelf opens on first use instead of linking (libcurl, libzip, libsecret, libdbus,
 * libmicrohttpd): a command that never needs it pays nothing for it, and a machine without it still runs every
 * other command. Each loader fills its table of functions once, under a lock, and says in one sentence what is
 * missing and which Debian package brings it. Plugins link it too (libzip): it is static and they export only
 * their entry point, so each keeps a copy of its own. */

/* One function to look up: where its address goes, and its name in the library. */
struct shelf_lazy_symbol {
    void **slot;
    const char *name;
};

#define SHELF_LAZY_MAX_SONAMES 4

struct shelf_lazy_library {
    /* What dlopen tries, in order, until one opens: { "libcurl.so.4", "libcurl-gnutls.so.4" } (the sonames Debian
     * ships the same ABI under); the unused rest stays NULL. */
    const char *sonames[SHELF_LAZY_MAX_SONAMES];
    const char *what;       /* the library in a sentence: "libsecret" */
    const char *needs;      /* what to install when a function is missing: "libsecret", "libmicrohttpd 0.9.71 or newer" */
    const char *package;    /* the Debian package: "libsecret-1-0" */
    const struct shelf_lazy_symbol *symbols;
    size_t symbol_count;
    /* Called once every function is found; returns 0, or fills `failure` and returns -1. May be NULL. */
    int (*start)(char *failure, size_t size);

    pthread_mutex_t lock;   /* PTHREAD_MUTEX_INITIALIZER */
    int tried, ready;
    const char *opened;     /* the soname that opened */
    char failure[512];
};

/* Opens the library and fills its table, the first time; NULL once it is ready, else why it is not (the same
 * sentence on every later call). Safe from any thread. */
const char *shelf_lazy_load(struct shelf_lazy_library *library);

#endif
