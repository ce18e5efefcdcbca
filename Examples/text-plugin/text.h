/*
 * Internal declarations of the shelf text plugin. Nothing here is exported: the library is
 * built with -fvisibility=hidden and only `shelf_plugin_entry` (plugin.c) is marked SHELF_EXPORT.
 *
 *   book.c   reading a file, checking it is UTF-8 text, finding chapters, title and author
 *   plugin.c the descriptor and the shelf.format/render/positions/search vtables
 */
#ifndef SHELF_TEXT_PLUGIN_H
#define SHELF_TEXT_PLUGIN_H

#include <shelf/format.h>
#include <shelf/helper.h>    /* libshelf-plugin: JSON in and out, locators, render settings */

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

/* ----- rendering ------------------------------------------------------------------------------ */

/* Writes the body of chapter `ch` (text, or the HTML inside <body>) to `out`. */
void render_chapter(const shelf_publication *book, const chapter *ch, const shelf_render_settings *rs,
                    shelf_out *out);

#endif /* SHELF_TEXT_PLUGIN_H */
