/*
 * Internal declarations of the shelf text plugin. Nothing here is exported: the library is
 * built with -fvisibility=hidden and only `shelf_plugin_entry` (plugin.c) is marked SHELF_EXPORT.
 *
 *   book.c   reading a file, checking it is UTF-8 text, finding chapters, title and author
 *   json.c   a small tolerant JSON reader (for locators and settings) and a buffered JSON writer
 *   plugin.c the descriptor and the shelf.format/render/positions/search vtables
 */
#ifndef SHELF_TEXT_PLUGIN_H
#define SHELF_TEXT_PLUGIN_H

#include <shelf/format.h>

#define TEXT_MAX_FILE_SIZE   ((size_t)64 * 1024 * 1024) /* SHELF_E_LIMIT above this */
#define TEXT_POSITION_BYTES  1024                       /* one position ("page") per ~1 KiB */

/* ----- the publication ---------------------------------------------------------------------- */

typedef struct chapter {
    size_t start, end;          /* byte range of the chapter's text in book.text */
    char *title;                /* owned, UTF-8 */
    char href[32];              /* "chapter-3.md" */
    size_t first_position;      /* index into book.positions (0-based) */
    size_t position_count;      /* at least 1 */
} chapter;

typedef struct position {
    size_t chapter;             /* index into book.chapters */
    size_t start;               /* byte offset in the chapter's text (0 = chapter start) */
} position;

struct shelf_publication {
    char *text;                 /* the whole file, NUL-terminated, BOM and front matter kept */
    size_t size;
    int markdown;               /* text/markdown rather than text/plain */
    char *title;                /* never NULL after open */
    char *author;               /* NULL when unknown */
    char *language;             /* NULL when not declared */
    chapter *chapters;
    size_t chapter_count;
    position *positions;
    size_t position_count;
};

/* The publication's media type for its chapters. */
const char *book_media_type(const shelf_publication *book);

/* Reads and parses `input`. On failure returns NULL and fills err. */
shelf_status book_open(const shelf_input *input, const shelf_host *host,
                       shelf_publication **out, shelf_error *err);
void book_close(shelf_publication *book);

/* Chapter by href (a "#fragment" is ignored); NULL when there is none. */
const chapter *book_find_chapter(const shelf_publication *book, const char *href);

/* Index of the position holding byte `offset` of chapter `c`. */
size_t book_position_at(const shelf_publication *book, size_t c, size_t offset);

/* Plain text: is this line a chapter heading ("CHAPTER I", "Chapter 12. The Storm")? */
int book_chapter_line(const char *line, size_t n);

/* ----- UTF-8 ---------------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is invalid or truncated. */
size_t utf8_sequence(const unsigned char *s, size_t n, unsigned long *codepoint);

/* Checks text[0..n): returns n when it is valid UTF-8 without NUL bytes, else the offset of the
 * first bad byte. When `allow_truncated_end` is set, a sequence cut short by the end is accepted. */
size_t utf8_check(const unsigned char *text, size_t n, int allow_truncated_end);

/* Number of code points in s[0..n) (invalid bytes count one each). */
size_t utf8_length(const char *s, size_t n);

/* ----- JSON reading --------------------------------------------------------------------------- */

typedef enum json_type {
    JSON_MISSING = 0, JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} json_type;

/* One value the caller wants, by dotted path through objects: "href", "locations.position". */
typedef struct json_want {
    const char *path;
    json_type type;             /* set by json_scan; JSON_MISSING when absent */
    double number;              /* JSON_NUMBER */
    int boolean;                /* JSON_BOOL */
    const char *raw;            /* JSON_STRING: the characters between the quotes, still escaped */
    size_t raw_size;
} json_want;

/* Parses the whole document `json` (must be an object) and fills `wants`. Returns SHELF_OK, or
 * SHELF_E_INVALID_ARGUMENT with a message naming what and where (`what` names the document,
 * e.g. "settings"). Never reads past the terminating NUL; nesting is limited. */
shelf_status json_scan(const char *json, json_want *wants, size_t count, const char *what,
                       shelf_error *err);

/* A decoded copy (malloc) of a JSON_STRING want; NULL when out of memory. */
char *json_string(const json_want *want);

/* ----- JSON and text writing ------------------------------------------------------------------ */

/* Buffers output for a shelf_writer; the first error from the host sticks and stops writing. */
typedef struct sink {
    const shelf_writer *writer;
    shelf_status status;
    size_t used;
    char buffer[8192];
} sink;

void sink_init(sink *s, const shelf_writer *writer);
void sink_bytes(sink *s, const char *data, size_t size);
void sink_str(sink *s, const char *text);
void sink_size(sink *s, size_t value);
/* num/den in [0, 1] as a decimal with up to 9 digits, computed exactly and locale-free. */
void sink_fraction(sink *s, size_t num, size_t den);
/* A JSON string literal with quotes, escaping quotes, backslashes and control characters. */
void sink_json_string(sink *s, const char *text, size_t size);
/* The same escaping without the quotes. */
void sink_json_chars(sink *s, const char *text, size_t size);
/* Text with <, >, & and " escaped for HTML. */
void sink_html(sink *s, const char *text, size_t size);
/* Flushes; returns SHELF_OK or the writer's error (with err filled). */
shelf_status sink_finish(sink *s, shelf_error *err);

/* ----- rendering ------------------------------------------------------------------------------ */

typedef struct render_settings {
    int html;                   /* "as": "html" */
    size_t width;               /* text: wrap column */
    unsigned font_scale;        /* html: percent */
    const char *font_family;    /* html: CSS font-family */
    const char *background;     /* html: CSS colours of the theme */
    const char *color;
} render_settings;

/* Writes the body of chapter `ch` (text, or the HTML inside <body>) to `out`. */
void render_chapter(const shelf_publication *book, const chapter *ch, const render_settings *rs,
                    sink *out);

#endif /* SHELF_TEXT_PLUGIN_H */
