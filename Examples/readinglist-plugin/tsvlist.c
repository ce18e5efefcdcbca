/*
 * An example reading-list connector in C99, written from shelf's headers and libshelf-plugin.
 *
 * Service "tsv-list": a reading list served over HTTP as tab-separated lines,
 *     ISBN <TAB> title <TAB> author <TAB> shelf <TAB> date read <TAB> rating
 * one book per line ('#' starts a comment). Settings: {"url": "http://..."} (required).
 * An optional bearer token is read from the host's credentials service under the key "token", the
 * service's own ("shelf.host.credentials/2"), or the plugin's on a host that has only /1.
 * Everything goes through the host: HTTP through "shelf.host.http/1", secrets through the
 * credentials service. The connector can pull; it cannot push (it says so).
 */
#include <shelf/shelf.h>
#include <shelf/helper.h>    /* libshelf-plugin: JSON in and out */

#include <stdlib.h>
#include <string.h>

static const shelf_host *g_host;

struct shelf_connection {
    char *url;
};

/* ----- shelf.readinglist/1 ------------------------------------------------------------------ */

static shelf_status describe(const char *service, const shelf_writer *out, shelf_error *err)
{
    if (service == NULL || strcmp(service, "tsv-list") != 0) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks only the service tsv-list");
    }
    return shelf_write_string(out,
        "{\"service\":\"tsv-list\",\"name\":\"TSV reading list\",\"pull\":true,\"pushRead\":false,"
        "\"pushToRead\":false,\"pushWrites\":\"service\",\"authorization\":\"none\","
        "\"settings\":[{\"key\":\"url\",\"label\":\"address of the list\",\"required\":true,\"secret\":false},"
        "{\"key\":\"token\",\"label\":\"bearer token\",\"required\":false,\"secret\":true}]}");
}

static shelf_status connect(const char *service, const char *settings_json, shelf_connection **out, shelf_error *err)
{
    shelf_json_doc *settings;
    const shelf_json_value *url_value;
    const char *url;
    if (out == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no place for the connection");
    }
    *out = NULL;
    if (service == NULL || strcmp(service, "tsv-list") != 0) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks only the service tsv-list");
    }
    settings = shelf_json_parse(settings_json != NULL ? settings_json : "{}", "settings", err);
    if (settings == NULL) return err->status;
    url_value = shelf_json_get(shelf_json_root(settings), "url");
    url = shelf_json_as_string(url_value, NULL);
    if (shelf_json_type_of(shelf_json_root(settings)) != SHELF_JSON_OBJECT) {
        shelf_json_free(settings);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the settings are not a JSON object of strings");
    }
    if (url == NULL) {
        shelf_json_free(settings);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "url", "the setting url (the list's http address) is required");
    }
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        shelf_json_free(settings);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "url", "the setting url must be an http(s) address");
    }
    *out = malloc(sizeof **out);
    if (*out != NULL) (*out)->url = malloc(strlen(url) + 1);
    if (*out == NULL || (*out)->url == NULL) {
        free(*out);
        *out = NULL;
        shelf_json_free(settings);
        return shelf_error_no_memory(err, "connecting");
    }
    memcpy((*out)->url, url, strlen(url) + 1);
    shelf_json_free(settings);
    return SHELF_OK;
}

/* Splits `line` at tabs into at most `max` fields (in place). */
static size_t split_tabs(char *line, char **fields, size_t max)
{
    size_t n = 0;
    fields[n++] = line;
    for (; *line != '\0' && n < max; line++) {
        if (*line == '\t') {
            *line = '\0';
            fields[n++] = line + 1;
        }
    }
    return n;
}

static int is_isbn(const char *s)
{
    size_t n = strlen(s), i;
    if (n != 10 && n != 13) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (i == n - 1 && n == 10 && s[i] == 'X'))) {
            return 0;
        }
    }
    return 1;
}

/* Whether `size` bytes are UTF-8 text: no NUL or other control byte but tab, CR and LF, no malformed
 * sequence. A list that is not is not a list (an error page, a truncated or garbled answer). */
static int is_text(const unsigned char *s, size_t size)
{
    size_t i = 0;
    while (i < size) {
        unsigned char c = s[i];
        size_t extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 3 : 4;
        if (extra == 4 || i + extra >= size + (extra == 0)) return 0;
        if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') return 0;
        while (extra > 0) {
            if ((s[++i] & 0xC0) != 0x80) return 0;
            extra--;
        }
        i++;
    }
    return 1;
}

/* The number of the first line (from 1) that is neither a comment, nor empty, nor a book with a title
 * and a shelf; 0 when every line is. */
static unsigned first_bad_line(const char *text)
{
    unsigned number = 1;
    while (*text != '\0') {
        const char *end = strchr(text, '\n');
        size_t length = end != NULL ? (size_t)(end - text) : strlen(text), tabs = 0, i;
        const char *field[4] = { text, NULL, NULL, NULL };
        if (length > 0 && text[length - 1] == '\r') length--;
        for (i = 0; i < length && tabs < 3; i++) {
            if (text[i] == '\t') field[++tabs] = text + i + 1;
        }
        if (length > 0 && text[0] != '#') {
            if (tabs < 3 || field[1][0] == '\t' || field[3] >= text + length || *field[3] == '\t' || *field[3] == '\r') return number;
        }
        if (end == NULL) break;
        text = end + 1;
        number++;
    }
    return 0;
}

/* Writes the pull result, or fails with SHELF_E_BAD_DATA naming the first line that is not
 * ISBN <TAB> title <TAB> author <TAB> shelf [...]: an answer the connector cannot read is an error,
 * never an empty list. */
static shelf_status write_entries(char *text, size_t size, const char *url, const shelf_writer *writer, shelf_error *err)
{
    shelf_out out;
    char *line = text;
    unsigned bad;
    if (!is_text((const unsigned char *)text, size)) {
        return shelf_error_set(err, SHELF_E_BAD_DATA, url, "the list is not UTF-8 text (tab-separated lines)");
    }
    if ((bad = first_bad_line(text)) != 0) {
        return shelf_error_set(err, SHELF_E_BAD_DATA, url,
                               "line %u is not ISBN<TAB>title<TAB>author<TAB>shelf (a title and a shelf are required)", bad);
    }
    shelf_out_init(&out, writer);
    shelf_json_begin_object(&out);
    shelf_json_key(&out, "shelves");
    shelf_json_begin_array(&out);
    shelf_json_end_array(&out);
    shelf_json_key(&out, "entries");
    shelf_json_begin_array(&out);
    while (out.status == SHELF_OK && line != NULL && *line != '\0') {
        char *next = strchr(line, '\n');
        char *fields[6] = { 0 };
        shelf_entry entry;
        size_t n;
        if (next != NULL) {
            *next++ = '\0';
        }
        if (*line != '\0' && line[strlen(line) - 1] == '\r') {
            line[strlen(line) - 1] = '\0';
        }
        n = *line == '#' || *line == '\0' ? 0 : split_tabs(line, fields, 6);
        line = next;
        if (n < 4 || fields[1][0] == '\0' || fields[3][0] == '\0') continue;   /* refused by first_bad_line */
        shelf_entry_init(&entry);
        if (is_isbn(fields[0]) && strlen(fields[0]) == 13) entry.isbn13 = fields[0];
        if (is_isbn(fields[0]) && strlen(fields[0]) == 10) entry.isbn10 = fields[0];
        entry.title = fields[1];
        if (fields[2][0] != '\0') entry.authors[0] = fields[2];
        entry.shelf = fields[3];
        if (n > 4 && fields[4][0] != '\0') entry.date_read = fields[4];
        /* 1 to 5, halves allowed ("4.5"); anything else is no rating */
        if (n > 5 && shelf_number_parse(fields[5], strlen(fields[5]), &entry.rating) && (entry.rating < 1 || entry.rating > 5)) {
            entry.rating = 0;
        }
        shelf_json_entry(&out, &entry, NULL);
    }
    shelf_json_end_array(&out);
    shelf_json_end_object(&out);
    return shelf_out_finish(&out, err);
}

static shelf_status pull(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    const shelf_host_http_v1 *http;
    const shelf_host_credentials_v1 *credentials;
    const shelf_host_credentials_v2 *credentials2;
    shelf_http_request request;
    shelf_buffer body = { 0 }, token = { 0 };
    shelf_writer body_writer = shelf_buffer_writer(&body), token_writer = shelf_buffer_writer(&token);
    char *authorization = NULL;
    const char *headers[3] = { "Accept: text/tab-separated-values", NULL, NULL };
    int32_t status = 0;
    shelf_status s;
    (void)options_json;
    if (connection == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no connection");
    }
    http = g_host != NULL && g_host->get_service != NULL ? g_host->get_service(g_host, SHELF_HOST_HTTP) : NULL;
    if (http == NULL || http->struct_size < sizeof *http) {
        return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this host lends no HTTP client (%s)", SHELF_HOST_HTTP);
    }
    /* The token of this service (credentials/2); a host without /2 has the plugin's own (/1). */
    credentials2 = g_host->get_service(g_host, SHELF_HOST_CREDENTIALS_2);
    credentials = g_host->get_service(g_host, SHELF_HOST_CREDENTIALS);
    if (credentials2 != NULL && credentials2->struct_size < sizeof *credentials2) credentials2 = NULL;
    if (credentials2 != NULL || (credentials != NULL && credentials->struct_size >= sizeof *credentials)) {
        s = credentials2 != NULL ? credentials2->get(g_host, "tsv-list", "token", &token_writer, err)
                                 : credentials->get(g_host, "token", &token_writer, err);
        if (s == SHELF_OK && token.data != NULL) {
            authorization = malloc(token.size + 32);
            if (authorization != NULL) {
                snprintf(authorization, token.size + 32, "Authorization: Bearer %s", token.data);
                headers[1] = authorization;
            }
        }
        /* A missing token is normal: forget that lookup's error. */
        err->status = SHELF_OK;
        err->message[0] = '\0';
        err->location[0] = '\0';
        shelf_buffer_free(&token);
    }
    memset(&request, 0, sizeof request);
    request.struct_size = sizeof request;
    request.method = "GET";
    request.url = connection->url;
    request.headers = headers;
    s = http->send(g_host, &request, &status, NULL, &body_writer, err);
    free(authorization);
    if (s != SHELF_OK) {
        shelf_buffer_free(&body);
        return s;
    }
    if (status == 401 || status == 403) {
        shelf_buffer_free(&body);
        return shelf_error_set(err, SHELF_E_PROTECTED, connection->url,
                               "the list refused access (%d): store a token with `shelf lists connect tsv-list --secret token`", (int)status);
    }
    if (status < 200 || status > 299) {
        shelf_buffer_free(&body);
        return shelf_error_set(err, SHELF_E_IO, connection->url, "the list answered HTTP %d", (int)status);
    }
    s = write_entries(body.data != NULL ? body.data : (char *)"", body.size, connection->url, out, err);
    shelf_buffer_free(&body);
    return s;
}

static shelf_status push(shelf_connection *connection, const char *entries_json, const shelf_writer *out, shelf_error *err)
{
    (void)connection;
    (void)entries_json;
    (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "a TSV list is read-only: nothing can be pushed to it");
}

static shelf_status authorize_begin(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    (void)connection;
    (void)options_json;
    (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "a TSV list needs no sign-in (store a token as a secret instead)");
}

static shelf_status authorize_complete(shelf_connection *connection, const char *callback_json, shelf_error *err)
{
    (void)connection;
    (void)callback_json;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "a TSV list needs no sign-in");
}

static void disconnect(shelf_connection *connection)
{
    if (connection != NULL) {
        free(connection->url);
        free(connection);
    }
}

/* ----- the descriptor ----------------------------------------------------------------------- */

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

/* A file that reuses the calls above includes this one with TSVLIST_CALLS_ONLY defined and gives its own table
 * and descriptor (shelf's tests do: Examples/broken-plugins/faulty-connector.c is this connector with one
 * deliberate bug per build). */
#ifndef TSVLIST_CALLS_ONLY

static const shelf_readinglist_v1 readinglist = {
    sizeof(shelf_readinglist_v1), describe, connect, pull, push, authorize_begin, authorize_complete, disconnect,
};

static const void *get_extension(const char *id)
{
    if (id != NULL && strcmp(id, SHELF_EXT_READINGLIST) == 0) {
        return &readinglist;
    }
    return NULL;
}

static const char *const services[] = { "tsv-list", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.example.tsvlist", "TSV reading list", "1.0.0", "MIT", "shelf examples", NULL,
    "Reads a reading list served as tab-separated lines, through the host's HTTP service.",
    0, NULL, NULL, services, init, deinit, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}

#endif
