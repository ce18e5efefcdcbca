/*
 * An example reading-list connector in C99, written from shelf's headers alone.
 *
 * Service "tsv-list": a reading list served over HTTP as tab-separated lines,
 *     ISBN <TAB> title <TAB> author <TAB> shelf <TAB> date read <TAB> rating
 * one book per line ('#' starts a comment). Settings: {"url": "http://..."} (required).
 * An optional bearer token is read from the host's credentials service under the key "token".
 * Everything goes through the host: HTTP through "shelf.host.http/1", secrets through
 * "shelf.host.credentials/1". The connector can pull; it cannot push (it says so).
 */
#include <shelf/shelf.h>

#include <stdlib.h>
#include <string.h>

static const shelf_host *g_host;

struct shelf_connection {
    char *url;
};

/* ----- small helpers ------------------------------------------------------------------------ */

/* A growable buffer that is also a shelf_writer target. */
typedef struct buffer {
    char *data;
    size_t size;
    size_t capacity;
} buffer;

static shelf_status buffer_write(void *context, const void *data, size_t size)
{
    buffer *b = context;
    if (size > (size_t)16 << 20 || b->size + size > (size_t)16 << 20) {
        return SHELF_E_LIMIT;
    }
    if (b->size + size + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 1024;
        char *grown;
        while (capacity < b->size + size + 1) {
            capacity *= 2;
        }
        grown = realloc(b->data, capacity);
        if (grown == NULL) {
            return SHELF_E_NO_MEMORY;
        }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    b->data[b->size] = '\0';
    return SHELF_OK;
}

/* Writes `text` as a JSON string (quoted, escaped). */
static shelf_status write_json_string(const shelf_writer *out, const char *text, size_t length)
{
    static const char hex[] = "0123456789abcdef";
    shelf_status s = out->write(out->context, "\"", 1);
    size_t i;
    for (i = 0; s == SHELF_OK && i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c == '\\') {
            char escaped[2];
            escaped[0] = '\\';
            escaped[1] = (char)c;
            s = out->write(out->context, escaped, 2);
        } else if (c < 0x20) {
            char escaped[6] = { '\\', 'u', '0', '0', 0, 0 };
            escaped[4] = hex[c >> 4];
            escaped[5] = hex[c & 15];
            s = out->write(out->context, escaped, 6);
        } else {
            s = out->write(out->context, &text[i], 1);
        }
    }
    return s == SHELF_OK ? out->write(out->context, "\"", 1) : s;
}

/*
 * Finds the string value of `key` in a flat JSON object of strings, e.g. {"url": "http://x"}.
 * Returns a new string (the caller frees it), or NULL when absent. *malformed is set when the
 * text is not a JSON object. Escapes other than \" and \\ are not needed for URLs and are refused.
 */
static char *settings_string(const char *json, const char *key, int *malformed)
{
    const char *p = json;
    size_t key_length = strlen(key);
    const char *end;
    *malformed = 0;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
        p++;
    }
    end = json + strlen(json);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r')) {
        end--;
    }
    if (*p != '{' || end == p || end[-1] != '}') {
        *malformed = 1;
        return NULL;
    }
    for (; p < end; p++) {
        if (*p == '"' && (size_t)(end - p) > key_length + 1 && strncmp(p + 1, key, key_length) == 0 && p[key_length + 1] == '"') {
            const char *q = p + key_length + 2;
            char *value;
            size_t n = 0;
            while (q < end && (*q == ' ' || *q == ':')) {
                q++;
            }
            if (q >= end || *q != '"') {
                *malformed = 1;
                return NULL;
            }
            q++;
            value = malloc((size_t)(end - q) + 1);
            if (value == NULL) {
                return NULL;
            }
            while (q < end && *q != '"') {
                if (*q == '\\' && q + 1 < end && (q[1] == '"' || q[1] == '\\' || q[1] == '/')) {
                    q++;
                } else if (*q == '\\') {
                    free(value);
                    *malformed = 1;
                    return NULL;
                }
                value[n++] = *q++;
            }
            value[n] = '\0';
            return value;
        }
    }
    return NULL;
}

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
    int malformed = 0;
    char *url;
    if (out == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no place for the connection");
    }
    *out = NULL;
    if (service == NULL || strcmp(service, "tsv-list") != 0) {
        return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "this connector speaks only the service tsv-list");
    }
    url = settings_string(settings_json != NULL ? settings_json : "{}", "url", &malformed);
    if (malformed) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the settings are not a JSON object of strings");
    }
    if (url == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "url", "the setting url (the list's http address) is required");
    }
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        free(url);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "url", "the setting url must be an http(s) address");
    }
    *out = malloc(sizeof **out);
    if (*out == NULL) {
        free(url);
        return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory");
    }
    (*out)->url = url;
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

static shelf_status write_entries(char *text, const shelf_writer *out, size_t *count)
{
    shelf_status s = shelf_write_string(out, "{\"shelves\":[],\"entries\":[");
    char *line = text;
    *count = 0;
    while (s == SHELF_OK && line != NULL && *line != '\0') {
        char *next = strchr(line, '\n');
        char *fields[6] = { 0 };
        size_t n;
        if (next != NULL) {
            *next++ = '\0';
        }
        if (*line != '\0' && line[strlen(line) - 1] == '\r') {
            line[strlen(line) - 1] = '\0';
        }
        if (*line == '#' || *line == '\0') {
            line = next;
            continue;
        }
        n = split_tabs(line, fields, 6);
        if (n < 4 || fields[1][0] == '\0') {
            line = next;
            continue;
        }
        if (*count > 0) {
            s = shelf_write_string(out, ",");
        }
        if (s == SHELF_OK) s = shelf_write_string(out, "{\"identifiers\":{");
        if (s == SHELF_OK && is_isbn(fields[0])) {
            s = shelf_write_string(out, strlen(fields[0]) == 13 ? "\"isbn13\":" : "\"isbn10\":");
            if (s == SHELF_OK) s = write_json_string(out, fields[0], strlen(fields[0]));
        }
        if (s == SHELF_OK) s = shelf_write_string(out, "},\"title\":");
        if (s == SHELF_OK) s = write_json_string(out, fields[1], strlen(fields[1]));
        if (s == SHELF_OK) s = shelf_write_string(out, ",\"authors\":[");
        if (s == SHELF_OK && fields[2][0] != '\0') s = write_json_string(out, fields[2], strlen(fields[2]));
        if (s == SHELF_OK) s = shelf_write_string(out, "],\"shelf\":");
        if (s == SHELF_OK) s = write_json_string(out, fields[3], strlen(fields[3]));
        if (s == SHELF_OK && n > 4 && fields[4][0] != '\0') {
            s = shelf_write_string(out, ",\"dateRead\":");
            if (s == SHELF_OK) s = write_json_string(out, fields[4], strlen(fields[4]));
        }
        if (s == SHELF_OK && n > 5 && fields[5][0] >= '1' && fields[5][0] <= '5' && fields[5][1] == '\0') {
            char rating[16];
            snprintf(rating, sizeof rating, ",\"rating\":%c", fields[5][0]);
            s = shelf_write_string(out, rating);
        }
        if (s == SHELF_OK) s = shelf_write_string(out, "}");
        (*count)++;
        line = next;
    }
    return s == SHELF_OK ? shelf_write_string(out, "]}") : s;
}

static shelf_status pull(shelf_connection *connection, const char *options_json, const shelf_writer *out, shelf_error *err)
{
    const shelf_host_http_v1 *http;
    const shelf_host_credentials_v1 *credentials;
    shelf_http_request request;
    buffer body = { NULL, 0, 0 }, token = { NULL, 0, 0 };
    shelf_writer body_writer, token_writer;
    char *authorization = NULL;
    const char *headers[3] = { "Accept: text/tab-separated-values", NULL, NULL };
    int32_t status = 0;
    shelf_status s;
    size_t count = 0;
    (void)options_json;
    if (connection == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no connection");
    }
    http = g_host != NULL && g_host->get_service != NULL ? g_host->get_service(g_host, SHELF_HOST_HTTP) : NULL;
    if (http == NULL || http->struct_size < sizeof *http) {
        return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this host lends no HTTP client (%s)", SHELF_HOST_HTTP);
    }
    credentials = g_host->get_service(g_host, SHELF_HOST_CREDENTIALS);
    if (credentials != NULL && credentials->struct_size >= sizeof *credentials) {
        token_writer.context = &token;
        token_writer.write = buffer_write;
        if (credentials->get(g_host, "token", &token_writer, err) == SHELF_OK && token.data != NULL) {
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
        free(token.data);
    }
    memset(&request, 0, sizeof request);
    request.struct_size = sizeof request;
    request.method = "GET";
    request.url = connection->url;
    request.headers = headers;
    body_writer.context = &body;
    body_writer.write = buffer_write;
    s = http->send(g_host, &request, &status, NULL, &body_writer, err);
    free(authorization);
    if (s != SHELF_OK) {
        free(body.data);
        return s;
    }
    if (status == 401 || status == 403) {
        free(body.data);
        return shelf_error_set(err, SHELF_E_PROTECTED, connection->url,
                               "the list refused access (%d): store a token with `shelf lists connect tsv-list --secret token`", (int)status);
    }
    if (status < 200 || status > 299) {
        free(body.data);
        return shelf_error_set(err, SHELF_E_IO, connection->url, "the list answered HTTP %d", (int)status);
    }
    s = write_entries(body.data != NULL ? body.data : (char *)"", out, &count);
    free(body.data);
    if (s != SHELF_OK) {
        return shelf_error_set(err, s, NULL, "the host stopped the output");
    }
    return SHELF_OK;
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

static const shelf_readinglist_v1 readinglist = {
    sizeof(shelf_readinglist_v1), describe, connect, pull, push, authorize_begin, authorize_complete, disconnect,
};

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
