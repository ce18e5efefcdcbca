/*
 * shelf plugin ABI, version 1.1 — the core.
 *
 * This header, with the extension headers beside it (format.h, ...), is all a plugin author needs.
 * It is plain C99. A plugin is a shared library that exports exactly one symbol,
 * `shelf_plugin_entry`, returning a constant descriptor. Everything else is found through that
 * descriptor: capabilities are vtables looked up by string id ("shelf.format/1"), and the host's
 * services are handed over at init.
 *
 * ---------------------------------------------------------------------------------------------
 * RULES THAT HOLD FOR EVERY CALL (read these once; the comments below do not repeat them)
 *
 * Versions.  Every struct that crosses the boundary begins with `uint32_t struct_size`, but one:
 *   `shelf_writer`, a callback and its context that the host makes for one call and that never
 *   grows (an output of another shape would come with a new vtable id, not a longer writer). A
 *   struct only ever grows by appending fields, and its size says which fields exist: read a field
 *   only when `struct_size` covers it (SHELF_HAS_FIELD below). The ABI major changes only if a released
 *   struct changes shape, and the host refuses a plugin whose major it does not know. A vtable, once
 *   released under an id, never changes: new calls come under a new id ("shelf.format/2",
 *   "shelf.probe/1"), so a plugin's source that fills a table keeps compiling, warnings and all.
 *
 * Minor versions.  A plugin built for ABI 1.x loads in every 1.y host. The descriptor's `abi_minor`
 *   says which header it was built with. A plugin reads a field of `shelf_host` added after 1.0 only
 *   when `struct_size` covers it, so it also runs in an older host (where that field is absent), and
 *   an older host answers NULL for an extension id it does not know. `shelf plugins` says which calls
 *   a plugin built for an older minor lacks, and that the calls of a newer minor are not made.
 *     1.0  the first release
 *     1.1  shelf_host.plugin_path (the plugin's own file, at init); "shelf.probe/1" (format.h: a
 *          probe that can say why a file it knows for its own cannot be opened); the thread rules
 *          of each call beside it
 *
 * Ownership: whoever allocates frees.  Nothing is ever freed by the other side.
 *   - Pointers passed *into* a call (strings, buffers, structs) belong to the caller and are valid
 *     only until the call returns. Copy what you keep.
 *   - Output leaves a plugin only through a `shelf_writer` the host passes in. The host copies the
 *     bytes before `write` returns, so the plugin may reuse or free its buffer right after.
 *   - A handle a plugin returns (`shelf_publication *`) belongs to the plugin until the host gives
 *     it back through the matching `close`, exactly once.
 *   - The descriptor, its strings and lists, and every vtable are static: valid until the library
 *     is unloaded, never changed after `shelf_plugin_entry` returns.
 *
 * Threading.  Each function says, beside it, from which threads it is called ("Threading:"); what
 *   they have in common:
 *   - Every call of the plugin but `shelf_plugin_entry` and `get_extension` comes after `init`
 *     returned SHELF_OK and before `deinit`.
 *   - "Handle calls" (those taking a shelf_publication, a shelf_connection, a decoder): one handle is
 *     used by one thread at a time; different handles are used concurrently from different threads
 *     only if the descriptor sets SHELF_PLUGIN_CONCURRENT_HANDLES, otherwise the host serialises
 *     every call into the plugin.
 *   - Host services are called only from a thread the host called into, during that call. Never
 *     call the host from a thread of your own.
 *
 * Errors are values.  Every call returns a status (SHELF_OK or one of SHELF_E_*). On failure the
 *   plugin fills the `shelf_error` out-parameter when one is passed (it may be NULL): a message a
 *   patron can act on — what went wrong and, where it helps, what to do — and where (an entry name,
 *   an href, a line). A plugin never prints, never exits, never aborts, and never crashes on bad
 *   input: a broken or hostile file is SHELF_E_BAD_DATA with a message, not undefined behaviour.
 *   Logging goes through the host's `log`.
 *
 * Text.  Every string is UTF-8 and NUL-terminated. Rich values cross as JSON documents in known
 *   shapes (a Readium Web Publication Manifest, a Readium Locator, the settings objects documented
 *   with each call); unknown JSON keys are ignored by both sides, so documents can grow. JSON
 *   numbers always use '.' as the decimal point: the host never changes LC_NUMERIC from "C", but a
 *   plugin that calls setlocale itself must not let a locale leak into the JSON it writes.
 *
 * Pointers.  Unless a comment says "may be NULL", every pointer the host passes is non-NULL,
 *   including every shelf_writer and every shelf_error.
 * ---------------------------------------------------------------------------------------------
 */
#ifndef SHELF_PLUGIN_H
#define SHELF_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI this header describes. A plugin copies these into its descriptor. */
#define SHELF_ABI_MAJOR 1
#define SHELF_ABI_MINOR 1

/*
 * Whether the struct at `ptr` (of type `type`, beginning with `uint32_t struct_size`) has `field`:
 * true when its struct_size covers the field, as for every field of the ABI it was built with.
 *   if (SHELF_HAS_FIELD(host, shelf_host, plugin_path) && host->plugin_path != NULL) ...
 */
#define SHELF_HAS_FIELD(ptr, type, field) \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/* Marks the entry symbol for export; build plugins with -fvisibility=hidden so it is the only one. */
#if defined(_WIN32)
#define SHELF_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define SHELF_EXPORT __attribute__((visibility("default")))
#else
#define SHELF_EXPORT
#endif

/* ----- Status codes ------------------------------------------------------------------------ */

/* Statuses are int32_t, not an enum, so their size never depends on the compiler. */
typedef int32_t shelf_status;

#define SHELF_OK                  0  /* success */
#define SHELF_E_UNSUPPORTED       1  /* this plugin cannot do that (yet): say what in the message */
#define SHELF_E_INVALID_ARGUMENT  2  /* the caller passed something malformed (bad JSON, NULL) */
#define SHELF_E_NOT_FOUND         3  /* the file, entry, href or position does not exist */
#define SHELF_E_BAD_DATA          4  /* the input is broken or not what it claims to be */
#define SHELF_E_PROTECTED         5  /* the content is DRM-protected: name the scheme */
#define SHELF_E_IO                6  /* reading or writing failed (disk, permissions) */
#define SHELF_E_LIMIT             7  /* the input exceeds a safety limit (size, entries, ratio) */
#define SHELF_E_CANCELLED         8  /* the host cancelled the call (see shelf_host.is_cancelled) */
#define SHELF_E_NO_MEMORY         9  /* an allocation failed */
#define SHELF_E_INTERNAL         10  /* a bug in the plugin: nothing the patron can fix */

/* ----- Errors ------------------------------------------------------------------------------ */

#define SHELF_ERROR_MESSAGE_MAX  1024
#define SHELF_ERROR_LOCATION_MAX  256

/*
 * Filled by the plugin when a call fails. The host allocates it, zeroes it and sets
 * `struct_size`; the plugin writes `status` (the value it returns), `message` and, when it knows,
 * `location`. Both strings must be NUL-terminated within their arrays (truncate, never overflow).
 */
typedef struct shelf_error {
    uint32_t struct_size;
    shelf_status status;
    /* One line, no trailing newline: what went wrong, and what the patron can do about it. */
    char message[SHELF_ERROR_MESSAGE_MAX];
    /* Where inside the input: an entry name, href, line, or JSON path. Empty when unknown. */
    char location[SHELF_ERROR_LOCATION_MAX];
} shelf_error;

/*
 * Convenience for C plugins: fills `err` (when not NULL) and returns `status`, so a failing call can
 * end with `return shelf_error_set(err, SHELF_E_BAD_DATA, "chapter1.txt", "line %d is not UTF-8", n);`.
 * `location` may be NULL. The host always passes a whole ABI 1.0 shelf_error, so its fields exist.
 * Threading: any thread; it touches only `err`.
 */
#if defined(__GNUC__)
static inline shelf_status shelf_error_set(shelf_error *err, shelf_status status, const char *location,
                                           const char *format, ...) __attribute__((format(printf, 4, 5)));
#endif
static inline shelf_status shelf_error_set(shelf_error *err, shelf_status status,
                                           const char *location, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        err->status = status;
        va_start(args, format);
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
        if (location != NULL) {
            snprintf(err->location, sizeof err->location, "%s", location);
        } else {
            err->location[0] = '\0';
        }
    }
    return status;
}

/* ----- Output ------------------------------------------------------------------------------ */

/*
 * Where a plugin sends output (JSON documents, resource bytes, rendered text). Supplied by the
 * host for the duration of one call. Threading: `write` is called on the thread of that call,
 * during it. A call may `write` any number of times; the output is the
 * concatenation. `write` returns SHELF_OK, or an error status (SHELF_E_CANCELLED, SHELF_E_LIMIT,
 * SHELF_E_IO): the plugin then stops writing, fills `err` as for any failure, and returns that
 * same status. Output of a call that fails is discarded by the host.
 */
typedef struct shelf_writer {
    void *context;  /* host-private: pass it back unchanged */
    shelf_status (*write)(void *context, const void *data, size_t size);
} shelf_writer;

/* Convenience for C plugins: writes a NUL-terminated string (without the NUL). */
static inline shelf_status shelf_write_string(const shelf_writer *out, const char *text)
{
    return out->write(out->context, text, strlen(text));
}

/* ----- Host services ----------------------------------------------------------------------- */

#define SHELF_LOG_DEBUG    0
#define SHELF_LOG_INFO     1
#define SHELF_LOG_WARNING  2
#define SHELF_LOG_ERROR    3

/*
 * What the host offers a plugin, handed to `init`. The host keeps this struct alive and unchanged
 * until after `deinit` returns, so a plugin may keep the pointer. Each plugin gets its own copy
 * (its directories are its own). The struct grows only by appending: check `struct_size` before
 * reading a field added after ABI 1.0 (SHELF_HAS_FIELD).
 *
 * Threading: every function here may be called from any thread the host called into, during that
 * call, concurrently when the host called in on several threads; never from a thread of the
 * plugin's own, and never after `deinit` returned.
 */
typedef struct shelf_host {
    uint32_t struct_size;
    uint16_t abi_major;         /* the host's ABI version */
    uint16_t abi_minor;
    const char *host_name;      /* "shelf" */
    const char *host_version;   /* e.g. "0.1.0" */
    void *context;              /* host-private: never touch */

    /* Log a one-line message (no trailing newline) at a SHELF_LOG_* level. Also from `init` and
     * `deinit`. Never for the patron's
     * passwords or tokens. The host decides what is shown; it never blocks for long.
     * shelf shows warnings and errors on standard error as "shelf: <plugin id>: <level>: <message>".
     * The environment variable SHELF_LOG lowers or raises the threshold, as GST_DEBUG does for
     * GStreamer: a comma-separated list of LEVEL (every plugin) and PLUGIN-ID:LEVEL (that plugin,
     * a trailing '*' matches a prefix), LEVEL one of debug, info, warning, error, none. The most
     * specific entry wins:  SHELF_LOG=debug  SHELF_LOG=org.example.fb2:debug
     * SHELF_LOG=warning,org.example.*:info  (`shelf help` says the same).
     * Threading: as every host service (above). */
    void (*log)(const struct shelf_host *host, int32_t level, const char *message);

    /* Directories of this plugin's own, created by the host, absolute, without trailing slash.
     * Persistent files go in data_dir; anything that may be deleted at any time in cache_dir.
     * A plugin writes nowhere else. */
    const char *data_dir;
    const char *cache_dir;

    /* Report progress of the call in flight on this thread: fraction in [0, 1], or negative when
     * unknown; label is a short phrase ("indexing chapter 3") or NULL. Returns SHELF_OK, or
     * SHELF_E_CANCELLED when the patron cancelled: stop and return SHELF_E_CANCELLED.
     * Threading: on the thread of the call it reports on, during it. */
    shelf_status (*progress)(const struct shelf_host *host, double fraction, const char *label);

    /* Non-zero when the call in flight on this thread has been cancelled. Each call is cancelled on
     * its own: a call on another thread may go on. Cheap: poll it in loops.
     * Threading: on the thread of the call it asks about, during it. */
    int32_t (*is_cancelled)(const struct shelf_host *host);

    /* Further host services by id (for example "shelf.host.http/1" for connectors). Returns a
     * static vtable documented in that service's header, or NULL when this host lacks it. Also from
     * `init`: a plugin may look its services up once and keep them.
     * Threading: as every host service (above); the vtable it returns is static. */
    const void *(*get_service)(const struct shelf_host *host, const char *id);

    /* ----- ABI 1.1: read only when SHELF_HAS_FIELD(host, shelf_host, <field>) ----- */

    /* The plugin's own library file, absolute, as the host loaded it (as CLAP's `init(plugin_path)`):
     * a plugin finds the data files it installs beside itself from here (dirname of it). Read-only:
     * a plugin writes only in data_dir and cache_dir. Never NULL in a 1.1 host. */
    const char *plugin_path;
} shelf_host;

/* ----- The descriptor ---------------------------------------------------------------------- */

/* Separate handles may be used from separate threads at once (see "Threading" above). */
#define SHELF_PLUGIN_CONCURRENT_HANDLES  ((uint64_t)1 << 0)

typedef struct shelf_plugin_descriptor {
    uint32_t struct_size;       /* sizeof(shelf_plugin_descriptor) as the plugin was built */
    uint16_t abi_major;         /* SHELF_ABI_MAJOR */
    uint16_t abi_minor;         /* SHELF_ABI_MINOR */

    /* Unique, stable, reverse-DNS: lowercase letters, digits, '.', '-' and '_', e.g.
     * "org.example.markdown". Two plugins with one id are refused. */
    const char *id;
    const char *name;           /* for people: "Markdown books" */
    const char *version;        /* the plugin's own version, e.g. "1.2.0" */
    const char *license;        /* SPDX expression, e.g. "MIT" */
    const char *vendor;         /* may be NULL */
    const char *url;            /* may be NULL */
    const char *description;    /* one sentence, may be NULL */

    uint64_t flags;             /* SHELF_PLUGIN_* bits */

    /* NULL-terminated lists; a NULL list means empty.
     * media_types: what `shelf.format/1` opens, lowercase "type/subtype" without parameters,
     *   e.g. "application/epub+zip". Several plugins may claim one type: probing decides.
     * file_extensions: lowercase, without the dot ("epub"); used only when content sniffing
     *   cannot tell.
     * services: reading-list services this plugin connects to ("goodreads"). */
    const char *const *media_types;
    const char *const *file_extensions;
    const char *const *services;

    /* Called once after loading, before any call but `shelf_plugin_entry` and `get_extension`.
     * Return SHELF_OK, or an error with a message: the host then unloads the plugin and says why.
     * `host->plugin_path` (ABI 1.1) is the plugin's own file. May be NULL.
     * Threading: once, by one thread, with no other call of the plugin in flight. */
    shelf_status (*init)(const shelf_host *host, shelf_error *err);

    /* Called once before unloading, after every handle has been closed. May be NULL.
     * Threading: once, by one thread, with no other call of the plugin in flight; no host service
     * may be called after it returns. */
    void (*deinit)(void);

    /* The vtable for a capability id ("shelf.format/1", see the extension headers), or NULL when
     * the plugin does not offer it. Returns the same pointer every time, before `init` as after;
     * the vtable's functions are called only after `init`.
     * Threading: any thread, concurrently, at any time after the library is loaded, before `init`
     * too (the host reads what a plugin offers before it initialises it) and until `deinit`
     * returns: it only returns static pointers. */
    const void *(*get_extension)(const char *id);
} shelf_plugin_descriptor;

/*
 * The one symbol a plugin exports. Returns a pointer to a static descriptor; must not allocate,
 * do I/O, or fail. The host calls it right after dlopen and checks the descriptor before `init`.
 * Threading: any thread, concurrently, at any time the library is loaded (as get_extension).
 * Declared here so that a definition with another signature does not compile:
 *
 *     SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
 */
SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void);
typedef const shelf_plugin_descriptor *(*shelf_plugin_entry_fn)(void);
#define SHELF_PLUGIN_ENTRY_SYMBOL "shelf_plugin_entry"

#ifdef __cplusplus
}
#endif

#endif /* SHELF_PLUGIN_H */
