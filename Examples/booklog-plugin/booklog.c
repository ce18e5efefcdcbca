/*
 * An example reading-list connector with two services, in C99, written from shelf's headers and libshelf-plugin.
 *
 *   "tsv-file"     a reading list kept in a local file, one book per line:
 *                      ISBN <TAB> title <TAB> author <TAB> shelf [<TAB> date read [<TAB> rating]]
 *                  ('#' starts a comment). Settings: {"file": "/path/to/list.tsv"} (required, a "file"
 *                  setting: the host makes it absolute and checks it exists). No network.
 *   "openlibrary"  a patron's public reading log on Open Library, read over HTTP through the host's
 *                  "shelf.host.http/1" with Open Library's documented My Books API:
 *                      GET {baseURL}/people/{username}/books/{want-to-read|currently-reading|already-read}.json?page=N
 *                  answering {"page": N, "reading_log_entries": [{"work": {"title", "key": "/works/OL…W",
 *                  "author_names": [...]}, "logged_date": "2013/03/19, 16:21:51"}, ...]} (an empty list past the
 *                  last page). Settings: {"username": "..."} (required), {"baseURL": "..."} (optional, default
 *                  https://openlibrary.org: a loopback fake in tests).
 *
 * Each service checks its own settings: `shelf conformance` gives them per service
 * (--set tsv-file.file=... --set openlibrary.username=...). Neither service can push (each says so).
 */
#include <shelf/shelf.h>
#include <shelf/helper.h>    /* libshelf-plugin: JSON in and out, files */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOOKLOG_MAX_LIST ((size_t)4 << 20)   /* a TSV file larger than 4 MiB is not a reading list */
#define BOOKLOG_MAX_PAGES 50                 /* reading-log pages read per shelf at most */

static const shelf_host *g_host;

enum booklog_service { TSV_FILE, OPEN_LIBRARY };

struct shelf_connection {
    enum booklog_service service;
    char *file;          /* tsv-file */
    char *username;      /* openlibrary */
    char *base;          /* openlibrary, without a trailing '/' */
};

static int service_of(const char *service, enum booklog_service *which)
{
    if (service != NULL && strcmp(service, "tsv-file") == 0) { *which = TSV_FILE; return 1; }
    if (service != NULL && strcmp(service, "openlibrary") == 0) { *which = OPEN_LIBRARY; return 1; }
    return 0;
}

static shelf_status unknown_service(shelf_error *err)
{
    return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks the services tsv-file and openlibrary only");
}

static char *copy(const char *text)
{
    size_t n = strlen(text) + 1;
    char *c = malloc(n);
    if (c != NULL) memcpy(c, text, n);
    return c;
}

/* ----- describe and connect ------------------------------------------------------------------ */

static shelf_status describe(const char *service, const shelf_writer *out, shelf_error *err)
{
    enum booklog_service which;
    if (!service_of(service, &which)) return unknown_service(err);
    if (which == TSV_FILE) {
        return shelf_write_string(out,
            "{\"service\":\"tsv-file\",\"name\":\"Reading list file\",\"pull\":true,\"pushRead\":false,"
            "\"pushToRead\":false,\"pushWrites\":\"service\",\"authorization\":\"none\","
            "\"settings\":[{\"key\":\"file\",\"label\":\"the list's file (tab-separated)\",\"required\":true,"
            "\"secret\":false,\"type\":\"file\"}]}");
    }
    return shelf_write_string(out,
        "{\"service\":\"openlibrary\",\"name\":\"Open Library reading log\",\"pull\":true,\"pushRead\":false,"
        "\"pushToRead\":false,\"pushWrites\":\"service\",\"authorization\":\"none\","
        "\"settings\":[{\"key\":\"username\",\"label\":\"Open Library username (a public reading log)\",\"required\":true,"
        "\"secret\":false},{\"key\":\"baseURL\",\"label\":\"Open Library's address\",\"required\":false,"
        "\"secret\":false,\"type\":\"url\"}]}");
}

static void disconnect(shelf_connection *connection)
{
    if (connection != NULL) {
        free(connection->file);
        free(connection->username);
        free(connection->base);
        free(connection);
    }
}

/* Checks the settings of `service` and makes its connection; no I/O. */
static shelf_status connect(const char *service, const char *settings_json, shelf_connection **out, shelf_error *err)
{
    enum booklog_service which;
    shelf_json_doc *settings;
    const shelf_json_value *root;
    shelf_connection *c;
    shelf_status status = SHELF_OK;
    if (out == NULL) return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no place for the connection");
    *out = NULL;
    if (!service_of(service, &which)) return unknown_service(err);
    settings = shelf_json_parse(settings_json != NULL ? settings_json : "{}", "settings", err);
    if (settings == NULL) return err->status;
    root = shelf_json_root(settings);
    if (shelf_json_type_of(root) != SHELF_JSON_OBJECT) {
        shelf_json_free(settings);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the settings are not a JSON object of strings");
    }
    c = calloc(1, sizeof *c);
    if (c == NULL) {
        shelf_json_free(settings);
        return shelf_error_no_memory(err, "connecting");
    }
    c->service = which;
    if (which == TSV_FILE) {
        const char *file = shelf_json_as_string(shelf_json_get(root, "file"), NULL);
        if (file == NULL || file[0] == '\0') {
            status = shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "file", "the setting file (the list's path) is required");
        } else if ((c->file = copy(file)) == NULL) {
            status = shelf_error_no_memory(err, "connecting");
        }
    } else {
        const char *username = shelf_json_as_string(shelf_json_get(root, "username"), NULL);
        const char *base = shelf_json_as_string(shelf_json_get(root, "baseURL"), "https://openlibrary.org");
        if (username == NULL || username[0] == '\0') {
            status = shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "username", "the setting username (your Open Library username) is required");
        } else if (strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0) {
            status = shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "baseURL", "the setting baseURL must be an http(s) address");
        } else if ((c->username = copy(username)) == NULL || (c->base = copy(base)) == NULL) {
            status = shelf_error_no_memory(err, "connecting");
        } else {
            size_t n = strlen(c->base);
            while (n > 0 && c->base[n - 1] == '/') c->base[--n] = '\0';
        }
    }
    shelf_json_free(settings);
    if (status != SHELF_OK) {
        disconnect(c);
        return status;
    }
    *out = c;
    return SHELF_OK;
}

/* ----- tsv-file ------------------------------------------------------------------------------ */

static int is_isbn(const char *s, size_t n)
{
    size_t i;
    if (n != 10 && n != 13) return 0;
    for (i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (i == n - 1 && n == 10 && s[i] == 'X'))) return 0;
    }
    return 1;
}

/* Writes the entries of the file's text, or fails with SHELF_E_BAD_DATA naming the first line that is not a book
 * with a title and a shelf (a list that cannot be read is an error, never an empty list). */
static shelf_status pull_file(const shelf_connection *c, const char *shelf_wanted, const shelf_writer *writer, shelf_error *err)
{
    char *text = NULL, *line, *next;
    size_t size = 0;
    unsigned number = 0;
    shelf_out out;
    shelf_status s = shelf_read_file(c->file, BOOKLOG_MAX_LIST, &text, &size, err);
    if (s != SHELF_OK) return s;
    if (shelf_utf8_check(text, size) != size) {
        free(text);
        return shelf_error_set(err, SHELF_E_BAD_DATA, c->file, "the list is not UTF-8 text (tab-separated lines)");
    }
    shelf_out_init(&out, writer);
    shelf_json_begin_object(&out);
    shelf_json_key(&out, "shelves");
    shelf_json_begin_array(&out);
    shelf_json_end_array(&out);
    shelf_json_key(&out, "entries");
    shelf_json_begin_array(&out);
    for (line = text; line != NULL && *line != '\0' && out.status == SHELF_OK; line = next) {
        char *field[6] = { 0 };
        size_t n = 0, length;
        shelf_entry entry;
        char *p;
        number++;
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        length = strlen(line);
        if (length > 0 && line[length - 1] == '\r') line[--length] = '\0';
        if (length == 0 || line[0] == '#') continue;
        field[n++] = line;
        for (p = line; *p != '\0' && n < 6; p++) {
            if (*p == '\t') { *p = '\0'; field[n++] = p + 1; }
        }
        if (n < 4 || field[1][0] == '\0' || field[3][0] == '\0') {
            free(text);
            return shelf_error_set(err, SHELF_E_BAD_DATA, c->file,
                                   "line %u is not ISBN<TAB>title<TAB>author<TAB>shelf (a title and a shelf are required)", number);
        }
        if (shelf_wanted != NULL && strcmp(shelf_wanted, field[3]) != 0) continue;
        shelf_entry_init(&entry);
        if (is_isbn(field[0], strlen(field[0]))) {
            if (strlen(field[0]) == 13) entry.isbn13 = field[0]; else entry.isbn10 = field[0];
        }
        entry.title = field[1];
        if (field[2][0] != '\0') entry.authors[0] = field[2];
        entry.shelf = field[3];
        if (n > 4 && field[4][0] != '\0') entry.date_read = field[4];
        if (n > 5 && shelf_number_parse(field[5], strlen(field[5]), &entry.rating) && (entry.rating < 1 || entry.rating > 5)) {
            entry.rating = 0;
        }
        shelf_json_entry(&out, &entry, NULL);
    }
    shelf_json_end_array(&out);
    shelf_json_end_object(&out);
    free(text);
    return shelf_out_finish(&out, err);
}

/* ----- openlibrary --------------------------------------------------------------------------- */

/* The reading log's shelves, as Open Library names them in its addresses and as shelf normalises them. */
static const char *const OL_SHELVES[3][2] = {
    { "want-to-read", "to-read" }, { "currently-reading", "currently-reading" }, { "already-read", "read" },
};

/* `text` percent-encoded into `out` (`size` bytes): unreserved characters stay. 0 when it does not fit. */
static int percent_encode(const char *text, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t used = 0;
    for (; *text != '\0'; text++) {
        unsigned char ch = (unsigned char)*text;
        int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.' || ch == '~';
        if (used + (plain ? 1 : 3) >= size) return 0;
        if (plain) {
            out[used++] = (char)ch;
        } else {
            out[used++] = '%';
            out[used++] = hex[ch >> 4];
            out[used++] = hex[ch & 15];
        }
    }
    out[used] = '\0';
    return 1;
}

/* One page of one shelf's reading log: its entries written to `out`; *count says how many there were (0: past the
 * last page). */
static shelf_status pull_page(const shelf_connection *c, const shelf_host_http_v1 *http, const char *const shelf[2], int page,
                              shelf_out *out, size_t *count, shelf_error *err)
{
    static const char *const headers[] = { "Accept: application/json", NULL };
    char user[256], url[1024];
    shelf_buffer body = { 0 };
    shelf_writer body_writer = shelf_buffer_writer(&body);
    shelf_http_request request;
    shelf_json_doc *doc;
    const shelf_json_value *entries, *e;
    int32_t status = 0;
    shelf_status s;
    *count = 0;
    if (!percent_encode(c->username, user, sizeof user)
        || snprintf(url, sizeof url, "%s/people/%s/books/%s.json?page=%d", c->base, user, shelf[0], page) >= (int)sizeof url) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "username", "the username is too long for an address");
    }
    memset(&request, 0, sizeof request);
    request.struct_size = sizeof request;
    request.method = "GET";
    request.url = url;
    request.headers = headers;
    s = http->send(g_host, &request, &status, NULL, &body_writer, err);
    if (s != SHELF_OK) {
        shelf_buffer_free(&body);
        return s;
    }
    if (status == 404) {
        shelf_buffer_free(&body);
        return shelf_error_set(err, SHELF_E_NOT_FOUND, url, "Open Library has no patron named %s", c->username);
    }
    if (status == 401 || status == 403) {
        shelf_buffer_free(&body);
        return shelf_error_set(err, SHELF_E_PROTECTED, url,
                               "the reading log of %s is private: make it public in Open Library's settings", c->username);
    }
    if (status < 200 || status > 299) {
        shelf_buffer_free(&body);
        return shelf_error_set(err, SHELF_E_IO, url, "Open Library answered HTTP %d", (int)status);
    }
    doc = shelf_json_parse(body.data != NULL ? body.data : "", "reading log", err);
    shelf_buffer_free(&body);
    if (doc == NULL) {
        /* Not JSON: not what the My Books API answers, so the service's answer, not our argument, is bad. */
        if (err->status == SHELF_E_NO_MEMORY) return SHELF_E_NO_MEMORY;
        return shelf_error_set(err, SHELF_E_BAD_DATA, url, "Open Library's answer is not the reading log's JSON");
    }
    entries = shelf_json_get(shelf_json_root(doc), "reading_log_entries");
    if (shelf_json_type_of(entries) != SHELF_JSON_ARRAY) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_BAD_DATA, url, "Open Library's answer has no reading_log_entries list");
    }
    for (e = shelf_json_first(entries); e != NULL && out->status == SHELF_OK; e = shelf_json_next(e)) {
        const shelf_json_value *work = shelf_json_get(e, "work"), *author;
        const char *key = shelf_json_as_string(shelf_json_get(work, "key"), NULL);
        const char *logged = shelf_json_as_string(shelf_json_get(e, "logged_date"), NULL);
        char added[11];
        size_t a = 0;
        shelf_entry entry;
        shelf_entry_init(&entry);
        entry.title = shelf_json_as_string(shelf_json_get(work, "title"), NULL);
        if (entry.title == NULL) {
            shelf_json_free(doc);
            return shelf_error_set(err, SHELF_E_BAD_DATA, url, "entry %zu of the reading log has no work title", *count + 1);
        }
        for (author = shelf_json_first(shelf_json_get(work, "author_names")); author != NULL && a < SHELF_ENTRY_MAX_AUTHORS;
             author = shelf_json_next(author)) {
            if ((entry.authors[a] = shelf_json_as_string(author, NULL)) != NULL) a++;
        }
        entry.authors[a] = NULL;
        if (key != NULL && strncmp(key, "/works/", 7) == 0) entry.service_id = key + 7;
        /* "2013/03/19, 16:21:51" is the day 2013-03-19 */
        if (logged != NULL && strlen(logged) >= 10 && logged[4] == '/' && logged[7] == '/') {
            memcpy(added, logged, 10);
            added[4] = added[7] = '-';
            added[10] = '\0';
            entry.date_added = added;
        }
        entry.shelf = shelf[1];
        shelf_json_entry(out, &entry, "openlibrary");
        (*count)++;
    }
    shelf_json_free(doc);
    return out->status;
}

static shelf_status pull_openlibrary(const shelf_connection *c, const char *shelf_wanted, const shelf_writer *writer, shelf_error *err)
{
    const shelf_host_http_v1 *http = g_host != NULL && g_host->get_service != NULL ? g_host->get_service(g_host, SHELF_HOST_HTTP) : NULL;
    shelf_out out;
    size_t i;
    if (http == NULL || http->struct_size < sizeof *http) {
        return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this host lends no HTTP client (%s)", SHELF_HOST_HTTP);
    }
    shelf_out_init(&out, writer);
    shelf_json_begin_object(&out);
    shelf_json_key(&out, "shelves");
    shelf_json_begin_array(&out);
    shelf_json_end_array(&out);
    shelf_json_key(&out, "entries");
    shelf_json_begin_array(&out);
    for (i = 0; i < 3; i++) {
        int page;
        if (shelf_wanted != NULL && strcmp(shelf_wanted, OL_SHELVES[i][1]) != 0) continue;
        for (page = 1; page <= BOOKLOG_MAX_PAGES; page++) {
            size_t count = 0;
            shelf_status s;
            /* Between requests: a cancelled pull stops here (plugin.h). */
            if (g_host->is_cancelled(g_host)) return shelf_error_set(err, SHELF_E_CANCELLED, NULL, "cancelled");
            s = pull_page(c, http, OL_SHELVES[i], page, &out, &count, err);
            if (s != SHELF_OK) return s;
            if (count == 0) break;
        }
    }
    shelf_json_end_array(&out);
    shelf_json_end_object(&out);
    return shelf_out_finish(&out, err);
}

/* ----- shelf.readinglist/1 ------------------------------------------------------------------- */

static shelf_status pull(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    shelf_json_doc *options = NULL;
    const char *shelf_wanted = NULL;
    shelf_status s;
    if (connection == NULL) return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no connection");
    if (options_json != NULL) {
        options = shelf_json_parse(options_json, "pull options", err);
        if (options == NULL) return err->status;
        shelf_wanted = shelf_json_as_string(shelf_json_get(shelf_json_root(options), "shelf"), NULL);
    }
    s = connection->service == TSV_FILE ? pull_file(connection, shelf_wanted, out, err)
                                        : pull_openlibrary(connection, shelf_wanted, out, err);
    shelf_json_free(options);
    return s;
}

static shelf_status push(shelf_connection *connection, const char *entries_json, const shelf_writer *out, shelf_error *err)
{
    shelf_json_doc *doc;
    (void)out;
    if (connection == NULL) return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no connection");
    /* Malformed entries are the caller's mistake, said as such, before saying that nothing can be pushed. */
    doc = shelf_json_parse(entries_json != NULL ? entries_json : "", "entries", err);
    if (doc == NULL) return err->status;
    if (shelf_json_type_of(shelf_json_get(shelf_json_root(doc), "entries")) != SHELF_JSON_ARRAY) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "entries", "push takes {\"entries\": [...]}");
    }
    shelf_json_free(doc);
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, connection->service == TSV_FILE
                           ? "the list file is read-only: edit it to add books"
                           : "Open Library's public reading log is read-only: add books on openlibrary.org");
}

static shelf_status authorize_begin(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    (void)connection;
    (void)options_json;
    (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "neither service needs a sign-in");
}

static shelf_status authorize_complete(shelf_connection *connection, const char *callback_json, shelf_error *err)
{
    (void)connection;
    (void)callback_json;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "neither service needs a sign-in");
}

/* ----- the descriptor ------------------------------------------------------------------------ */

static shelf_status init(const shelf_host *host, shelf_error *err)
{
    (void)err;
    g_host = host;
    return SHELF_OK;
}

static void deinit(void)
{
    g_host = NULL;
}

/* Examples/broken-plugins/faulty-booklog.c includes this file with BOOKLOG_CALLS_ONLY defined and gives its own
 * table and descriptor: this connector with one deliberate bug per build. */
#ifndef BOOKLOG_CALLS_ONLY

static const shelf_readinglist_v1 readinglist = {
    sizeof(shelf_readinglist_v1), describe, connect, pull, push, authorize_begin, authorize_complete, disconnect,
};

static const void *get_extension(const char *id)
{
    return id != NULL && strcmp(id, SHELF_EXT_READINGLIST) == 0 ? &readinglist : NULL;
}

static const char *const services[] = { "tsv-file", "openlibrary", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.example.booklog", "Book log", "1.0.0", "MIT", "shelf examples", NULL,
    "Reads a reading list from a tab-separated file, or a public Open Library reading log over HTTP.",
    0, NULL, NULL, services, init, deinit, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}

#endif
