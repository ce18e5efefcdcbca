/*
 * libshelf-plugin: help for shelf plugins written in C.  SPDX-License-Identifier: MIT
 * Copyright (c) the shelf authors. Permission is granted to use, copy, modify and distribute this
 * library for any purpose, with or without fee, provided this notice is kept (the MIT licence).
 *
 * Every call of the plugin ABI speaks JSON. This library writes it (escaping that is always right,
 * numbers that no locale can turn into "0,5", commas and colons placed for you), reads the few
 * documents a plugin receives (settings, locators, render settings, reading-list entries) strictly
 * and safely, builds Locators and manifests in the shapes format.h and readinglist.h describe, and
 * fills the shelf_error out-parameter. C99 and libc only; thread-safe (no global state).
 *
 *   cc -fPIC -shared -fvisibility=hidden -o libshelf-mine.so mine.c \
 *      $(pkg-config --cflags --libs shelf-plugin)
 *
 * links the shared library (with its folder as run path); for a plugin that carries everything in
 * one file, link `$(pkg-config --variable=staticlib shelf-plugin)` instead of `--libs`. Either way
 * the plugin still exports only shelf_plugin_entry. A whole format plugin of under 150 lines written
 * with this library is in plugin-library.md, installed with this header in
 * PREFIX/share/doc/shelf-plugin-dev/ (docs/ in shelf's source) beside examples/: that plugin
 * (gemini-plugin), a complete one for text books (text-plugin) and a connector (readinglist-plugin),
 * each with a Makefile that builds against the installed kit. `shelf-plugin-host PLUGIN SAMPLE` runs
 * a plugin without shelf, under valgrind or a sanitizer if you like.
 *
 * Conventions: functions never abort and never print. Writing goes into a `shelf_out` whose first
 * error sticks (later writes do nothing), so a call writes everything and checks once at the end
 * with shelf_out_finish. Pointers returned by the reader live as long as their document.
 */
#ifndef SHELF_HELPER_H
#define SHELF_HELPER_H

#include <shelf/plugin.h>
#include <shelf/speech.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Visible from the shared library; hidden inside a plugin that links the static one. */
#if defined(SHELF_HELPER_BUILD_SHARED) && defined(__GNUC__)
#define SHELF_HELPER_API __attribute__((visibility("default")))
#else
#define SHELF_HELPER_API
#endif

#define SHELF_HELPER_VERSION "1.0.0"

/* ----- Output ------------------------------------------------------------------------------ */

#define SHELF_OUT_MAX_DEPTH 64

/* A buffer in front of a host's shelf_writer. Lives on the stack; needs no freeing. */
typedef struct shelf_out {
    const shelf_writer *writer;
    shelf_status status;        /* SHELF_OK, or the first error (the writer's, or misuse) */
    size_t used;
    unsigned depth;             /* JSON nesting, for the commas */
    unsigned char filled[SHELF_OUT_MAX_DEPTH + 1];
    int after_key;
    char buffer[4096];
} shelf_out;

SHELF_HELPER_API void shelf_out_init(shelf_out *out, const shelf_writer *writer);
/* Bytes as they are (resource contents, rendered text). */
SHELF_HELPER_API void shelf_out_bytes(shelf_out *out, const void *data, size_t size);
SHELF_HELPER_API void shelf_out_text(shelf_out *out, const char *text);
/* Text escaped for XHTML content and attribute values: & < > " ' become references, and
 * characters XML forbids (C0 controls but tab, CR, LF; invalid UTF-8) become U+FFFD. */
SHELF_HELPER_API void shelf_out_xml(shelf_out *out, const char *text, size_t size);
/* Flushes. Returns SHELF_OK, or the first error with `err` filled (naming the writer's status). */
SHELF_HELPER_API shelf_status shelf_out_finish(shelf_out *out, shelf_error *err);

/* A growable, NUL-terminated buffer that a shelf_writer fills: what a connector collects from the
 * host's HTTP and credential services, or a test from a plugin. Starts zeroed ({0}); free with
 * shelf_buffer_free. A write beyond `limit` bytes (0: 16 MiB) fails with SHELF_E_LIMIT. */
typedef struct shelf_buffer {
    char *data;                 /* NULL until something is written */
    size_t size, capacity, limit;
} shelf_buffer;

SHELF_HELPER_API shelf_writer shelf_buffer_writer(shelf_buffer *buffer);
SHELF_HELPER_API void shelf_buffer_reset(shelf_buffer *buffer);     /* empties it, keeps the memory */
SHELF_HELPER_API void shelf_buffer_free(shelf_buffer *buffer);

/* ----- JSON writing ------------------------------------------------------------------------ */
/* Values go where they are written: at the top, into an array, or after a key. Commas and colons
 * are placed for you; nesting deeper than SHELF_OUT_MAX_DEPTH, or a key outside an object, sets
 * the status to SHELF_E_INTERNAL. Strings are escaped as RFC 8259 asks: quote, backslash and every
 * control character (U+0000..U+001F, and U+007F) escaped, invalid UTF-8 replaced by U+FFFD, so
 * whatever bytes a plugin holds, the output is valid JSON. */

SHELF_HELPER_API void shelf_json_begin_object(shelf_out *out);
SHELF_HELPER_API void shelf_json_end_object(shelf_out *out);
SHELF_HELPER_API void shelf_json_begin_array(shelf_out *out);
SHELF_HELPER_API void shelf_json_end_array(shelf_out *out);
SHELF_HELPER_API void shelf_json_key(shelf_out *out, const char *key);
SHELF_HELPER_API void shelf_json_string(shelf_out *out, const char *text);     /* NULL writes null */
SHELF_HELPER_API void shelf_json_string_n(shelf_out *out, const char *text, size_t size);
SHELF_HELPER_API void shelf_json_int(shelf_out *out, int64_t value);
/* The shortest text that reads back as the same double, always with '.'; NaN and infinities,
 * which JSON cannot hold, are written as null. */
SHELF_HELPER_API void shelf_json_number(shelf_out *out, double value);
/* num/den in [0, 1], exactly, with up to 9 decimals ("0.333333333"); den 0 writes 0. */
SHELF_HELPER_API void shelf_json_fraction(shelf_out *out, uint64_t num, uint64_t den);
SHELF_HELPER_API void shelf_json_bool(shelf_out *out, int value);
SHELF_HELPER_API void shelf_json_null(shelf_out *out);
/* Members in one call; the *_opt forms write nothing when the value is NULL / negative. */
SHELF_HELPER_API void shelf_json_member_string(shelf_out *out, const char *key, const char *text);
SHELF_HELPER_API void shelf_json_member_string_opt(shelf_out *out, const char *key, const char *text);
SHELF_HELPER_API void shelf_json_member_int(shelf_out *out, const char *key, int64_t value);
SHELF_HELPER_API void shelf_json_member_number_opt(shelf_out *out, const char *key, double value);
SHELF_HELPER_API void shelf_json_member_bool(shelf_out *out, const char *key, int value);

/* ----- Numbers and text, without the locale ------------------------------------------------ */

/* Writes `value` as above into `text` (at least 32 bytes), NUL-terminated; returns the length. */
SHELF_HELPER_API size_t shelf_number_format(double value, char *text);
/* Reads a JSON number (optional '-', digits, '.', exponent) from text[0..size); the whole range
 * must be the number. Returns 1 and sets *value, or 0. '.' is the decimal point in every locale. */
SHELF_HELPER_API int shelf_number_parse(const char *text, size_t size, double *value);
/* The offset of the first byte of text[0..size) that is not valid UTF-8 (or is NUL), or `size`. */
SHELF_HELPER_API size_t shelf_utf8_check(const void *text, size_t size);

/* ----- JSON reading ------------------------------------------------------------------------ */
/* A strict RFC 8259 reader: one value, UTF-8, no trailing commas, no comments, no leading zeros,
 * nesting at most 64 deep, documents up to 16 MiB. Duplicate keys: the first wins. A value that is
 * absent reads as NULL, and every accessor accepts NULL, so a path of lookups needs no checks. */

#define SHELF_JSON_MAX_DEPTH 64
#define SHELF_JSON_MAX_SIZE ((size_t)16 << 20)

typedef enum shelf_json_type {
    SHELF_JSON_MISSING = 0, SHELF_JSON_NULL, SHELF_JSON_BOOL, SHELF_JSON_NUMBER, SHELF_JSON_STRING,
    SHELF_JSON_ARRAY, SHELF_JSON_OBJECT
} shelf_json_type;

typedef struct shelf_json_doc shelf_json_doc;       /* a parsed document: one allocation */
typedef struct shelf_json_value shelf_json_value;   /* a value inside it */

/* Parses `text` (NUL-terminated). On failure returns NULL and fills `err` with
 * SHELF_E_INVALID_ARGUMENT ("the `what` JSON is malformed at line 1, column 7: ..."; also when
 * too large or too deep: a plugin passes the status on as its answer to a bad argument), or
 * SHELF_E_NO_MEMORY. `what` names the document
 * ("settings"). text NULL is an error too: callers that accept NULL check first. */
SHELF_HELPER_API shelf_json_doc *shelf_json_parse(const char *text, const char *what, shelf_error *err);
SHELF_HELPER_API void shelf_json_free(shelf_json_doc *doc);
SHELF_HELPER_API const shelf_json_value *shelf_json_root(const shelf_json_doc *doc);

SHELF_HELPER_API shelf_json_type shelf_json_type_of(const shelf_json_value *value);
/* A member of an object by key, or NULL. */
SHELF_HELPER_API const shelf_json_value *shelf_json_get(const shelf_json_value *object, const char *key);
/* Members through nested objects by a dotted path: "locations.position". */
SHELF_HELPER_API const shelf_json_value *shelf_json_path(const shelf_json_value *value, const char *path);
/* Elements of an array or members of an object, in order: first, then next until NULL. */
SHELF_HELPER_API const shelf_json_value *shelf_json_first(const shelf_json_value *container);
SHELF_HELPER_API const shelf_json_value *shelf_json_next(const shelf_json_value *value);
/* The number of elements or members (0 for anything else). */
SHELF_HELPER_API size_t shelf_json_count(const shelf_json_value *container);
/* The key of an object member ("" for an array element). */
SHELF_HELPER_API const char *shelf_json_key_of(const shelf_json_value *member);
/* A decoded, NUL-terminated string, or `fallback` when the value is not a string. A string holding
 * "\u0000" is cut there; shelf_json_string_size gives the whole length. */
SHELF_HELPER_API const char *shelf_json_as_string(const shelf_json_value *value, const char *fallback);
SHELF_HELPER_API size_t shelf_json_string_size(const shelf_json_value *value);
SHELF_HELPER_API double shelf_json_as_number(const shelf_json_value *value, double fallback);
SHELF_HELPER_API int shelf_json_as_bool(const shelf_json_value *value, int fallback);
/* 1 with *out set when the value is a number without a fractional part within +-2^53, else 0. */
SHELF_HELPER_API int shelf_json_as_whole(const shelf_json_value *value, int64_t *out);

/* ----- Locators ---------------------------------------------------------------------------- */

/* A Readium Locator (format.h): href and type are required. Absent parts: NULL strings, position 0,
 * negative progressions. */
typedef struct shelf_locator {
    const char *href;
    const char *type;
    const char *title;
    int64_t position;               /* from 1 */
    double progression;             /* within the href's resource, [0, 1] */
    double total_progression;       /* within the publication, [0, 1] */
    const char *fragment;           /* the first of "fragments" */
    const char *before, *highlight, *after;     /* "text", for search results */
} shelf_locator;

SHELF_HELPER_API void shelf_locator_init(shelf_locator *locator);
/* Writes the Locator as a JSON value. */
SHELF_HELPER_API void shelf_json_locator(shelf_out *out, const shelf_locator *locator);
/* Reads a Locator document: a JSON object whose href and title are strings, position a whole
 * number from 1 and progressions numbers in [0, 1], each when present. On SHELF_OK *doc holds the
 * strings the locator points to (free it with shelf_json_free); on failure *doc is NULL and `err`
 * names the key (SHELF_E_INVALID_ARGUMENT). */
SHELF_HELPER_API shelf_status shelf_locator_parse(const char *json, shelf_json_doc **doc,
                                                  shelf_locator *locator, shelf_error *err);
/* The totalProgression of position p (from 1) of n, as format.h defines it: (p - 1) / n. */
SHELF_HELPER_API double shelf_total_progression(uint64_t position, uint64_t count);

/* ----- Render settings --------------------------------------------------------------------- */

typedef enum shelf_theme { SHELF_THEME_DAY = 0, SHELF_THEME_NIGHT, SHELF_THEME_SEPIA } shelf_theme;

typedef struct shelf_render_settings {
    int html;                       /* "as": "html" */
    int width;                      /* 10..1000, default 72 */
    int font_scale;                 /* percent, 25..800, default 100 */
    int sans;                       /* "font": "sans" */
    shelf_theme theme;
} shelf_render_settings;

/* Reads render settings (format.h) with its defaults, clamps and fallbacks; NULL means defaults.
 * Only JSON that does not parse, or that is not an object, fails (SHELF_E_INVALID_ARGUMENT). */
SHELF_HELPER_API shelf_status shelf_render_settings_parse(const char *json, shelf_render_settings *settings,
                                                          shelf_error *err);
/* Writes `<!DOCTYPE html>` and an XHTML document's head, and opens <body> with the settings as
 * CSS; shelf_xhtml_end closes it. `title` and `language` may be NULL. */
SHELF_HELPER_API void shelf_xhtml_begin(shelf_out *out, const shelf_render_settings *settings,
                                        const char *title, const char *language);
SHELF_HELPER_API void shelf_xhtml_end(shelf_out *out);

/* ----- Manifests --------------------------------------------------------------------------- */

/* The metadata shelf reads (see format.h). */
typedef struct shelf_metadata {
    const char *title;                  /* required */
    const char *const *authors;         /* NULL-terminated, or NULL: written as "author": [{"name"}] */
    const char *language;               /* a BCP 47 tag, or NULL */
    const char *identifier;             /* "urn:isbn:9780142402498" matches editions; or NULL */
    double duration;                    /* seconds, audiobooks; negative when none */
    int64_t number_of_pages;            /* 0 when not known */
} shelf_metadata;

typedef struct shelf_link {
    const char *href;                   /* relative to the publication root, percent-encoded */
    const char *type;
    const char *title;                  /* may be NULL */
    const char *rel;                    /* may be NULL ("cover") */
    double duration;                    /* seconds; negative when none */
} shelf_link;

SHELF_HELPER_API void shelf_link_init(shelf_link *link);
/* Opens the manifest object and writes @context, metadata and "links": []; then write lists. */
SHELF_HELPER_API void shelf_manifest_begin(shelf_out *out, const shelf_metadata *metadata);
/* Opens a list of links under `name`: "readingOrder", "resources" or "toc". */
SHELF_HELPER_API void shelf_manifest_list(shelf_out *out, const char *name);
SHELF_HELPER_API void shelf_json_link(shelf_out *out, const shelf_link *link);
SHELF_HELPER_API void shelf_manifest_list_end(shelf_out *out);
SHELF_HELPER_API void shelf_manifest_end(shelf_out *out);

/* ----- Reading-list entries ---------------------------------------------------------------- */

#define SHELF_ENTRY_MAX_AUTHORS 8

/* An entry (readinglist.h). Absent parts are NULL; rating 0 when not rated. */
typedef struct shelf_entry {
    const char *isbn13, *isbn10;
    const char *service_id;             /* identifiers[<service>] when read with a service */
    const char *title;
    const char *authors[SHELF_ENTRY_MAX_AUTHORS + 1];   /* NULL-terminated */
    const char *shelf;
    const char *date_added, *date_read;
    double rating;                      /* 1..5; halves allowed (4.5) */
} shelf_entry;

SHELF_HELPER_API void shelf_entry_init(shelf_entry *entry);
/* Reads one entry object; strings point into its document. `service` (may be NULL) selects
 * identifiers[service]. Wrong types are SHELF_E_INVALID_ARGUMENT naming the key. */
SHELF_HELPER_API shelf_status shelf_entry_read(const shelf_json_value *value, const char *service,
                                               shelf_entry *entry, shelf_error *err);
/* Writes an entry; `service` (may be NULL) names the key of service_id in "identifiers". */
SHELF_HELPER_API void shelf_json_entry(shelf_out *out, const shelf_entry *entry, const char *service);

/* ----- Speech (speech.h, shelf.speech/1) ---------------------------------------------------- */

#define SHELF_SPEECH_MAX_PRONUNCIATIONS 256
#define SHELF_SPEECH_MAX_LEXICONS 16

/* A span of the text said as `ph` says (ssml:ph), in `alphabet` ("ipa" unless the book says). */
typedef struct shelf_pronunciation {
    size_t offset, length;              /* bytes of the text */
    const char *ph;
    const char *alphabet;
} shelf_pronunciation;

/* The options of `speak`, with their defaults; strings point into the document. */
typedef struct shelf_speech_options {
    const char *voice;                  /* NULL: the best voice for `language` */
    const char *language;               /* NULL: the voice's own */
    double rate;                        /* 1 unless asked, clamped to 0.5..3 */
    size_t pronunciation_count;
    shelf_pronunciation pronunciations[SHELF_SPEECH_MAX_PRONUNCIATIONS];
    size_t lexicon_count;
    const char *lexicons[SHELF_SPEECH_MAX_LEXICONS];
} shelf_speech_options;

/* Reads the options of `speak` (NULL means defaults). Only JSON that does not parse, that is not
 * an object, or a key of the wrong type is SHELF_E_INVALID_ARGUMENT, naming the key; a span
 * outside `text_size` bytes is dropped, as is anything past the maxima. On SHELF_OK *doc holds
 * the strings (free it with shelf_json_free; NULL when json was NULL). */
SHELF_HELPER_API shelf_status shelf_speech_options_parse(const char *json, size_t text_size, shelf_json_doc **doc,
                                                         shelf_speech_options *options, shelf_error *err);

/* A voice as `voices` writes it; languages NULL-terminated, gender NULL when not said. */
typedef struct shelf_voice {
    const char *id;
    const char *name;
    const char *const *languages;
    const char *gender;
} shelf_voice;

SHELF_HELPER_API void shelf_json_voice(shelf_out *out, const shelf_voice *voice);

/* A mark with its struct_size set (speech.h, "Marks"). */
SHELF_HELPER_API shelf_speech_mark shelf_speech_mark_make(uint32_t kind, size_t text_offset, size_t text_length,
                                                          int64_t frame);

/* The byte offset of character `index` (0 is the first) of the UTF-8 text[0..size), or `size`
 * when the text has fewer characters: engines that count characters give marks in bytes so. An
 * invalid byte counts as one character. */
SHELF_HELPER_API size_t shelf_utf8_offset_of_character(const char *text, size_t size, size_t index);

/* ----- Files and errors -------------------------------------------------------------------- */

/* Reads a whole regular file into a malloc'd, NUL-terminated buffer (free it with free()).
 * SHELF_E_NOT_FOUND, SHELF_E_IO, SHELF_E_BAD_DATA (not a regular file) or SHELF_E_LIMIT (larger
 * than `limit` bytes), each with a message naming the path. */
SHELF_HELPER_API shelf_status shelf_read_file(const char *path, size_t limit, char **data, size_t *size,
                                              shelf_error *err);
/* SHELF_E_NO_MEMORY with "out of memory while <doing>". */
SHELF_HELPER_API shelf_status shelf_error_no_memory(shelf_error *err, const char *doing);

#ifdef __cplusplus
}
#endif

#endif /* SHELF_HELPER_H */
