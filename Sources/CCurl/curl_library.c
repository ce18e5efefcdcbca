#include "CCurl.h"

#include "CLazyLibrary.h"

#include <stdio.h>

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

static const struct shelf_lazy_symbol symbols[] = {
    { (void **)&curl.global_init, "curl_global_init" },
    { (void **)&curl.easy_init, "curl_easy_init" },
    { (void **)&curl.easy_cleanup, "curl_easy_cleanup" },
    { (void **)&curl.easy_perform, "curl_easy_perform" },
    { (void **)&curl.easy_strerror, "curl_easy_strerror" },
    { (void **)&curl.easy_setopt, "curl_easy_setopt" },
    { (void **)&curl.easy_getinfo, "curl_easy_getinfo" },
    { (void **)&curl.slist_append, "curl_slist_append" },
    { (void **)&curl.slist_free_all, "curl_slist_free_all" },
    { (void **)&curl.getdate, "curl_getdate" },
};

/* curl_global_init is not thread-safe: the loader's lock makes this its only call. */
static int start(char *failure, size_t size) {
    if (curl.global_init(CURL_GLOBAL_ALL) == CURLE_OK) return 0;
    snprintf(failure, size, "libcurl could not start (curl_global_init failed)");
    return -1;
}

/* The sonames Debian ships: the OpenSSL build first (what libcurl4-openssl-dev links), then the GnuTLS one, which
   has the same ABI. */
static struct shelf_lazy_library library = {
    .sonames = { "libcurl.so.4", "libcurl-gnutls.so.4" }, .what = "libcurl", .needs = "libcurl 7.68 or newer",
    .package = "libcurl4", .symbols = symbols, .symbol_count = sizeof symbols / sizeof *symbols, .start = start,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *shelf_curl_load(void) { return shelf_lazy_load(&library); }

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
