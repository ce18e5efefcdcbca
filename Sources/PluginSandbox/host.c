/* The child's side of the host services: what the plugin calls on its shelf_host goes to shelf over the channel.
 * Log and progress lines go unanswered; cancellation is a message shelf sends during the call, looked for without
 * waiting, so is_cancelled stays cheap enough to poll in loops (plugin.h); HTTP and credentials wait for shelf's
 * answer, which shelf gives with the plugin's own rights (its own credentials, the host's HTTP client, the
 * companion files of the book it was handed). */
#define _GNU_SOURCE
#include "sandbox.h"

#include <stdlib.h>

static int cancelled;
static char *plugin_path;

void host_services_new_call(void) { cancelled = 0; }

void host_services_plugin_path(const char *path)
{
    free(plugin_path);
    plugin_path = realpath(path, NULL);
    if (plugin_path == NULL) plugin_path = strdup(path);
}

static void take_pending_cancel(void)
{
    while (!cancelled && shelf_channel_wait(channel, 0) == 1) {
        shelf_message m;
        if (shelf_channel_receive(channel, &m) != 0) exit(0);  /* shelf is gone */
        if (m.op == SHELF_OP_CANCEL) cancelled = 1;
        shelf_message_free(&m);
    }
}

/* Sends a service request and waits for its answer (a cancellation may come first). */
static int ask(uint32_t op, uint32_t count, const void *const *fields, const uint32_t *lengths, shelf_message *answer)
{
    if (shelf_channel_send(channel, op, count, fields, lengths) != 0) exit(0);
    for (;;) {
        if (shelf_channel_receive(channel, answer) != 0) exit(0);
        if (answer->op == SHELF_OP_REPLY) return 0;
        if (answer->op == SHELF_OP_CANCEL) cancelled = 1;
        shelf_message_free(answer);
    }
}

/* Copies a service answer's status and error into the plugin's error. */
static shelf_status answered(const shelf_message *answer, shelf_error *err)
{
    shelf_status status = (shelf_status)shelf_message_int(answer, 0);
    if (status != SHELF_OK && err != NULL) {
        snprintf(err->message, sizeof err->message, "%s", shelf_message_string(answer, 1) ? shelf_message_string(answer, 1) : "");
        snprintf(err->location, sizeof err->location, "%s", shelf_message_string(answer, 2) ? shelf_message_string(answer, 2) : "");
        err->status = status;
    }
    return status;
}

static void host_log(const shelf_host *host, int32_t level, const char *message)
{
    int64_t l = level;
    const void *fields[2] = { &l, message ? message : "" };
    uint32_t lengths[2] = { sizeof l, message ? (uint32_t)strnlen(message, 4096) : 0 };
    (void)host;
    if (shelf_channel_send(channel, SHELF_OP_LOG, 2, fields, lengths) != 0) exit(0);
}

static shelf_status host_progress(const shelf_host *host, double fraction, const char *label)
{
    const void *fields[2] = { &fraction, label };
    uint32_t lengths[2] = { sizeof fraction, label ? (uint32_t)strnlen(label, 512) : 0 };
    (void)host;
    if (shelf_channel_send(channel, SHELF_OP_PROGRESS, 2, fields, lengths) != 0) exit(0);
    take_pending_cancel();
    return cancelled ? SHELF_E_CANCELLED : SHELF_OK;
}

static int32_t host_is_cancelled(const shelf_host *host)
{
    (void)host;
    take_pending_cancel();
    return cancelled;
}

/* HTTP: [method, url, headers ("Name: value\n"...), body, flags, timeout ms] -> [status, message, location,
 * HTTP status, response headers, body]. */
static shelf_status http_send(const shelf_host *host, const shelf_http_request *request, int32_t *status,
                              const shelf_writer *headers, const shelf_writer *body, shelf_error *err)
{
    output joined = {0};
    shelf_writer w = output_writer(&joined);
    shelf_message answer;
    shelf_status result;
    int64_t flags, timeout;
    size_t i;
    const void *fields[6];
    uint32_t lengths[6];
    (void)host;
    if (request == NULL || request->method == NULL || request->url == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "an HTTP request needs a method and a URL");
    }
    for (i = 0; request->headers && request->headers[i] && i < 256; i++) {
        w.write(w.context, request->headers[i], strlen(request->headers[i]));
        w.write(w.context, "\n", 1);
    }
    flags = request->flags;
    timeout = request->timeout_ms;
    fields[0] = request->method; lengths[0] = (uint32_t)strlen(request->method);
    fields[1] = request->url; lengths[1] = (uint32_t)strlen(request->url);
    fields[2] = joined.data ? (const void *)joined.data : ""; lengths[2] = (uint32_t)joined.size;
    fields[3] = request->body ? request->body : ""; lengths[3] = request->body ? (uint32_t)request->body_size : 0;
    fields[4] = &flags; lengths[4] = sizeof flags;
    fields[5] = &timeout; lengths[5] = sizeof timeout;
    ask(SHELF_OP_HTTP, 6, fields, lengths, &answer);
    output_free(&joined);
    result = answered(&answer, err);
    if (result == SHELF_OK) {
        *status = (int32_t)shelf_message_int(&answer, 3);
        if (headers && answer.length[4]) result = headers->write(headers->context, answer.field[4], answer.length[4]);
        if (result == SHELF_OK && answer.length[5]) result = body->write(body->context, answer.field[5], answer.length[5]);
        if (result != SHELF_OK) shelf_error_set(err, result, NULL, "the response could not be taken");
    }
    shelf_message_free(&answer);
    return result;
}

static shelf_status credential(uint32_t op, const char *key, const char *value, const shelf_writer *out, shelf_error *err)
{
    const void *fields[2] = { key, value };
    uint32_t lengths[2] = { key ? (uint32_t)strlen(key) : 0, value ? (uint32_t)strlen(value) : 0 };
    shelf_message answer;
    shelf_status result;
    ask(op, op == SHELF_OP_CREDENTIAL_SET ? 2 : 1, fields, lengths, &answer);
    result = answered(&answer, err);
    if (result == SHELF_OK && out != NULL) result = out->write(out->context, answer.field[3] ? answer.field[3] : (const uint8_t *)"", answer.length[3]);
    shelf_message_free(&answer);
    return result;
}

static shelf_status credential_get(const shelf_host *host, const char *key, const shelf_writer *out, shelf_error *err)
{
    (void)host;
    return credential(SHELF_OP_CREDENTIAL_GET, key, NULL, out, err);
}

static shelf_status credential_set(const shelf_host *host, const char *key, const char *value, shelf_error *err)
{
    (void)host;
    return credential(SHELF_OP_CREDENTIAL_SET, key, value, NULL, err);
}

static shelf_status credential_remove(const shelf_host *host, const char *key, shelf_error *err)
{
    (void)host;
    return credential(SHELF_OP_CREDENTIAL_REMOVE, key, NULL, NULL, err);
}

/* Companion files (files.h): shelf opens the file, if it is the book's business, and passes the descriptor. */
static shelf_status open_companion(const shelf_host *host, const char *book_path, const char *relative, int *fd, shelf_error *err)
{
    const void *fields[2] = { book_path, relative };
    uint32_t lengths[2];
    shelf_message answer;
    shelf_status result;
    (void)host;
    if (fd == NULL) return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "open_companion needs somewhere to put the descriptor");
    *fd = -1;
    if (book_path == NULL || relative == NULL) return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "open_companion needs a book and a path");
    lengths[0] = (uint32_t)strlen(book_path);
    lengths[1] = (uint32_t)strlen(relative);
    ask(SHELF_OP_COMPANION, 2, fields, lengths, &answer);
    result = answered(&answer, err);
    shelf_message_free(&answer);
    if (result == SHELF_OK) {
        *fd = shelf_channel_receive_fd(channel);
        if (*fd < 0) exit(0);  /* the channel broke */
    }
    return result;
}

static const shelf_host_files_v1 files = { sizeof(shelf_host_files_v1), open_companion };
static const shelf_host_http_v1 http = { sizeof(shelf_host_http_v1), http_send };
static const shelf_host_credentials_v1 credentials = {
    sizeof(shelf_host_credentials_v1), credential_get, credential_set, credential_remove
};

static const void *get_service(const shelf_host *host, const char *id)
{
    (void)host;
    if (id == NULL) return NULL;
    if (strcmp(id, SHELF_HOST_HTTP) == 0) return &http;
    if (strcmp(id, SHELF_HOST_CREDENTIALS) == 0) return &credentials;
    if (strcmp(id, SHELF_HOST_FILES) == 0) return &files;
    return NULL;
}

const shelf_host *host_services(const char *data_dir, const char *cache_dir, const char *host_version)
{
    static shelf_host host;
    host.struct_size = sizeof host;
    host.abi_major = SHELF_ABI_MAJOR;
    host.abi_minor = SHELF_ABI_MINOR;
    host.host_name = "shelf";
    host.host_version = strdup(host_version ? host_version : "");
    host.log = host_log;
    host.data_dir = strdup(data_dir ? data_dir : "");
    host.cache_dir = strdup(cache_dir ? cache_dir : "");
    host.progress = host_progress;
    host.is_cancelled = host_is_cancelled;
    host.get_service = get_service;
    host.plugin_path = plugin_path;
    return &host;
}
