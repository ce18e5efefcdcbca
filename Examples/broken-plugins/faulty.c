/* Test fixture: a small, correct format plugin for plain text (one resource, one position per started
 * 1024 bytes, render, search), built once per deliberate bug with -DBUG=<name>. Each build must fail
 * `shelf conformance` with a message naming the call and its input; built with no BUG it passes.
 *
 *   stdout     open prints to standard output
 *   probeall   probe claims every file at 100
 *   leak       close frees nothing
 *   spacing    positions every 2 KiB instead of 1 KiB
 *   total      totalProgression as p/n instead of (p - 1)/n
 *   where      render's `where` always says position 1
 *   html       "html" output that is not XHTML
 *   case       search that matches case
 *   comma      JSON arguments with trailing commas accepted
 *   uaf        open reads freed memory on well-formed XML that is not text (a use-after-free)
 *   abort      render as HTML calls abort()
 *   outside    open reads /etc/hostname and opens a socket, which shelf's sandbox refuses: it passes every check
 *              made in process, and fails the sandbox check
 */
#include <shelf/format.h>
#include <shelf/helper.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUG_stdout 1
#define BUG_probeall 2
#define BUG_leak 3
#define BUG_spacing 4
#define BUG_total 5
#define BUG_where 6
#define BUG_html 7
#define BUG_case 8
#define BUG_comma 9
#define BUG_uaf 10
#define BUG_abort 11
#define BUG_outside 12
#define CAT(a, b) a##b
#define BUG_VALUE(name) CAT(BUG_, name)
#define STRING(x) #x
#define NAME(x) STRING(x)
#ifdef BUG
#define HAS(name) (BUG_VALUE(BUG) == BUG_##name)
#define ID "org.shelf.test.faulty-" NAME(BUG)
#else
#define HAS(name) 0
#define ID "org.shelf.test.faulty"
#endif

#define HREF "text.txt"
#define PAGE (HAS(spacing) ? 2048 : 1024)

struct shelf_publication { char *text; size_t size, pages; };

static shelf_status probe(const shelf_input *in, int32_t *confidence)
{
    const char *dot = strrchr(in->path, '.');
    int ours = (dot && strcmp(dot, ".txt") == 0) || (in->media_type && strcmp(in->media_type, "text/plain") == 0);
    *confidence = HAS(probeall) ? 100 : ours && shelf_utf8_check(in->head, in->head_size) + 4 > in->head_size ? 50 : 0;
    return SHELF_OK;
}

/* The use-after-free: a note of the XML root kept in a block that is freed before it is read. */
typedef struct xml_note { char tag[16]; void *spare; const char *root; } xml_note;

static shelf_status not_text(const char *text, const char *path, shelf_error *err)
{
    xml_note *note = malloc(sizeof *note);
    xml_note *volatile kept = note;             /* volatile: the compiler would refuse the bug */
    if (note == NULL) return shelf_error_no_memory(err, "opening");
    note->root = text;
    free(note);
    return shelf_error_set(err, SHELF_E_BAD_DATA, path, "this is XML (root %.20s), not plain text", kept->root);
}

static shelf_status open_book(const shelf_input *in, const char *options, shelf_publication **out, shelf_error *err)
{
    shelf_publication *b = calloc(1, sizeof *b);
    shelf_status status = b ? shelf_read_file(in->path, (size_t)16 << 20, &b->text, &b->size, err) : shelf_error_no_memory(err, "opening");
    (void)options;
    *out = NULL;
    if (HAS(stdout)) printf("opening %s\n", in->path);
    if (HAS(outside) && status == SHELF_OK) {
        /* A file beside no book, and a connection of its own: what a plugin may not do in shelf's sandbox. */
        FILE *f = fopen("/etc/hostname", "r");
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        if (f == NULL || s < 0) status = shelf_error_set(err, SHELF_E_IO, "/etc/hostname", "cannot read /etc/hostname or open a socket: %s", strerror(errno));
        if (f != NULL) fclose(f);
        if (s >= 0) close(s);
    }
    if (status == SHELF_OK && HAS(uaf) && strncmp(b->text, "<?xml", 5) == 0) status = not_text(b->text, in->path, err);
    else if (status == SHELF_OK && (b->size == 0 || shelf_utf8_check(b->text, b->size) != b->size)) {
        status = shelf_error_set(err, SHELF_E_BAD_DATA, in->path, "not UTF-8 text, or empty");
    }
    if (status != SHELF_OK) {
        if (b) free(b->text);
        free(b);
        return status;
    }
    b->pages = (b->size + PAGE - 1) / PAGE;
    *out = b;
    return SHELF_OK;
}

static void close_book(shelf_publication *b)
{
    if (HAS(leak)) return;
    free(b->text);
    free(b);
}

static shelf_status manifest(shelf_publication *b, const shelf_writer *w, shelf_error *err)
{
    shelf_metadata m = { "A faulty book", NULL, NULL, NULL, -1, 0 };
    shelf_link link = { HREF, "text/plain", "The text", NULL, -1 };
    shelf_out out;
    (void)b;
    shelf_out_init(&out, w);
    shelf_manifest_begin(&out, &m);
    shelf_manifest_list(&out, "readingOrder");
    shelf_json_link(&out, &link);
    shelf_manifest_list_end(&out);
    shelf_manifest_end(&out);
    return shelf_out_finish(&out, err);
}

static shelf_status resource(shelf_publication *b, const char *href, const shelf_writer *w, shelf_error *err)
{
    shelf_out out;
    if (strncmp(href, HREF, strlen(HREF)) != 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, href, "no resource %s", href);
    shelf_out_init(&out, w);
    shelf_out_bytes(&out, b->text, b->size);
    return shelf_out_finish(&out, err);
}

static void put_position(shelf_out *out, const shelf_publication *b, size_t p, const char *highlight)
{
    shelf_locator l;
    shelf_locator_init(&l);
    l.href = HREF;
    l.type = "text/plain";
    l.position = (int64_t)p;
    l.progression = (double)(p - 1) / (double)b->pages;
    l.total_progression = HAS(total) ? (double)p / (double)b->pages : shelf_total_progression(p, b->pages);
    l.highlight = highlight;
    shelf_json_locator(out, &l);
}

/* A JSON argument as the plugin reads it: the `comma` bug first drops a comma before } or ], as a lenient
 * reader would. Free the result with free(); NULL when `json` is NULL or memory is short. */
static char *argument(const char *json)
{
    char *copy = json ? malloc(strlen(json) + 1) : NULL;
    size_t i, o = 0;
    for (i = 0; copy && json[i]; i++) {
        size_t k = i + 1;
        while (json[k] == ' ') k++;
        if (HAS(comma) && json[i] == ',' && (json[k] == '}' || json[k] == ']')) continue;
        copy[o++] = json[i];
    }
    if (copy) copy[o] = '\0';
    return copy;
}

static shelf_json_doc *parse_argument(const char *json, const char *what, shelf_error *err)
{
    char *text = argument(json);
    shelf_json_doc *doc = shelf_json_parse(text, what, err);
    free(text);
    return doc;
}

static shelf_status resolve(const shelf_publication *b, const char *json, size_t *p, shelf_error *err)
{
    shelf_json_doc *doc = parse_argument(json, "locator", err);
    const shelf_json_value *root = shelf_json_root(doc);
    int64_t position = 0;
    double progression = shelf_json_as_number(shelf_json_path(root, "locations.progression"), -1);
    if (doc == NULL) return err->status;
    *p = 1;
    if (progression >= 0 && progression <= 1) *p = 1 + (size_t)(progression * (double)b->pages + 1e-9);
    else if (shelf_json_as_whole(shelf_json_path(root, "locations.position"), &position) && position >= 1) *p = (size_t)position;
    if (*p > b->pages) *p = b->pages;
    shelf_json_free(doc);
    return SHELF_OK;
}

static shelf_status locate(shelf_publication *b, const char *json, const shelf_writer *w, shelf_error *err)
{
    size_t p;
    shelf_out out;
    shelf_status status = resolve(b, json, &p, err);
    if (status != SHELF_OK) return status;
    shelf_out_init(&out, w);
    put_position(&out, b, p, NULL);
    return shelf_out_finish(&out, err);
}

static shelf_status positions(shelf_publication *b, const shelf_writer *w, shelf_error *err)
{
    shelf_out out;
    size_t p;
    shelf_out_init(&out, w);
    shelf_json_begin_array(&out);
    for (p = 1; p <= b->pages; p++) put_position(&out, b, p, NULL);
    shelf_json_end_array(&out);
    return shelf_out_finish(&out, err);
}

static shelf_status render(shelf_publication *b, const char *locator, const char *settings_json, const shelf_writer *content,
                           const shelf_writer *where, shelf_error *err)
{
    shelf_render_settings rs;
    char *settings = argument(settings_json);
    shelf_out out;
    size_t p = 1;
    shelf_status status = shelf_render_settings_parse(settings, &rs, err);
    free(settings);
    if (status == SHELF_OK && locator) status = resolve(b, locator, &p, err);
    if (status != SHELF_OK) return status;
    if (HAS(abort) && rs.html) abort();
    shelf_out_init(&out, content);
    if (rs.html && HAS(html)) {
        shelf_out_text(&out, "<html><body><p>");
        shelf_out_xml(&out, b->text, b->size);
        shelf_out_text(&out, "<br></body></html>");
    } else if (rs.html) {
        shelf_xhtml_begin(&out, &rs, "The text", NULL);
        shelf_out_text(&out, "<pre>");
        shelf_out_xml(&out, b->text, b->size);
        shelf_out_text(&out, "</pre>");
        shelf_xhtml_end(&out);
    } else {
        shelf_out_bytes(&out, b->text, b->size);
    }
    status = shelf_out_finish(&out, err);
    if (status != SHELF_OK) return status;
    shelf_out_init(&out, where);
    put_position(&out, b, HAS(where) ? 1 : p, NULL);
    return shelf_out_finish(&out, err);
}

static int same(const char *a, const char *b, size_t n)
{
    size_t i;
    if (HAS(case)) return memcmp(a, b, n) == 0;
    for (i = 0; i < n; i++) if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return 0;
    return 1;
}

static shelf_status search(shelf_publication *b, const char *json, const shelf_writer *w, shelf_error *err)
{
    shelf_json_doc *doc = parse_argument(json, "search query", err);
    const char *query = shelf_json_as_string(shelf_json_get(shelf_json_root(doc), "query"), NULL);
    size_t n, i;
    shelf_out out;
    if (doc == NULL) return err->status;
    if (query == NULL || (n = strlen(query)) == 0) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "query", "the search needs a \"query\" string");
    }
    shelf_out_init(&out, w);
    shelf_json_begin_array(&out);
    for (i = 0; i + n <= b->size; i++) {
        if (!same(b->text + i, query, n)) continue;
        {
            char *highlight = malloc(n + 1);
            if (highlight == NULL) break;
            memcpy(highlight, b->text + i, n);
            highlight[n] = '\0';
            put_position(&out, b, i / PAGE + 1, highlight);
            free(highlight);
        }
    }
    shelf_json_end_array(&out);
    shelf_json_free(doc);
    return shelf_out_finish(&out, err);
}

static const shelf_format_v1 format = { sizeof format, probe, open_book, manifest, resource, close_book };
static const shelf_render_v1 render_v1 = { sizeof render_v1, render };
static const shelf_positions_v1 positions_v1 = { sizeof positions_v1, positions, locate };
static const shelf_search_v1 search_v1 = { sizeof search_v1, search };

static const void *extension(const char *id)
{
    if (strcmp(id, SHELF_EXT_FORMAT) == 0) return &format;
    if (strcmp(id, SHELF_EXT_RENDER) == 0) return &render_v1;
    if (strcmp(id, SHELF_EXT_POSITIONS) == 0) return &positions_v1;
    return strcmp(id, SHELF_EXT_SEARCH) == 0 ? &search_v1 : NULL;
}

static const char *const types[] = { "text/plain", NULL }, *const extensions[] = { "txt", NULL };
static const shelf_plugin_descriptor descriptor = {
    sizeof descriptor, SHELF_ABI_MAJOR, SHELF_ABI_MINOR, ID, "Faulty text (test fixture)", "1.0.0", "MIT",
    "shelf tests", NULL, "A test fixture with one deliberate bug.", 0, types, extensions, NULL, NULL, NULL, extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
