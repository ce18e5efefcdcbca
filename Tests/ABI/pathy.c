/*
 * A format plugin built against the current headers that uses what ABI 1.1 added. It opens ".pathy" books: a first
 * line "PATHY1" and the title on the second.
 *   - shelf_host.plugin_path: at init it reads "pathy-greeting.txt" beside its own file; each title is
 *     "<greeting>: <title> [<its file's name>]" ("no greeting" when the file cannot be read).
 *   - shelf.probe/1: a "PATHY2" book is its own but one it cannot read, and it says so.
 * With -DPATHY_MINOR=N its descriptor claims ABI 1.N instead of the header's.
 */
#include <shelf/format.h>

#include <stdio.h>
#include <stdlib.h>

#ifndef PATHY_MINOR
#define PATHY_MINOR SHELF_ABI_MINOR
#endif

static char greeting[128] = "no greeting";
static char own_name[256] = "no plugin_path";

struct shelf_publication {
    char title[640];
};

static shelf_status init(const shelf_host *host, shelf_error *err)
{
    (void)err;
    if (SHELF_HAS_FIELD(host, shelf_host, plugin_path) && host->plugin_path != NULL) {
        char path[4096];
        const char *slash = strrchr(host->plugin_path, '/');
        FILE *file;
        snprintf(own_name, sizeof own_name, "%s", slash != NULL ? slash + 1 : host->plugin_path);
        snprintf(path, sizeof path, "%.*s/pathy-greeting.txt", slash != NULL ? (int)(slash - host->plugin_path) : 1,
                 slash != NULL ? host->plugin_path : ".");
        if ((file = fopen(path, "r")) != NULL) {
            if (fgets(greeting, sizeof greeting, file) == NULL) snprintf(greeting, sizeof greeting, "empty greeting");
            greeting[strcspn(greeting, "\r\n\"\\")] = '\0';
            fclose(file);
        }
    }
    return SHELF_OK;
}

static int starts(const shelf_input *input, const char *magic)
{
    return input->head_size >= 7 && memcmp(input->head, magic, 7) == 0;
}

static shelf_status probe(const shelf_input *input, int32_t *confidence)
{
    *confidence = starts(input, "PATHY1\n") ? SHELF_PROBE_CERTAIN : 0;
    return SHELF_OK;
}

static shelf_status probe_explained(const shelf_input *input, int32_t *confidence, shelf_error *err)
{
    *confidence = 0;
    if (starts(input, "PATHY2\n")) {
        return shelf_error_set(err, SHELF_E_UNSUPPORTED, "line 1", "this is a Pathy 2 book, and this plugin reads Pathy 1 only: update it");
    }
    return probe(input, confidence);
}

static shelf_status open_book(const shelf_input *input, const char *options_json, shelf_publication **out, shelf_error *err)
{
    char title[128] = "";
    size_t n = 0;
    (void)options_json;
    *out = NULL;
    if (!starts(input, "PATHY1\n")) return shelf_error_set(err, SHELF_E_BAD_DATA, NULL, "not a Pathy 1 book");
    while (7 + n < input->head_size && n < sizeof title - 1 && input->head[7 + n] >= ' ' && input->head[7 + n] != '"'
           && input->head[7 + n] != '\\') {
        title[n] = (char)input->head[7 + n];
        n++;
    }
    *out = calloc(1, sizeof **out);
    if (*out == NULL) return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory");
    snprintf((*out)->title, sizeof (*out)->title, "%s: %s [%s]", greeting, title, own_name);
    return SHELF_OK;
}

static shelf_status manifest(shelf_publication *publication, const shelf_writer *out, shelf_error *err)
{
    char json[1024 + 640];
    snprintf(json, sizeof json, "{\"metadata\":{\"title\":\"%s\"},\"links\":[],"
             "\"readingOrder\":[{\"href\":\"text\",\"type\":\"text/plain\"}]}", publication->title);
    return shelf_write_string(out, json) == SHELF_OK ? SHELF_OK : shelf_error_set(err, SHELF_E_IO, NULL, "write failed");
}

static shelf_status resource(shelf_publication *publication, const char *href, const shelf_writer *out, shelf_error *err)
{
    if (strcmp(href, "text") != 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, href, "no such resource");
    return shelf_write_string(out, publication->title) == SHELF_OK ? SHELF_OK : shelf_error_set(err, SHELF_E_IO, NULL, "write failed");
}

static void close_book(shelf_publication *publication) { free(publication); }

static const shelf_format_v1 format = { sizeof format, probe, open_book, manifest, resource, close_book };
static const shelf_probe_v1 explained = { sizeof explained, probe_explained };

static const void *get_extension(const char *id)
{
    if (strcmp(id, SHELF_EXT_FORMAT) == 0) return &format;
    if (strcmp(id, SHELF_EXT_PROBE) == 0) return &explained;
    return NULL;
}

static const char *const media_types[] = { "application/x-pathy", NULL };
static const char *const extensions[] = { "pathy", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof descriptor, SHELF_ABI_MAJOR, PATHY_MINOR, "org.shelf.test.pathy", "Pathy", "1.0.0", "MIT", "shelf tests", NULL,
    "A format plugin that uses what ABI 1.1 added.", 0, media_types, extensions, NULL, init, NULL, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
