#ifndef SHELF_CCURL_H
#define SHELF_CCURL_H

/*
 * libcurl, opened on first use instead of linked.
 *
 * Linking libcurl costs every shelf process about 8 ms before main (its dependency tree —
 * GnuTLS, Kerberos, LDAP, RTMP — runs constructors and relocations), yet most commands
 * (read, books, bookmarks, render) never touch the network. So the host links no libcurl:
 * the first HTTP request dlopen()s libcurl.so.4 and resolves the few entry points below.
 * The types and constants still come from curl.h, so the ABI is the one we compiled against.
 */
#include <curl/curl.h>
#include <stddef.h>
/* Not curl, but needed next to it: downloads keep the version of a partial file in an extended
   attribute (see PartFileValidator.swift), and Swift's Glibc module leaves this header out. */
#include <sys/xattr.h>

/* Opens libcurl and runs curl_global_init, once per process, thread-safe. NULL when ready;
   otherwise a message saying what is missing. Every function below calls it first. */
const char *shelf_curl_load(void);

CURL *shelf_curl_easy_init(void);
void shelf_curl_easy_cleanup(CURL *handle);
CURLcode shelf_curl_easy_perform(CURL *handle);
const char *shelf_curl_easy_strerror(CURLcode code);
struct curl_slist *shelf_curl_slist_append(struct curl_slist *list, const char *line);
void shelf_curl_slist_free_all(struct curl_slist *list);
/* -1 when the date cannot be read, or when libcurl cannot be opened. */
long long shelf_curl_getdate(const char *date);

/*
 * curl_easy_setopt and curl_easy_getinfo are variadic, and Swift cannot call C variadic
 * functions. These typed wrappers give Swift one entry per argument type; the option
 * decides which wrapper is right (see the CURLOPTTYPE_* of each option in curl.h).
 */
CURLcode shelf_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode shelf_curl_set_off(CURL *handle, CURLoption option, curl_off_t value);
/* libcurl copies string options (since 7.17), so the Swift string may go away afterwards. */
CURLcode shelf_curl_set_string(CURL *handle, CURLoption option, const char *value);
/* For CURLOPT_*DATA, CURLOPT_HTTPHEADER, CURLOPT_ERRORBUFFER: the pointer must outlive the transfer. */
CURLcode shelf_curl_set_pointer(CURL *handle, CURLoption option, void *value);

/* The shape shared by CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
typedef size_t (*shelf_curl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode shelf_curl_set_data_callback(CURL *handle, CURLoption option, shelf_curl_data_callback callback);

/* CURLOPT_XFERINFOFUNCTION: a non-zero return aborts the transfer (used for cancellation). */
typedef int (*shelf_curl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                            curl_off_t upload_total, curl_off_t upload_now);
CURLcode shelf_curl_set_xferinfo_callback(CURL *handle, shelf_curl_xferinfo_callback callback);

CURLcode shelf_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode shelf_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value);
/* The returned string belongs to the handle and dies with it: copy it before curl_easy_cleanup. */
CURLcode shelf_curl_get_string(CURL *handle, CURLINFO info, const char **value);

#endif
