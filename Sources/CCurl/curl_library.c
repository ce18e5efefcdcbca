#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The sonames Debian ships: the OpenSSL build first (what libcurl4-openssl-dev links), then the
   GnuTLS one, which has the same ABI. */
static const char *const candidates[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    time_t (*getdate)(const char *, const time_t *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static int ready;

#define RESOLVE(library, field, symbol)                                                       \
    do {                                                                                       \
        *(void **)(&curl.field) = dlsym(library, symbol);                                      \
        if (!curl.field) {                                                                     \
            snprintf(failure, sizeof failure, "libcurl has no %s: install libcurl 7.68 or newer " \
                     "(apt-get install libcurl4)", symbol);                                    \
            return;                                                                            \
        }                                                                                      \
    } while (0)

static void load(void) {
    void *library = NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates && !library; i++)
        library = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "libcurl could not be opened (%s): install it with apt-get install libcurl4",
                 dlerror());
        return;
    }
    RESOLVE(library, global_init, "curl_global_init");
    RESOLVE(library, easy_init, "curl_easy_init");
    RESOLVE(library, easy_cleanup, "curl_easy_cleanup");
    RESOLVE(library, easy_perform, "curl_easy_perform");
    RESOLVE(library, easy_strerror, "curl_easy_strerror");
    RESOLVE(library, easy_setopt, "curl_easy_setopt");
    RESOLVE(library, easy_getinfo, "curl_easy_getinfo");
    RESOLVE(library, slist_append, "curl_slist_append");
    RESOLVE(library, slist_free_all, "curl_slist_free_all");
    RESOLVE(library, getdate, "curl_getdate");
    /* curl_global_init is not thread-safe: pthread_once makes this its only call. */
    if (curl.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(failure, sizeof failure, "libcurl could not start (curl_global_init failed)");
        return;
    }
    ready = 1;
}

const char *shelf_curl_load(void) {
    pthread_once(&once, load);
    return ready ? NULL : failure;
}

/* Handles only exist after a successful load, so the functions taking one need no check. */
CURL *shelf_curl_easy_init(void) { return shelf_curl_load() ? NULL : curl.easy_init(); }
void shelf_curl_easy_cleanup(CURL *handle) { if (handle) curl.easy_cleanup(handle); }
CURLcode shelf_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }

const char *shelf_curl_easy_strerror(CURLcode code) {
    return shelf_curl_load() ? "libcurl is not available" : curl.easy_strerror(code);
}

struct curl_slist *shelf_curl_slist_append(struct curl_slist *list, const char *line) {
    return shelf_curl_load() ? NULL : curl.slist_append(list, line);
}

void shelf_curl_slist_free_all(struct curl_slist *list) {
    if (list) curl.slist_free_all(list);
}

long long shelf_curl_getdate(const char *date) {
    return shelf_curl_load() ? -1 : (long long)curl.getdate(date, NULL);
}

CURLcode shelf_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode shelf_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode shelf_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode shelf_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode shelf_curl_set_data_callback(CURL *handle, CURLoption option, shelf_curl_data_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode shelf_curl_set_xferinfo_callback(CURL *handle, shelf_curl_xferinfo_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode shelf_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode shelf_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode shelf_curl_get_string(CURL *handle, CURLINFO info, const char **value) {
    char *raw = NULL;
    CURLcode code = curl.easy_getinfo(handle, info, &raw);
    *value = raw;
    return code;
}
