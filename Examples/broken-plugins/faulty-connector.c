/*
 * A reading-list connector with one deliberate bug per build, for the connector checks of
 * `shelf conformance` (which run it with --set url=... against a loopback list). It is the example connector
 * (Examples/readinglist-plugin/tsvlist.c, included below, not copied) with push added and the calls a bug changes
 * wrapped. Built without BUG it is correct and passes; with -DBUG=<name> it has that bug:
 *
 *   swallow    a service that fails (5xx, garbage, no answer) becomes an empty list instead of an error
 *   nocancel   retries a failed pull up to 20 times, even after SHELF_E_CANCELLED
 *   duplicate  push adds every entry again, every time (push is not idempotent)
 *   required   connect accepts settings without the required "url"
 *
 * Service "tsv-list", as the example's; unlike the example's, its list takes pushes (kept in the connection).
 */
#define TSVLIST_CALLS_ONLY
/* The example's describe and push go unused: this connector pushes, the example cannot. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../readinglist-plugin/tsvlist.c"
#pragma GCC diagnostic pop

#include <stdio.h>

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

/* The example's connection, and the entries pushed through it so that a second push changes nothing. */
struct faulty_connection {
    shelf_connection *list;
    char pushed[64][160];   /* "shelf/title" of each entry pushed */
    size_t pushed_count;
};

static shelf_status faulty_describe(const char *service, const shelf_writer *out, shelf_error *err)
{
    if (service == NULL || strcmp(service, "tsv-list") != 0) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks only the service tsv-list");
    }
    return shelf_write_string(out,
        "{\"service\":\"tsv-list\",\"name\":\"Faulty TSV list\",\"pull\":true,\"pushRead\":true,\"pushToRead\":true,"
        "\"pushWrites\":\"service\",\"authorization\":\"none\","
        "\"settings\":[{\"key\":\"url\",\"label\":\"address of the list\",\"required\":true,\"secret\":false}]}");
}

static shelf_status faulty_connect(const char *service, const char *settings_json, shelf_connection **out, shelf_error *err)
{
    struct faulty_connection *faulty;
    shelf_connection *list = NULL;
    shelf_status s = connect(service, settings_json, &list, err);
    if (s == SHELF_E_INVALID_ARGUMENT && HAS(required) && strcmp(err->location, "url") == 0) {
        /* The bug: no url is taken for an empty one. */
        err->status = SHELF_OK;
        err->message[0] = '\0';
        err->location[0] = '\0';
        s = connect(service, "{\"url\":\"http://\"}", &list, err);
    }
    if (s != SHELF_OK) return s;
    faulty = calloc(1, sizeof *faulty);
    if (faulty == NULL) {
        disconnect(list);
        return shelf_error_no_memory(err, "connecting");
    }
    faulty->list = list;
    *out = (shelf_connection *)faulty;
    return SHELF_OK;
}

static shelf_status faulty_pull(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    struct faulty_connection *faulty = (struct faulty_connection *)connection;
    shelf_status s;
    int attempt;
    for (attempt = 0;; attempt++) {
        s = pull(faulty->list, options_json, out, err);
        if (!HAS(nocancel) || s == SHELF_OK || attempt == 20) break;
    }
    if (s != SHELF_OK && s != SHELF_E_CANCELLED && HAS(swallow)) {
        err->status = SHELF_OK;
        err->message[0] = '\0';
        return shelf_write_string(out, "{\"shelves\":[],\"entries\":[]}");
    }
    return s;
}

static shelf_status faulty_push(shelf_connection *connection, const char *entries_json, const shelf_writer *out, shelf_error *err)
{
    struct faulty_connection *faulty = (struct faulty_connection *)connection;
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
        for (i = 0; i < faulty->pushed_count; i++) known |= strcmp(faulty->pushed[i], key) == 0;
        if (!known && faulty->pushed_count < 64) memcpy(faulty->pushed[faulty->pushed_count++], key, sizeof key);
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

static void faulty_disconnect(shelf_connection *connection)
{
    struct faulty_connection *faulty = (struct faulty_connection *)connection;
    if (faulty != NULL) disconnect(faulty->list);
    free(faulty);
}

static const shelf_readinglist_v1 readinglist = {
    sizeof(shelf_readinglist_v1), faulty_describe, faulty_connect, faulty_pull, faulty_push,
    authorize_begin, authorize_complete, faulty_disconnect,
};

static const void *get_extension(const char *id)
{
    return id != NULL && strcmp(id, SHELF_EXT_READINGLIST) == 0 ? &readinglist : NULL;
}

static const char *const services[] = { "tsv-list", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.faulty-connector", "Faulty connector", "1.0.0", "MIT", "shelf tests", NULL,
    "The example TSV connector with one deliberate bug per build, for shelf conformance.",
    0, NULL, NULL, services, init, deinit, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
