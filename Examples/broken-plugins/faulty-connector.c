/*
 * A reading-list connector with one deliberate bug per build, for the connector checks of
 * `shelf conformance` (which run it with --set url=... against a loopback list). Built without BUG it is
 * correct and passes; with -DBUG=<name> it has that bug:
 *
 *   swallow    a service that fails (5xx, garbage, no answer) becomes an empty list instead of an error
 *   nocancel   retries a failed request up to 20 times, even after SHELF_E_CANCELLED
 *   duplicate  push adds every entry again, every time (push is not idempotent)
 *   required   connect accepts settings without the required "url"
 *
 * Service "faulty-list": a list of books served over HTTP, one "title <TAB> shelf" a line.
 */
#include <shelf/shelf.h>
#include <shelf/helper.h>

#include <stdlib.h>
#include <string.h>

#define BUG_swallow 1
#define BUG_nocancel 2
#define BUG_duplicate 3
#define BUG_required 4
#define PASTE(a, b) a##b
#define BUG_NUMBER(name) PASTE(BUG_, name)
#ifdef BUG
#define HAS(name) (BUG_NUMBER(BUG) == BUG_##name)
#else
#define HAS(name) 0
#endif

static const shelf_host *g_host;

struct shelf_connection {
    char *url;
    char pushed[64][160];   /* "shelf/title" of each entry pushed, so a second push changes nothing */
    size_t pushed_count;
};

static shelf_status describe(const char *service, const shelf_writer *out, shelf_error *err)
{
    if (service == NULL || strcmp(service, "faulty-list") != 0) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks only faulty-list");
    }
    return shelf_write_string(out,
        "{\"service\":\"faulty-list\",\"name\":\"Faulty list\",\"pull\":true,\"pushRead\":true,\"pushToRead\":true,"
        "\"pushWrites\":\"service\",\"authorization\":\"none\","
        "\"settings\":[{\"key\":\"url\",\"label\":\"address of the list\",\"required\":true,\"secret\":false}]}");
}

static shelf_status connect(const char *service, const char *settings_json, shelf_connection **out, shelf_error *err)
{
    shelf_json_doc *settings;
    const char *url;
    *out = NULL;
    if (service == NULL || strcmp(service, "faulty-list") != 0) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks only faulty-list");
    }
    settings = shelf_json_parse(settings_json != NULL ? settings_json : "{}", "settings", err);
    if (settings == NULL) return err->status;
    if (shelf_json_type_of(shelf_json_root(settings)) != SHELF_JSON_OBJECT) {
        shelf_json_free(settings);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the settings are not a JSON object");
    }
    url = shelf_json_as_string(shelf_json_get(shelf_json_root(settings), "url"), HAS(required) ? "" : NULL);
    if (url == NULL) {
        shelf_json_free(settings);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "url", "the setting url is required");
    }
    *out = calloc(1, sizeof **out);
    if (*out == NULL || ((*out)->url = malloc(strlen(url) + 1)) == NULL) {
        free(*out);
        *out = NULL;
        shelf_json_free(settings);
        return shelf_error_no_memory(err, "connecting");
    }
    memcpy((*out)->url, url, strlen(url) + 1);
    shelf_json_free(settings);
    return SHELF_OK;
}

/* GET the list; the status of the transfer, the HTTP status in *status. */
static shelf_status fetch(const char *url, shelf_buffer *body, int32_t *status, shelf_error *err)
{
    const shelf_host_http_v1 *http = g_host->get_service(g_host, SHELF_HOST_HTTP);
    shelf_writer writer = shelf_buffer_writer(body);
    shelf_http_request request;
    shelf_status s;
    int attempt;
    if (http == NULL) return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "no HTTP service");
    if (url[0] == '\0') return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "url", "no url");
    memset(&request, 0, sizeof request);
    request.struct_size = sizeof request;
    request.method = "GET";
    request.url = url;
    for (attempt = 0;; attempt++) {
        shelf_buffer_reset(body);
        s = http->send(g_host, &request, status, NULL, &writer, err);
        if (!HAS(nocancel) || s == SHELF_OK || attempt == 20) return s;
    }
}

static shelf_status empty_list(const shelf_writer *out)
{
    return shelf_write_string(out, "{\"shelves\":[],\"entries\":[]}");
}

static shelf_status pull(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    shelf_buffer body = { 0 };
    shelf_out json;
    int32_t status = 0;
    char *line, *next;
    shelf_status s;
    (void)options_json;
    s = fetch(connection->url, &body, &status, err);
    if (s == SHELF_OK && (status < 200 || status > 299)) {
        s = shelf_error_set(err, SHELF_E_IO, connection->url, "the list answered HTTP %d", (int)status);
    }
    /* Every line must be "title <TAB> shelf" of printable text. */
    for (line = body.data; s == SHELF_OK && line != NULL && *line != '\0'; line = next) {
        const char *c;
        next = strchr(line, '\n');
        for (c = line; c != next && *c != '\0'; c++) {
            if ((unsigned char)*c < 0x20 && *c != '\t') break;
        }
        if ((c != next && *c != '\0') || memchr(line, '\t', (size_t)(c - line)) == NULL) {
            s = shelf_error_set(err, SHELF_E_BAD_DATA, connection->url, "a line is not title<TAB>shelf");
        }
        if (next != NULL) next++;
    }
    if (s == SHELF_OK && body.data != NULL && strlen(body.data) != body.size) {
        s = shelf_error_set(err, SHELF_E_BAD_DATA, connection->url, "the list holds a NUL byte");
    }
    if (s != SHELF_OK) {
        shelf_buffer_free(&body);
        if (HAS(swallow) && s != SHELF_E_CANCELLED) {
            err->status = SHELF_OK;
            err->message[0] = '\0';
            return empty_list(out);
        }
        return s;
    }
    shelf_out_init(&json, out);
    shelf_json_begin_object(&json);
    shelf_json_key(&json, "shelves");
    shelf_json_begin_array(&json);
    shelf_json_end_array(&json);
    shelf_json_key(&json, "entries");
    shelf_json_begin_array(&json);
    for (line = body.data; line != NULL && *line != '\0'; line = next) {
        char *tab = strchr(line, '\t');
        shelf_entry entry;
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        *tab = '\0';
        shelf_entry_init(&entry);
        entry.title = line;
        entry.shelf = tab + 1;
        shelf_json_entry(&json, &entry, NULL);
    }
    shelf_json_end_array(&json);
    shelf_json_end_object(&json);
    shelf_buffer_free(&body);
    return shelf_out_finish(&json, err);
}

static shelf_status push(shelf_connection *connection, const char *entries_json, const shelf_writer *out, shelf_error *err)
{
    shelf_json_doc *doc = shelf_json_parse(entries_json != NULL ? entries_json : "", "push input", err);
    const shelf_json_value *entries, *value;
    shelf_out json;
    int index = 0;
    if (doc == NULL) return err->status;
    entries = shelf_json_get(shelf_json_root(doc), "entries");
    if (shelf_json_type_of(entries) != SHELF_JSON_ARRAY) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "entries", "the push input has no entries array");
    }
    shelf_out_init(&json, out);
    shelf_json_begin_object(&json);
    shelf_json_key(&json, "results");
    shelf_json_begin_array(&json);
    for (value = shelf_json_first(entries); value != NULL; value = shelf_json_next(value), index++) {
        char key[160];
        size_t i;
        int known = 0;
        snprintf(key, sizeof key, "%s/%s", shelf_json_as_string(shelf_json_get(value, "shelf"), ""),
                 shelf_json_as_string(shelf_json_get(value, "title"), ""));
        for (i = 0; i < connection->pushed_count; i++) known |= strcmp(connection->pushed[i], key) == 0;
        if (!known && connection->pushed_count < 64) memcpy(connection->pushed[connection->pushed_count++], key, sizeof key);
        shelf_json_begin_object(&json);
        shelf_json_key(&json, "index");
        shelf_json_int(&json, index);
        shelf_json_key(&json, "status");
        shelf_json_string(&json, known && !HAS(duplicate) ? "unchanged" : "added");
        shelf_json_end_object(&json);
    }
    shelf_json_end_array(&json);
    shelf_json_end_object(&json);
    shelf_json_free(doc);
    return shelf_out_finish(&json, err);
}

static shelf_status authorize_begin(shelf_connection *c, const char *o, const shelf_writer *out, shelf_error *err)
{
    (void)c;
    (void)o;
    (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "no sign-in");
}

static shelf_status authorize_complete(shelf_connection *c, const char *q, shelf_error *err)
{
    (void)c;
    (void)q;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "no sign-in");
}

static void disconnect(shelf_connection *connection)
{
    if (connection != NULL) free(connection->url);
    free(connection);
}

static const shelf_readinglist_v1 readinglist = {
    sizeof(shelf_readinglist_v1), describe, connect, pull, push, authorize_begin, authorize_complete, disconnect,
};

static shelf_status init(const shelf_host *host, shelf_error *err)
{
    (void)err;
    g_host = host;
    return SHELF_OK;
}

static void deinit(void) { g_host = NULL; }

static const void *get_extension(const char *id)
{
    return id != NULL && strcmp(id, SHELF_EXT_READINGLIST) == 0 ? &readinglist : NULL;
}

static const char *const services[] = { "faulty-list", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.faulty-connector", "Faulty connector", "1.0.0", "MIT", "shelf tests", NULL,
    "A connector with one deliberate bug per build, for shelf conformance.",
    0, NULL, NULL, services, init, deinit, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
