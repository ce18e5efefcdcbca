/*
 * The two-service example connector (Examples/booklog-plugin/booklog.c, included below, not copied) with one
 * deliberate bug per build, each in one service only, for the per-service connector checks of `shelf conformance`.
 * Built without BUG it is correct and passes; with -DBUG=<name> it has that bug:
 *
 *   swallow    openlibrary: a service that fails (5xx, garbage, no answer) becomes an empty reading log instead of
 *              an error (connector-failures fails on openlibrary; tsv-file reads no HTTP and is not concerned)
 *   nofile     tsv-file: connect accepts settings without the required "file" (connector-settings fails on
 *              tsv-file; openlibrary passes)
 */
#define BOOKLOG_CALLS_ONLY
#include "../booklog-plugin/booklog.c"

#define BUG_swallow 1
#define BUG_nofile 2
#define PASTE(a, b) a##b
#define BUG_NUMBER(name) PASTE(BUG_, name)
#ifdef BUG
#define HAS(name) (BUG_NUMBER(BUG) == BUG_##name)
#else
#define HAS(name) 0
#endif

static shelf_status faulty_connect(const char *service, const char *settings_json, shelf_connection **out, shelf_error *err)
{
    shelf_status s = connect(service, settings_json, out, err);
    if (s == SHELF_E_INVALID_ARGUMENT && HAS(nofile) && strcmp(err->location, "file") == 0) {
        /* The bug: a list file left out is taken for an empty path. */
        *out = calloc(1, sizeof **out);
        if (*out == NULL || ((*out)->file = copy("")) == NULL) {
            disconnect(*out);
            *out = NULL;
            return shelf_error_no_memory(err, "connecting");
        }
        (*out)->service = TSV_FILE;
        return SHELF_OK;
    }
    return s;
}

static shelf_status faulty_pull(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    shelf_status s = pull(connection, options_json, out, err);
    if (HAS(swallow) && connection != NULL && connection->service == OPEN_LIBRARY && (s == SHELF_E_IO || s == SHELF_E_BAD_DATA)) {
        /* The bug: a failed service reads as an empty reading log. */
        return shelf_write_string(out, "{\"shelves\":[],\"entries\":[]}");
    }
    return s;
}

static const shelf_readinglist_v1 readinglist = {
    sizeof(shelf_readinglist_v1), describe, faulty_connect, faulty_pull, push, authorize_begin, authorize_complete, disconnect,
};

static const void *get_extension(const char *id)
{
    return id != NULL && strcmp(id, SHELF_EXT_READINGLIST) == 0 ? &readinglist : NULL;
}

static const char *const services[] = { "tsv-file", "openlibrary", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.faulty-booklog", "Faulty book log", "1.0.0", "MIT", "shelf tests", NULL,
    "The example two-service connector with one deliberate bug per build.",
    0, NULL, NULL, services, init, deinit, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
