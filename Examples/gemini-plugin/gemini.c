/* A whole shelf format plugin written with libshelf-plugin: Gemini text (text/gemini, .gmi), one
 * chapter per "# " heading, rendered as text or XHTML. SPDX-License-Identifier: MIT */
#include <shelf/format.h>
#include <shelf/helper.h>
#include <stdlib.h>

#define MAX_CHAPTERS 256
typedef struct { size_t start, end; char href[24], title[128]; } chapter;
struct shelf_publication { char *text; size_t size, count; chapter chapters[MAX_CHAPTERS]; };

static shelf_status probe(const shelf_input *in, int32_t *confidence)
{
    const char *dot = strrchr(in->path, '.');
    int ours = (dot && strcmp(dot, ".gmi") == 0) || (in->media_type && strcmp(in->media_type, "text/gemini") == 0);
    /* ... and UTF-8 text, though the head may end inside a character */
    *confidence = ours && in->head_size > 0 && shelf_utf8_check(in->head, in->head_size) + 4 > in->head_size ? 90 : 0;
    return SHELF_OK;
}

/* Chapters end where a line starts with "# "; a chapter's title is its first line. */
static void split(shelf_publication *b)
{
    size_t at = 0;
    while (at < b->size && b->count < MAX_CHAPTERS) {
        chapter *c = &b->chapters[b->count++];
        const char *next = strstr(b->text + at + 1, "\n# "), *t = b->text + at;
        c->start = at;
        c->end = next && b->count < MAX_CHAPTERS ? (size_t)(next - b->text) + 1 : b->size;
        snprintf(c->href, sizeof c->href, "chapter-%lu.gmi", (unsigned long)b->count);
        if (t[0] == '#' && t[1] == ' ') t += 2;
        snprintf(c->title, sizeof c->title, "%.*s", (int)strcspn(t, "\n"), t);    /* cut to fit */
        at = c->end;
    }
}

static void close_book(shelf_publication *b) { free(b->text); free(b); }

static shelf_status open_book(const shelf_input *in, const char *options, shelf_publication **out, shelf_error *err)
{
    shelf_publication *b = calloc(1, sizeof *b);
    shelf_status status = b ? shelf_read_file(in->path, (size_t)16 << 20, &b->text, &b->size, err)
                            : shelf_error_no_memory(err, "opening a book");
    (void)options;
    *out = NULL;
    if (status == SHELF_OK && shelf_utf8_check(b->text, b->size) != b->size) {
        status = shelf_error_set(err, SHELF_E_BAD_DATA, in->path, "not UTF-8 text at byte %lu",
                                 (unsigned long)shelf_utf8_check(b->text, b->size));
    } else if (status == SHELF_OK && b->size == 0) {
        status = shelf_error_set(err, SHELF_E_BAD_DATA, in->path, "the file is empty");
    }
    if (status == SHELF_OK) { split(b); *out = b; }
    else if (b != NULL) close_book(b);
    return status;
}

static shelf_status manifest(shelf_publication *b, const shelf_writer *w, shelf_error *err)
{
    shelf_metadata m = { NULL, NULL, NULL, NULL, -1, 0 };
    shelf_out out;
    size_t i;
    m.title = b->chapters[0].title;                             /* the first line */
    shelf_out_init(&out, w);
    shelf_manifest_begin(&out, &m);
    shelf_manifest_list(&out, "readingOrder");
    for (i = 0; i < b->count; i++) {
        shelf_link link = { NULL, "text/gemini", NULL, NULL, -1 };
        link.href = b->chapters[i].href;
        link.title = b->chapters[i].title;
        shelf_json_link(&out, &link);
    }
    shelf_manifest_list_end(&out);
    shelf_manifest_end(&out);
    return shelf_out_finish(&out, err);
}

/* The chapter at an href (a #fragment ignored), or NULL. */
static const chapter *find(const shelf_publication *b, const char *href)
{
    size_t i, n = strcspn(href, "#");
    for (i = 0; i < b->count; i++) {
        if (strlen(b->chapters[i].href) == n && strncmp(b->chapters[i].href, href, n) == 0) return &b->chapters[i];
    }
    return NULL;
}

static shelf_status resource(shelf_publication *b, const char *href, const shelf_writer *w, shelf_error *err)
{
    const chapter *c = find(b, href);
    shelf_out out;
    if (c == NULL) return shelf_error_set(err, SHELF_E_NOT_FOUND, href, "this book has no chapter %s", href);
    shelf_out_init(&out, w);
    shelf_out_bytes(&out, b->text + c->start, c->end - c->start);
    return shelf_out_finish(&out, err);
}

static shelf_status render(shelf_publication *b, const char *locator_json, const char *settings, const shelf_writer *content,
                           const shelf_writer *where, shelf_error *err)
{
    shelf_render_settings rs;
    shelf_json_doc *doc = NULL;
    shelf_locator l;
    shelf_out out;
    const chapter *c = &b->chapters[0];                         /* NULL locator: the opening */
    shelf_status status = shelf_render_settings_parse(settings, &rs, err);
    if (status == SHELF_OK && locator_json != NULL) status = shelf_locator_parse(locator_json, &doc, &l, err);
    if (status == SHELF_OK && doc != NULL && (l.href == NULL || (c = find(b, l.href)) == NULL)) {
        status = shelf_error_set(err, SHELF_E_NOT_FOUND, l.href, "this book has no chapter %s", l.href ? l.href : "(none)");
    }
    shelf_json_free(doc);
    if (status != SHELF_OK) return status;
    shelf_out_init(&out, content);
    if (rs.html) {
        shelf_xhtml_begin(&out, &rs, c->title, NULL);
        shelf_out_text(&out, "<pre>");
        shelf_out_xml(&out, b->text + c->start, c->end - c->start);
        shelf_out_text(&out, "</pre>");
        shelf_xhtml_end(&out);
    } else {
        shelf_out_bytes(&out, b->text + c->start, c->end - c->start);
    }
    status = shelf_out_finish(&out, err);
    if (status != SHELF_OK) return status;
    shelf_locator_init(&l);                                     /* `where`: the chapter's start */
    l.href = c->href;
    l.type = "text/gemini";
    l.title = c->title;
    l.progression = 0;
    shelf_out_init(&out, where);
    shelf_json_locator(&out, &l);
    return shelf_out_finish(&out, err);
}

static const shelf_format_v1 format = { sizeof format, probe, open_book, manifest, resource, close_book };
static const shelf_render_v1 render_v1 = { sizeof render_v1, render };

static const void *extension(const char *id)
{
    return strcmp(id, SHELF_EXT_FORMAT) == 0 ? (const void *)&format : strcmp(id, SHELF_EXT_RENDER) == 0 ? &render_v1 : NULL;
}

static const char *const types[] = { "text/gemini", NULL }, *const extensions[] = { "gmi", NULL };
static const shelf_plugin_descriptor descriptor = {
    sizeof descriptor, SHELF_ABI_MAJOR, SHELF_ABI_MINOR, "org.shelf.example.gemini", "Gemini text", "1.0.0", "MIT",
    "The shelf authors", NULL, "Gemini text (.gmi), a chapter per heading.", SHELF_PLUGIN_CONCURRENT_HANDLES,
    types, extensions, NULL, NULL, NULL, extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
