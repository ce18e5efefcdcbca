/*
 * shelf text plugin: plain-text and Markdown books, written in C99 on the shelf headers and libshelf-plugin.
 *
 * This file holds the descriptor (the one exported symbol) and the four capabilities:
 * shelf.format/1, shelf.render/1, shelf.positions/1 and shelf.search/1.
 *
 * Threading: every handle owns all its data and no call writes anything shared, so the descriptor
 * sets SHELF_PLUGIN_CONCURRENT_HANDLES. The only global is the host pointer kept by `init`.
 */
#include "text.h"
#include "search.h"

#include <stdlib.h>

static const shelf_host *plugin_host;   /* set by init, cleared by deinit; read-only otherwise */

/* ----- probe ---------------------------------------------------------------------------------- */

static int ext_in(const char *path, const char *const *list)
{
    const char *slash, *dot;
    size_t i, n;
    if (path == NULL) return 0;
    slash = strrchr(path, '/');
    dot = strrchr(path, '.');
    if (dot == NULL || (slash && dot < slash)) return 0;
    dot++;
    n = strlen(dot);
    for (i = 0; list[i]; i++) {
        size_t k;
        if (strlen(list[i]) != n) continue;
        for (k = 0; k < n; k++) {
            char c = dot[k] >= 'A' && dot[k] <= 'Z' ? (char)(dot[k] + 32) : dot[k];
            if (c != list[i][k]) break;
        }
        if (k == n) return 1;
    }
    return 0;
}

static const char *const markdown_extensions[] = { "md", "markdown", NULL };
static const char *const text_extensions[] = { "txt", "text", NULL };

static shelf_status text_probe(const shelf_input *input, int32_t *confidence)
{
    const unsigned char *head;
    size_t n, i, odd = 0, lines = 0;
    int heading = 0, md_ext, txt_ext, md_type, txt_type;
    if (confidence == NULL) return SHELF_E_INVALID_ARGUMENT;
    *confidence = SHELF_PROBE_NONE;
    if (input == NULL || input->head == NULL || input->head_size == 0) return SHELF_OK;
    head = input->head;
    n = input->head_size;
    /* Text is valid UTF-8 without NUL bytes; the head may end inside a character. */
    if (utf8_check(head, n, (uint64_t)n < input->file_size) < n) return SHELF_OK;
    for (i = 0; i < n; i++) {
        unsigned char c = head[i];
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') odd++;
        if (c == 0x7F) odd++;
    }
    if (odd * 100 > n) return SHELF_OK;             /* control bytes: not prose */
    for (i = 0; i < n && lines < 200; i++) {        /* a Markdown heading at a line start */
        if (i == 0 || head[i - 1] == '\n') {
            size_t h = 0;
            lines++;
            while (i + h < n && head[i + h] == '#') h++;
            if (h >= 1 && h <= 6 && i + h < n && head[i + h] == ' ') heading = 1;
        }
    }
    md_ext = ext_in(input->path, markdown_extensions);
    txt_ext = ext_in(input->path, text_extensions);
    md_type = input->media_type && strcmp(input->media_type, "text/markdown") == 0;
    txt_type = input->media_type && strcmp(input->media_type, "text/plain") == 0;
    if (md_ext || md_type) {
        *confidence = 75;
    } else if (heading && !txt_ext) {
        *confidence = 60;
    } else if (txt_ext || txt_type) {
        *confidence = SHELF_PROBE_LIKELY;
    } else {
        /* Some text, but maybe a structured format another plugin knows better (XML, JSON). */
        i = 0;
        if (n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0) i = 3;
        while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) i++;
        *confidence = (i < n && (head[i] == '<' || head[i] == '{' || head[i] == '['))
                          ? 10 : SHELF_PROBE_POSSIBLE;
    }
    return SHELF_OK;
}

/* ----- open, close, manifest, resource -------------------------------------------------------- */

static shelf_status text_open(const shelf_input *input, const char *options_json,
                              shelf_publication **out, shelf_error *err)
{
    (void)options_json;                         /* none are defined in ABI 1.0 */
    if (out == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "open: no place for the handle");
    }
    *out = NULL;
    if (input == NULL || input->path == NULL || input->path[0] == '\0') {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "open: no file path was given");
    }
    return book_open(input, plugin_host, out, err);
}

static void text_close(shelf_publication *book)
{
    book_close(book);
}

static shelf_status no_handle(shelf_error *err)
{
    return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no publication handle or writer was given");
}

static void chapter_link(shelf_out *out, const shelf_publication *book, const chapter *ch)
{
    shelf_link link;
    shelf_link_init(&link);
    link.href = ch->href;
    link.type = book_media_type(book);
    link.title = ch->title;
    shelf_json_link(out, &link);
}

static shelf_status text_manifest(shelf_publication *book, const shelf_writer *writer, shelf_error *err)
{
    const char *authors[2];
    shelf_metadata m;
    shelf_out out;
    size_t i;
    int list;
    if (book == NULL || writer == NULL) return no_handle(err);
    authors[0] = book->author;
    authors[1] = NULL;
    memset(&m, 0, sizeof m);
    m.title = book->title;
    m.authors = authors;
    m.language = book->language;
    m.duration = -1;
    m.number_of_pages = (int64_t)book->position_count;
    shelf_out_init(&out, writer);
    shelf_manifest_begin(&out, &m);
    for (list = 0; list < 2; list++) {          /* the chapters are both the reading order and the toc */
        shelf_manifest_list(&out, list == 0 ? "readingOrder" : "toc");
        for (i = 0; i < book->chapter_count; i++) chapter_link(&out, book, &book->chapters[i]);
        shelf_manifest_list_end(&out);
    }
    shelf_manifest_end(&out);
    return shelf_out_finish(&out, err);
}

static shelf_status unknown_href(const shelf_publication *book, const char *href, shelf_error *err)
{
    return shelf_error_set(err, SHELF_E_NOT_FOUND, href,
                           "this book has no resource \"%s\": its chapters are chapter-1.%s to "
                           "chapter-%lu.%s", href ? href : "", book->markdown ? "md" : "txt",
                           (unsigned long)book->chapter_count, book->markdown ? "md" : "txt");
}

static shelf_status text_resource(shelf_publication *book, const char *href, const shelf_writer *out,
                                  shelf_error *err)
{
    const chapter *ch;
    shelf_out s;
    if (book == NULL || out == NULL) return no_handle(err);
    ch = book_find_chapter(book, href);
    if (ch == NULL) return unknown_href(book, href, err);
    shelf_out_init(&s, out);
    shelf_out_bytes(&s, book->text + ch->start, ch->end - ch->start);
    return shelf_out_finish(&s, err);
}

static const shelf_format_v1 format_v1 = {
    sizeof(shelf_format_v1), text_probe, text_open, text_manifest, text_resource, text_close
};

/* ----- locators ------------------------------------------------------------------------------- */

/* The Locator of position index k, with the progression of byte `offset` in its chapter. */
static shelf_locator locator(const shelf_publication *book, size_t k, size_t offset)
{
    const position *p = &book->positions[k];
    const chapter *ch = &book->chapters[p->chapter];
    shelf_locator l;
    shelf_locator_init(&l);
    l.href = ch->href;
    l.type = book_media_type(book);
    l.title = ch->title;
    l.position = (int64_t)k + 1;
    l.progression = ch->end > ch->start ? (double)offset / (double)(ch->end - ch->start) : 0;
    l.total_progression = shelf_total_progression(k + 1, book->position_count);
    return l;
}

static shelf_status write_locator(const shelf_publication *book, size_t k, const shelf_writer *writer, shelf_error *err)
{
    shelf_out out;
    shelf_locator l = locator(book, k, book->positions[k].start);
    shelf_out_init(&out, writer);
    shelf_json_locator(&out, &l);
    return shelf_out_finish(&out, err);
}

/* The position index that a Locator designates (see shelf_positions_v1.locate). */
static shelf_status resolve(const shelf_publication *book, const char *json, size_t *k, shelf_error *err)
{
    shelf_json_doc *doc;
    shelf_locator l;
    const chapter *ch = NULL;
    shelf_status status = shelf_locator_parse(json, &doc, &l, err);
    if (status != SHELF_OK) return status;
    if (l.position > (int64_t)book->position_count) {
        status = shelf_error_set(err, SHELF_E_NOT_FOUND, "locations.position",
                                 "position %ld is outside this book, which has positions 1 to %lu",
                                 (long)l.position, (unsigned long)book->position_count);
    } else if (l.href != NULL && l.href[0] != '\0' && (ch = book_find_chapter(book, l.href)) == NULL) {
        status = unknown_href(book, l.href, err);
    } else if (ch != NULL) {
        size_t c = (size_t)(ch - book->chapters);
        if (l.progression >= 0) {
            /* +0.5: a progression printed with few digits still lands on its own position */
            *k = book_position_at(book, c, (size_t)(l.progression * (double)(ch->end - ch->start) + 0.5));
        } else if (l.position > 0 && (size_t)l.position - 1 >= ch->first_position
                   && (size_t)l.position - 1 < ch->first_position + ch->position_count) {
            *k = (size_t)l.position - 1;
        } else {
            *k = ch->first_position;            /* the href wins over a stale position */
        }
    } else if (l.position > 0) {
        *k = (size_t)l.position - 1;
    } else if (l.total_progression >= 0) {
        *k = (size_t)(l.total_progression * (double)book->position_count);
        if (*k >= book->position_count) *k = book->position_count - 1;
    } else {
        status = shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the locator needs an href or a locations.position");
    }
    shelf_json_free(doc);
    return status;
}

/* ----- shelf.render/1 ------------------------------------------------------------------------- */

static shelf_status text_render(shelf_publication *book, const char *locator_json,
                                const char *settings_json, const shelf_writer *content,
                                const shelf_writer *where, shelf_error *err)
{
    shelf_render_settings rs;
    size_t k = 0;
    const chapter *ch;
    shelf_status status;
    shelf_out out;
    if (book == NULL || content == NULL) return no_handle(err);
    status = shelf_render_settings_parse(settings_json, &rs, err);
    if (status == SHELF_OK && locator_json != NULL) status = resolve(book, locator_json, &k, err);
    if (status != SHELF_OK) return status;
    ch = &book->chapters[book->positions[k].chapter];
    shelf_out_init(&out, content);
    if (rs.html) shelf_xhtml_begin(&out, &rs, ch->title, book->language);
    render_chapter(book, ch, &rs, &out);
    if (rs.html) shelf_xhtml_end(&out);
    status = shelf_out_finish(&out, err);
    if (status != SHELF_OK || where == NULL) return status;
    return write_locator(book, k, where, err);
}

static const shelf_render_v1 render_v1 = { sizeof(shelf_render_v1), text_render };

/* ----- shelf.positions/1 ---------------------------------------------------------------------- */

static shelf_status text_positions(shelf_publication *book, const shelf_writer *writer, shelf_error *err)
{
    shelf_out out;
    size_t k;
    if (book == NULL || writer == NULL) return no_handle(err);
    shelf_out_init(&out, writer);
    shelf_json_begin_array(&out);
    for (k = 0; k < book->position_count && out.status == SHELF_OK; k++) {
        shelf_locator l = locator(book, k, book->positions[k].start);
        shelf_json_locator(&out, &l);
    }
    shelf_json_end_array(&out);
    return shelf_out_finish(&out, err);
}

static shelf_status text_locate(shelf_publication *book, const char *locator_json,
                                const shelf_writer *out, shelf_error *err)
{
    size_t k;
    shelf_status status;
    if (book == NULL || out == NULL) return no_handle(err);
    if (locator_json == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "locate: no locator was given");
    }
    status = resolve(book, locator_json, &k, err);
    if (status != SHELF_OK) return status;
    return write_locator(book, k, out, err);
}

static const shelf_positions_v1 positions_v1 = {
    sizeof(shelf_positions_v1), text_positions, text_locate
};

/* ----- shelf.search/1 ------------------------------------------------------------------------- */

#define CONTEXT_CHARS 40

/* A copy (malloc) of text[b..e) with each run of white space made one space; NULL when out of memory. */
static char *collapsed(const char *text, size_t b, size_t e)
{
    char *copy = malloc(e - b + 1), *o = copy;
    int space = 0;
    if (copy == NULL) return NULL;
    for (; b < e; b++) {
        if (strchr(" \n\r\t\f\v", text[b])) {
            if (!space) *o++ = ' ';
            space = 1;
        } else {
            *o++ = text[b];
            space = 0;
        }
    }
    *o = '\0';
    return copy;
}

static size_t back_chars(const char *t, size_t from, size_t limit, size_t count)
{
    while (from > limit && count > 0) {
        from--;
        while (from > limit && ((unsigned char)t[from] & 0xC0) == 0x80) from--;
        count--;
    }
    return from;
}

static size_t forward_chars(const char *t, size_t from, size_t limit, size_t count)
{
    while (from < limit && count > 0) {
        from++;
        while (from < limit && ((unsigned char)t[from] & 0xC0) == 0x80) from++;
        count--;
    }
    return from;
}

/* Writes one hit: the Locator of text[b..e) in chapter c, with its context. */
static void hit(shelf_out *out, const shelf_publication *book, size_t c, size_t b, size_t e)
{
    const chapter *ch = &book->chapters[c];
    const char *t = book->text + ch->start;
    shelf_locator l = locator(book, book_position_at(book, c, b), b);
    char *before = collapsed(t, back_chars(t, b, 0, CONTEXT_CHARS), b);
    char *highlight = collapsed(t, b, e);
    char *after = collapsed(t, e, forward_chars(t, e, ch->end - ch->start, CONTEXT_CHARS));
    if (before == NULL || highlight == NULL || after == NULL) {
        out->status = SHELF_E_NO_MEMORY;
    } else {
        l.before = before;
        l.highlight = highlight;
        l.after = after;
        shelf_json_locator(out, &l);
    }
    free(before);
    free(highlight);
    free(after);
}

static shelf_status text_search(shelf_publication *book, const char *query_json,
                                const shelf_writer *writer, shelf_error *err)
{
    shelf_json_doc *doc;
    const shelf_json_value *root, *limit_value;
    const char *query;
    int64_t limit = 100;
    folded needle;
    size_t found = 0, c;
    shelf_out out;
    if (book == NULL || writer == NULL) return no_handle(err);
    doc = shelf_json_parse(query_json, "search query", err);
    if (doc == NULL) return err->status;
    root = shelf_json_root(doc);
    query = shelf_json_as_string(shelf_json_get(root, "query"), NULL);
    limit_value = shelf_json_get(root, "limit");
    if (query == NULL) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "query", "the search needs a \"query\" string");
    }
    if (limit_value != NULL && shelf_json_type_of(limit_value) != SHELF_JSON_NULL
        && (!shelf_json_as_whole(limit_value, &limit) || limit < 1)) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "limit", "the search \"limit\" must be a whole number from 1");
    }
    if (!folded_make(&needle, query, strlen(query))) {
        shelf_json_free(doc);
        return shelf_error_no_memory(err, "searching");
    }
    shelf_json_free(doc);
    if (needle.size == 0) {
        folded_free(&needle);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "query", "the search query is empty");
    }
    shelf_out_init(&out, writer);
    shelf_json_begin_array(&out);
    for (c = 0; c < book->chapter_count && found < (uint64_t)limit && out.status == SHELF_OK; c++) {
        const chapter *ch = &book->chapters[c];
        size_t at = 0;
        folded hay;
        if (plugin_host && plugin_host->is_cancelled && plugin_host->is_cancelled(plugin_host)) {
            folded_free(&needle);
            return shelf_error_set(err, SHELF_E_CANCELLED, NULL, "the search was cancelled");
        }
        if (!folded_make(&hay, book->text + ch->start, ch->end - ch->start)) {
            folded_free(&needle);
            return shelf_error_no_memory(err, "searching");
        }
        while (found < (uint64_t)limit && out.status == SHELF_OK) {
            size_t at_hit = folded_find(&hay, at, &needle), j;
            if (at_hit >= hay.size) break;
            j = at_hit + needle.size;
            while (j < hay.size && hay.origin[j] == hay.origin[at_hit + needle.size - 1]) j++;
            hit(&out, book, c, hay.origin[at_hit], hay.origin[j]);
            found++;
            at = j;
        }
        folded_free(&hay);
    }
    folded_free(&needle);
    shelf_json_end_array(&out);
    return shelf_out_finish(&out, err);
}

static const shelf_search_v1 search_v1 = { sizeof(shelf_search_v1), text_search };

/* ----- the descriptor ------------------------------------------------------------------------- */

static shelf_status text_init(const shelf_host *host, shelf_error *err)
{
    (void)err;
    plugin_host = host;
    return SHELF_OK;
}

static void text_deinit(void)
{
    plugin_host = NULL;
}

static const void *text_get_extension(const char *id)
{
    if (id == NULL) return NULL;
    if (strcmp(id, SHELF_EXT_FORMAT) == 0) return &format_v1;
    if (strcmp(id, SHELF_EXT_RENDER) == 0) return &render_v1;
    if (strcmp(id, SHELF_EXT_POSITIONS) == 0) return &positions_v1;
    if (strcmp(id, SHELF_EXT_SEARCH) == 0) return &search_v1;
    return NULL;
}

static const char *const media_types[] = { "text/plain", "text/markdown", NULL };
static const char *const extensions[] = { "txt", "text", "md", "markdown", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor),
    SHELF_ABI_MAJOR,
    SHELF_ABI_MINOR,
    "org.shelf.example.text",
    "Plain text and Markdown books",
    "1.0.0",
    "MIT",
    "The shelf authors",
    NULL,
    "Opens .txt and .md books, split into chapters at headings; written in C from the shelf headers.",
    SHELF_PLUGIN_CONCURRENT_HANDLES,
    media_types,
    extensions,
    NULL,
    text_init,
    text_deinit,
    text_get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
