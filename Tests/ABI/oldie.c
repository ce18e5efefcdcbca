/*
 * A format plugin built against the ABI 1.0 headers (1.0/shelf/): it opens ".oldie" books, a first line "OLDIE"
 * and the title on the second. It knows nothing of what 1.1 added, and must load and open books in a 1.1 host.
 */
#include <shelf/format.h>

#include <stdio.h>
#include <stdlib.h>

struct shelf_publication {
    char title[256];
};

static shelf_status probe(const shelf_input *input, int32_t *confidence)
{
    *confidence = input->head_size >= 6 && memcmp(input->head, "OLDIE\n", 6) == 0 ? SHELF_PROBE_CERTAIN : 0;
    return SHELF_OK;
}

static shelf_status open_book(const shelf_input *input, const char *options_json, shelf_publication **out, shelf_error *err)
{
    size_t n = 0;
    (void)options_json;
    *out = NULL;
    if (input->head_size < 6 || memcmp(input->head, "OLDIE\n", 6) != 0) {
        return shelf_error_set(err, SHELF_E_BAD_DATA, NULL, "not an oldie book (it begins with OLDIE)");
    }
    *out = calloc(1, sizeof **out);
    if (*out == NULL) return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory");
    while (6 + n < input->head_size && n < sizeof (*out)->title - 1 && input->head[6 + n] != '\n' && input->head[6 + n] >= ' '
           && input->head[6 + n] != '"' && input->head[6 + n] != '\\') {
        (*out)->title[n] = (char)input->head[6 + n];
        n++;
    }
    return SHELF_OK;
}

static shelf_status manifest(shelf_publication *publication, const shelf_writer *out, shelf_error *err)
{
    char json[512];
    shelf_status s;
    snprintf(json, sizeof json, "{\"metadata\":{\"title\":\"%s\"},\"links\":[],"
             "\"readingOrder\":[{\"href\":\"text\",\"type\":\"text/plain\"}]}", publication->title);
    s = shelf_write_string(out, json);
    return s == SHELF_OK ? SHELF_OK : shelf_error_set(err, s, NULL, "the host took no more output");
}

static shelf_status resource(shelf_publication *publication, const char *href, const shelf_writer *out, shelf_error *err)
{
    if (strcmp(href, "text") != 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, href, "no such resource");
    return shelf_write_string(out, publication->title) == SHELF_OK ? SHELF_OK : shelf_error_set(err, SHELF_E_IO, NULL, "write failed");
}

static void close_book(shelf_publication *publication) { free(publication); }

static const shelf_format_v1 format = { sizeof format, probe, open_book, manifest, resource, close_book };

static const void *get_extension(const char *id) { return strcmp(id, SHELF_EXT_FORMAT) == 0 ? &format : NULL; }

static const char *const media_types[] = { "application/x-oldie", NULL };
static const char *const extensions[] = { "oldie", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof descriptor, SHELF_ABI_MAJOR, SHELF_ABI_MINOR, "org.shelf.test.oldie", "Oldie", "1.0.0", "MIT", "shelf tests", NULL,
    "A format plugin built against the ABI 1.0 headers.", 0, media_types, extensions, NULL, NULL, NULL, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
