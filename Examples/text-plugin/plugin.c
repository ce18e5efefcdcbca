/*
 * shelf text plugin: plain-text and Markdown books, written in C99 from the shelf headers alone.
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

static void link(sink *s, const shelf_publication *book, const chapter *ch)
{
    sink_str(s, "{\"href\":");
    sink_json_string(s, ch->href, strlen(ch->href));
    sink_str(s, ",\"type\":\"");
    sink_str(s, book_media_type(book));
    sink_str(s, "\",\"title\":");
    sink_json_string(s, ch->title, strlen(ch->title));
    sink_str(s, "}");
}

static shelf_status text_manifest(shelf_publication *book, const shelf_writer *out, shelf_error *err)
{
    sink s;
    size_t i;
    if (book == NULL || out == NULL) return no_handle(err);
    sink_init(&s, out);
    sink_str(&s, "{\"@context\":\"https://readium.org/webpub-manifest/context.jsonld\",");
    sink_str(&s, "\"metadata\":{\"@type\":\"http://schema.org/Book\",\"title\":");
    sink_json_string(&s, book->title, strlen(book->title));
    if (book->author) {
        sink_str(&s, ",\"author\":");
        sink_json_string(&s, book->author, strlen(book->author));
    }
    if (book->language) {
        sink_str(&s, ",\"language\":");
        sink_json_string(&s, book->language, strlen(book->language));
    }
    sink_str(&s, ",\"numberOfPages\":");
    sink_size(&s, book->position_count);
    sink_str(&s, "},\"links\":[],\"readingOrder\":[");
    for (i = 0; i < book->chapter_count; i++) {
        if (i) sink_str(&s, ",");
        link(&s, book, &book->chapters[i]);
    }
    sink_str(&s, "],\"toc\":[");
    for (i = 0; i < book->chapter_count; i++) {
        if (i) sink_str(&s, ",");
        link(&s, book, &book->chapters[i]);
    }
    sink_str(&s, "]}");
    return sink_finish(&s, err);
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
    sink s;
    if (book == NULL || out == NULL) return no_handle(err);
    ch = book_find_chapter(book, href);
    if (ch == NULL) return unknown_href(book, href, err);
    sink_init(&s, out);
    sink_bytes(&s, book->text + ch->start, ch->end - ch->start);
    return sink_finish(&s, err);
}

static const shelf_format_v1 format_v1 = {
    sizeof(shelf_format_v1), text_probe, text_open, text_manifest, text_resource, text_close
};

/* ----- locators ------------------------------------------------------------------------------- */

/* Writes the Locator of position index k, with the progression of byte `offset` in its chapter. */
static void locator(sink *s, const shelf_publication *book, size_t k, size_t offset)
{
    const position *p = &book->positions[k];
    const chapter *ch = &book->chapters[p->chapter];
    size_t len = ch->end - ch->start;
    sink_str(s, "{\"href\":");
    sink_json_string(s, ch->href, strlen(ch->href));
    sink_str(s, ",\"type\":\"");
    sink_str(s, book_media_type(book));
    sink_str(s, "\",\"title\":");
    sink_json_string(s, ch->title, strlen(ch->title));
    sink_str(s, ",\"locations\":{\"position\":");
    sink_size(s, k + 1);
    sink_str(s, ",\"progression\":");
    sink_fraction(s, offset, len);
    sink_str(s, ",\"totalProgression\":");
    sink_fraction(s, k, book->position_count);
    sink_str(s, "}");
}

static int whole_number(double v)
{
    return v >= 0 && v <= 1e15 && v == (double)(unsigned long long)v;
}

/* The position index that a Locator designates (see shelf_positions_v1.locate). */
static shelf_status resolve(const shelf_publication *book, const char *json, size_t *k,
                            shelf_error *err)
{
    enum { HREF, POSITION, PROGRESSION, TOTAL, LOCATIONS, COUNT };
    json_want w[COUNT];
    shelf_status status;
    const chapter *ch = NULL;
    w[HREF].path = "href";
    w[POSITION].path = "locations.position";
    w[PROGRESSION].path = "locations.progression";
    w[TOTAL].path = "locations.totalProgression";
    w[LOCATIONS].path = "locations";
    status = json_scan(json, w, COUNT, "locator", err);
    if (status != SHELF_OK) return status;
    if (w[HREF].type != JSON_MISSING && w[HREF].type != JSON_STRING) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "href", "the locator's href must be a string");
    }
    if (w[LOCATIONS].type != JSON_MISSING && w[LOCATIONS].type != JSON_OBJECT) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "locations",
                               "the locator's locations must be an object");
    }
    if ((w[POSITION].type != JSON_MISSING && w[POSITION].type != JSON_NUMBER)
        || (w[PROGRESSION].type != JSON_MISSING && w[PROGRESSION].type != JSON_NUMBER)
        || (w[TOTAL].type != JSON_MISSING && w[TOTAL].type != JSON_NUMBER)) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "locations",
                               "the locator's position and progressions must be numbers");
    }
    if (w[POSITION].type == JSON_NUMBER && !whole_number(w[POSITION].number)) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "locations.position",
                               "locations.position must be a whole number from 1");
    }
    if (w[POSITION].type == JSON_NUMBER
        && (w[POSITION].number < 1 || w[POSITION].number > (double)book->position_count)) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, "locations.position",
                               "position %.0f is outside this book, which has positions 1 to %lu",
                               w[POSITION].number, (unsigned long)book->position_count);
    }
    if (w[HREF].type == JSON_STRING) {
        char *href = json_string(&w[HREF]);
        if (href == NULL) {
            return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory reading a locator");
        }
        ch = book_find_chapter(book, href);
        if (ch == NULL) {
            status = unknown_href(book, href, err);
            free(href);
            return status;
        }
        free(href);
    }
    if (ch != NULL) {
        size_t c = (size_t)(ch - book->chapters);
        if (w[PROGRESSION].type == JSON_NUMBER) {
            double p = w[PROGRESSION].number;
            size_t len = ch->end - ch->start;
            if (p < 0 || p > 1) {
                return shelf_error_set(err, SHELF_E_NOT_FOUND, "locations.progression",
                                       "progression must be between 0 and 1");
            }
            /* +0.5: a progression printed with 9 digits still lands on its own position */
            *k = book_position_at(book, c, (size_t)(p * (double)len + 0.5));
            return SHELF_OK;
        }
        if (w[POSITION].type == JSON_NUMBER) {
            size_t want = (size_t)w[POSITION].number - 1;
            if (want >= ch->first_position && want < ch->first_position + ch->position_count) {
                *k = want;
                return SHELF_OK;
            }
        }
        *k = ch->first_position;              /* the href wins over a stale position */
        return SHELF_OK;
    }
    if (w[POSITION].type == JSON_NUMBER) {
        *k = (size_t)w[POSITION].number - 1;
        return SHELF_OK;
    }
    if (w[TOTAL].type == JSON_NUMBER) {
        double t = w[TOTAL].number;
        if (t < 0 || t > 1) {
            return shelf_error_set(err, SHELF_E_NOT_FOUND, "locations.totalProgression",
                                   "totalProgression must be between 0 and 1");
        }
        *k = (size_t)(t * (double)book->position_count);
        if (*k >= book->position_count) *k = book->position_count - 1;
        return SHELF_OK;
    }
    return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL,
                           "the locator needs an href or a locations.position");
}

/* ----- shelf.render/1 ------------------------------------------------------------------------- */

/* A string setting compared with the allowed values; returns the index, -1 when absent. */
/* A setting is a wish (format.h): a value not among `allowed` leaves the default in place. */
static void choice(const json_want *w, const char *const *allowed, int *index)
{
    char *value;
    int i;
    *index = -1;
    if (w->type != JSON_STRING || (value = json_string(w)) == NULL) return;
    for (i = 0; allowed[i]; i++) {
        if (strcmp(value, allowed[i]) == 0) {
            *index = i;
            break;
        }
    }
    free(value);
}

/* A number clamped into [low, high], or `fallback` when the setting is not a number. */
static double clamped(const json_want *w, double low, double high, double fallback)
{
    if (w->type != JSON_NUMBER) return fallback;
    return w->number < low ? low : w->number > high ? high : w->number;
}

static shelf_status read_settings(const char *json, render_settings *rs, shelf_error *err)
{
    enum { AS, WIDTH, SCALE, FONT, THEME, COUNT };
    static const char *const as_values[] = { "text", "html", NULL };
    static const char *const font_values[] = { "serif", "sans", "sans-serif", NULL };
    static const char *const theme_values[] = { "day", "night", "sepia", NULL };
    static const char *const backgrounds[] = { "#ffffff", "#000000", "#faf4e8" };
    static const char *const colors[] = { "#121212", "#fefefe", "#121212" };
    json_want w[COUNT];
    shelf_status status;
    int as, font, theme;
    rs->html = 0;
    rs->width = 72;
    rs->font_scale = 100;
    rs->font_family = "serif";
    rs->background = backgrounds[0];
    rs->color = colors[0];
    if (json == NULL) return SHELF_OK;
    w[AS].path = "as";
    w[WIDTH].path = "width";
    w[SCALE].path = "fontScale";
    w[FONT].path = "font";
    w[THEME].path = "theme";
    status = json_scan(json, w, COUNT, "settings", err);
    if (status != SHELF_OK) return status;
    choice(&w[AS], as_values, &as);
    choice(&w[FONT], font_values, &font);
    choice(&w[THEME], theme_values, &theme);
    rs->html = as == 1;
    if (font >= 1) rs->font_family = "sans-serif";
    if (theme >= 0) {
        rs->background = backgrounds[theme];
        rs->color = colors[theme];
    }
    /* Out-of-range numbers are clamped to the ranges format.h states. */
    rs->width = (size_t)(clamped(&w[WIDTH], 10, 1000, 72) + 0.5);
    rs->font_scale = (unsigned)(clamped(&w[SCALE], 25, 800, 100) + 0.5);
    return SHELF_OK;
}

static shelf_status text_render(shelf_publication *book, const char *locator_json,
                                const char *settings_json, const shelf_writer *content,
                                const shelf_writer *where, shelf_error *err)
{
    render_settings rs;
    size_t k = 0;
    const chapter *ch;
    shelf_status status;
    sink s;
    if (book == NULL || content == NULL) return no_handle(err);
    status = read_settings(settings_json, &rs, err);
    if (status == SHELF_OK && locator_json != NULL) status = resolve(book, locator_json, &k, err);
    if (status != SHELF_OK) return status;
    ch = &book->chapters[book->positions[k].chapter];

    sink_init(&s, content);
    if (rs.html) {
        char style[200];
        sink_str(&s, "<!DOCTYPE html>\n<html");
        if (book->language) {
            sink_str(&s, " lang=\"");
            sink_html(&s, book->language, strlen(book->language));
            sink_str(&s, "\"");
        }
        sink_str(&s, ">\n<head><meta charset=\"utf-8\"><title>");
        sink_html(&s, ch->title, strlen(ch->title));
        snprintf(style, sizeof style,
                 "font-size:%u%%;font-family:%s;background-color:%s;color:%s;"
                 "line-height:1.5;max-width:40em;margin:1em auto;padding:0 1em",
                 rs.font_scale, rs.font_family, rs.background, rs.color);
        sink_str(&s, "</title></head>\n<body style=\"");
        sink_str(&s, style);
        sink_str(&s, "\">\n");
        render_chapter(book, ch, &rs, &s);
        sink_str(&s, "</body>\n</html>\n");
    } else {
        render_chapter(book, ch, &rs, &s);
    }
    status = sink_finish(&s, err);
    if (status != SHELF_OK || where == NULL) return status;
    sink_init(&s, where);
    locator(&s, book, k, book->positions[k].start);
    sink_str(&s, "}");
    return sink_finish(&s, err);
}

static const shelf_render_v1 render_v1 = { sizeof(shelf_render_v1), text_render };

/* ----- shelf.positions/1 ---------------------------------------------------------------------- */

static shelf_status text_positions(shelf_publication *book, const shelf_writer *out, shelf_error *err)
{
    sink s;
    size_t k;
    if (book == NULL || out == NULL) return no_handle(err);
    sink_init(&s, out);
    sink_str(&s, "[");
    for (k = 0; k < book->position_count && s.status == SHELF_OK; k++) {
        if (k) sink_str(&s, ",");
        locator(&s, book, k, book->positions[k].start);
        sink_str(&s, "}");
    }
    sink_str(&s, "]");
    return sink_finish(&s, err);
}

static shelf_status text_locate(shelf_publication *book, const char *locator_json,
                                const shelf_writer *out, shelf_error *err)
{
    size_t k;
    shelf_status status;
    sink s;
    if (book == NULL || out == NULL) return no_handle(err);
    if (locator_json == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "locate: no locator was given");
    }
    status = resolve(book, locator_json, &k, err);
    if (status != SHELF_OK) return status;
    sink_init(&s, out);
    locator(&s, book, k, book->positions[k].start);
    sink_str(&s, "}");
    return sink_finish(&s, err);
}

static const shelf_positions_v1 positions_v1 = {
    sizeof(shelf_positions_v1), text_positions, text_locate
};

/* ----- shelf.search/1 ------------------------------------------------------------------------- */

#define CONTEXT_CHARS 40

/* Writes text[b..e) as a JSON string with each run of white space made one space. */
static void context_string(sink *s, const char *text, size_t b, size_t e)
{
    sink_bytes(s, "\"", 1);
    while (b < e) {
        size_t run = b;
        while (run < e && !strchr(" \n\r\t\f\v", text[run])) run++;
        sink_json_chars(s, text + b, run - b);
        if (run == e) break;
        sink_bytes(s, " ", 1);
        while (run < e && strchr(" \n\r\t\f\v", text[run])) run++;
        b = run;
    }
    sink_bytes(s, "\"", 1);
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

static shelf_status text_search(shelf_publication *book, const char *query_json,
                                const shelf_writer *out, shelf_error *err)
{
    enum { QUERY, LIMIT, COUNT };
    json_want w[COUNT];
    shelf_status status;
    char *query;
    folded needle;
    size_t limit = 100, found = 0, c;
    sink s;
    if (book == NULL || out == NULL) return no_handle(err);
    w[QUERY].path = "query";
    w[LIMIT].path = "limit";
    status = json_scan(query_json, w, COUNT, "search query", err);
    if (status != SHELF_OK) return status;
    if (w[QUERY].type != JSON_STRING) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "query",
                               "the search needs a \"query\" string");
    }
    if (w[LIMIT].type == JSON_NUMBER) {
        if (!whole_number(w[LIMIT].number) || w[LIMIT].number < 1) {
            return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "limit",
                                   "the search \"limit\" must be a whole number from 1");
        }
        limit = w[LIMIT].number > 1e6 ? 1000000 : (size_t)w[LIMIT].number;
    } else if (w[LIMIT].type != JSON_MISSING && w[LIMIT].type != JSON_NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "limit", "the search \"limit\" must be a number");
    }
    query = json_string(&w[QUERY]);
    if (query == NULL || !folded_make(&needle, query, strlen(query))) {
        free(query);
        return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory while searching");
    }
    free(query);
    if (needle.size == 0) {
        folded_free(&needle);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "query", "the search query is empty");
    }
    sink_init(&s, out);
    sink_str(&s, "[");
    for (c = 0; c < book->chapter_count && found < limit && s.status == SHELF_OK; c++) {
        const chapter *ch = &book->chapters[c];
        const char *t = book->text + ch->start;
        size_t len = ch->end - ch->start, at = 0;
        folded hay;
        if (plugin_host && plugin_host->is_cancelled && plugin_host->is_cancelled(plugin_host)) {
            s.status = SHELF_E_CANCELLED;
            break;
        }
        if (!folded_make(&hay, t, len)) {
            folded_free(&needle);
            return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory while searching");
        }
        while (found < limit && s.status == SHELF_OK) {
            size_t hit = folded_find(&hay, at, &needle), b, e, j, before, after;
            if (hit >= hay.size) break;
            b = hay.origin[hit];
            j = hit + needle.size;
            while (j < hay.size && hay.origin[j] == hay.origin[hit + needle.size - 1]) j++;
            e = hay.origin[j];
            before = back_chars(t, b, 0, CONTEXT_CHARS);
            after = forward_chars(t, e, len, CONTEXT_CHARS);
            if (found++) sink_str(&s, ",");
            locator(&s, book, book_position_at(book, c, b), b);
            sink_str(&s, ",\"text\":{\"before\":");
            context_string(&s, t, before, b);
            sink_str(&s, ",\"highlight\":");
            context_string(&s, t, b, e);
            sink_str(&s, ",\"after\":");
            context_string(&s, t, e, after);
            sink_str(&s, "}}");
            at = j;
        }
        folded_free(&hay);
    }
    folded_free(&needle);
    sink_str(&s, "]");
    if (s.status == SHELF_E_CANCELLED) {
        return shelf_error_set(err, SHELF_E_CANCELLED, NULL, "the search was cancelled");
    }
    return sink_finish(&s, err);
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
