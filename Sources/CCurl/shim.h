#ifndef SHELF_CCURL_SHIM_H
#define SHELF_CCURL_SHIM_H

#include <curl/curl.h>
/* Not curl, but needed next to it: downloads keep the version of a partial file in an extended
   attribute (see PartFileValidator.swift), and Swift's Glibc module leaves this header out. */
#include <sys/xattr.h>

/*
 * curl_easy_setopt and curl_easy_getinfo are variadic, and Swift cannot call C variadic
 * functions. These typed wrappers give Swift one entry per argument type; the option
 * decides which wrapper is right (see the CURLOPTTYPE_* of each option in curl.h).
 */

static inline CURLcode shelf_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shelf_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/* libcurl copies string options (since 7.17), so the Swift string may go away afterwards. */
static inline CURLcode shelf_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/* For CURLOPT_*DATA, CURLOPT_HTTPHEADER, CURLOPT_ERRORBUFFER: the pointer must outlive the transfer. */
static inline CURLcode shelf_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/* The shape shared by CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
typedef size_t (*shelf_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode shelf_curl_set_data_callback(CURL *handle, CURLoption option,
                                                    shelf_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/* CURLOPT_XFERINFOFUNCTION: a non-zero return aborts the transfer (used for cancellation). */
typedef int (*shelf_curl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                            curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode shelf_curl_set_xferinfo_callback(CURL *handle, shelf_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode shelf_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode shelf_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* The returned string belongs to the handle and dies with it: copy it before curl_easy_cleanup. */
static inline CURLcode shelf_curl_get_string(CURL *handle, CURLINFO info, const char **value) {
    char *raw = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &raw);
    *value = raw;
    return code;
}

#endif
