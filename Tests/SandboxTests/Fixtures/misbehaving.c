/* Test fixture for shelf's out-of-process plugins (SandboxTests): a format and reading-list plugin that
 * misbehaves as its input says. A book is a text file whose first line is
 *     MISBEHAVE <crash|crashonce|exit|hang|silent|flood|empty|none> <call>
 * (call: probe, open, manifest, render, search, positions; silent: render or search fails with SHELF_E_BAD_DATA and
 * no message; flood: search writes until the host refuses, then returns SHELF_OK as if its answer were whole; empty: manifest
 * has an empty readingOrder; crashonce: crashes the first time only, as a marker in its data folder remembers)
 * and whose other lines are its text, except lines
 *     SNOOP <path>
 * naming files the plugin tries to read when it opens the book, as a stranger's plugin might: the outcome of each
 * attempt, of a socket() and of a write to its own data folder goes into the manifest's "description". The
 * reading-list side ("misbehaving-list") does to `pull` what its connection setting "pull" says, and pulls the first
 * line of the file its setting "list" (a "file" setting) names as a title.
 * Never install it. SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <shelf/shelf.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

struct shelf_publication {
    char action[16], call[16];
    char *text;
    char report[2048];
};

static const shelf_host *host;

/* Whether this is the first crashonce: its marker in the plugin's data folder is made now. */
static int first_time(void)
{
    char path[4096];
    int fd;
    snprintf(path, sizeof path, "%s/crashed-once", host->data_dir);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

static void misbehave(const char *action)
{
    if (strcmp(action, "crash") == 0 || (strcmp(action, "crashonce") == 0 && first_time())) {
        volatile int *volatile nowhere = NULL;
        *nowhere = 42;
    } else if (strcmp(action, "exit") == 0) {
        exit(3);
    } else if (strcmp(action, "hang") == 0) {
        for (;;) pause();
    }
}

static void maybe(const struct shelf_publication *p, const char *call)
{
    if (strcmp(p->call, call) == 0) misbehave(p->action);
}

/* A failure without a word: the status alone, the shelf_error left as the host passed it. */
static int silent(const struct shelf_publication *p, const char *call)
{
    return strcmp(p->call, call) == 0 && strcmp(p->action, "silent") == 0;
}

/* Reads the header line of the file at `path` into action and call. */
static int header(const char *path, char *action, char *call)
{
    char line[256];
    FILE *f = fopen(path, "r");
    int ok;
    if (f == NULL) return 0;
    ok = fgets(line, sizeof line, f) != NULL && sscanf(line, "MISBEHAVE %15s %15s", action, call) == 2;
    fclose(f);
    return ok;
}

static shelf_status probe(const shelf_input *input, int32_t *confidence)
{
    char action[16], call[16];
    *confidence = SHELF_PROBE_NONE;
    if (input->head_size < 10 || memcmp(input->head, "MISBEHAVE ", 10) != 0) return SHELF_OK;
    if (header(input->path, action, call) && strcmp(call, "probe") == 0) misbehave(action);
    *confidence = SHELF_PROBE_CERTAIN;
    return SHELF_OK;
}

static void attempt(struct shelf_publication *p, const char *what, int fd)
{
    size_t used = strlen(p->report);
    if (fd >= 0) {
        char byte;
        ssize_t n = read(fd, &byte, 1);
        snprintf(p->report + used, sizeof p->report - used, "%s: OPENED%s\n", what, n >= 0 ? " and read" : "");
        close(fd);
    } else {
        snprintf(p->report + used, sizeof p->report - used, "%s: refused (%s)\n", what, strerror(errno));
    }
}

static shelf_status open_book(const shelf_input *input, const char *options, shelf_publication **out, shelf_error *err)
{
    struct shelf_publication *p = calloc(1, sizeof *p);
    FILE *f = fopen(input->path, "r");
    char line[1024];
    size_t size = 0;
    (void)options;
    if (p == NULL || f == NULL) {
        free(p);
        if (f) fclose(f);
        return shelf_error_set(err, SHELF_E_IO, NULL, "cannot read %s", input->path);
    }
    p->text = calloc(1, 1);
    while (fgets(line, sizeof line, f)) {
        char target[1024];
        if (size == 0 && p->action[0] == 0 && sscanf(line, "MISBEHAVE %15s %15s", p->action, p->call) == 2) continue;
        if (sscanf(line, "SNOOP %1023s", target) == 1) {
            attempt(p, target, open(target, O_RDONLY | O_CLOEXEC));
            continue;
        }
        p->text = realloc(p->text, size + strlen(line) + 1);
        memcpy(p->text + size, line, strlen(line) + 1);
        size += strlen(line);
    }
    fclose(f);
    if (strstr(p->text, "SNOOPING") || p->report[0]) {
        char path[4096];
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        attempt(p, "socket(AF_INET)", fd >= 0 ? open("/dev/null", O_RDONLY) : -1);
        if (fd >= 0) close(fd);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        attempt(p, "socket(AF_UNIX)", fd >= 0 ? open("/dev/null", O_RDONLY) : -1);
        if (fd >= 0) close(fd);
        /* landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION): the kernel's Landlock ABI, or -1. */
        {
            size_t used = strlen(p->report);
            snprintf(p->report + used, sizeof p->report - used, "landlock ABI: %ld\n", (long)syscall(444, NULL, 0, 1UL));
        }
        snprintf(path, sizeof path, "%s/notes.txt", host->data_dir);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        attempt(p, "own data folder", fd >= 0 ? open("/dev/null", O_RDONLY) : -1);
        if (fd >= 0) close(fd);
    }
    maybe(p, "open");
    *out = p;
    return SHELF_OK;
}

/* Writes `text` as a JSON string's contents. */
static void json_text(const shelf_writer *out, const char *text)
{
    for (; *text; text++) {
        char escaped[8];
        if (*text == '"' || *text == '\\') { snprintf(escaped, sizeof escaped, "\\%c", *text); shelf_write_string(out, escaped); }
        else if ((unsigned char)*text < 0x20) { snprintf(escaped, sizeof escaped, "\\u%04x", *text); shelf_write_string(out, escaped); }
        else out->write(out->context, text, 1);
    }
}

static shelf_status manifest(shelf_publication *p, const shelf_writer *out, shelf_error *err)
{
    (void)err;
    maybe(p, "manifest");
    shelf_write_string(out, "{\"metadata\":{\"title\":\"A misbehaving book\",\"description\":\"");
    json_text(out, p->report);
    if (strcmp(p->call, "manifest") == 0 && strcmp(p->action, "empty") == 0) return shelf_write_string(out, "\"},\"links\":[],\"readingOrder\":[]}");
    shelf_write_string(out, "\"},\"links\":[],\"readingOrder\":[{\"href\":\"text\",\"type\":\"text/plain\",\"title\":\"The text\"}]}");
    return SHELF_OK;
}

static shelf_status resource(shelf_publication *p, const char *href, const shelf_writer *out, shelf_error *err)
{
    if (strcmp(href, "text") != 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, href, "no such resource");
    return shelf_write_string(out, p->text);
}

static void close_book(shelf_publication *p)
{
    free(p->text);
    free(p);
}

static const char *const locator = "{\"href\":\"text\",\"type\":\"text/plain\",\"title\":\"The text\",\"locations\":{\"position\":1,\"progression\":0,\"totalProgression\":0}}";

static shelf_status render(shelf_publication *p, const char *at, const char *settings, const shelf_writer *content,
                           const shelf_writer *where, shelf_error *err)
{
    (void)at; (void)settings; (void)err;
    maybe(p, "render");
    if (silent(p, "render")) return SHELF_E_BAD_DATA;
    shelf_write_string(content, p->text);
    return shelf_write_string(where, locator);
}

static shelf_status positions(shelf_publication *p, const shelf_writer *out, shelf_error *err)
{
    (void)err;
    maybe(p, "positions");
    shelf_write_string(out, "[");
    shelf_write_string(out, locator);
    return shelf_write_string(out, "]");
}

static shelf_status locate(shelf_publication *p, const char *at, const shelf_writer *out, shelf_error *err)
{
    (void)p; (void)at; (void)err;
    return shelf_write_string(out, locator);
}

static shelf_status search(shelf_publication *p, const char *query, const shelf_writer *out, shelf_error *err)
{
    (void)query; (void)err;
    maybe(p, "search");
    if (silent(p, "search")) return SHELF_E_BAD_DATA;
    if (strcmp(p->call, "search") == 0 && strcmp(p->action, "flood") == 0) {
        static const char nothing[16 << 20];    /* never written: the zero page, no memory of its own */
        shelf_write_string(out, "[\"");
        while (out->write(out->context, nothing, sizeof nothing) == SHELF_OK) continue;
        return SHELF_OK;
    }
    return shelf_write_string(out, "[]");
}

static const shelf_format_v1 format = { sizeof format, probe, open_book, manifest, resource, close_book };
static const shelf_render_v1 render_table = { sizeof render_table, render };
static const shelf_positions_v1 positions_table = { sizeof positions_table, positions, locate };
static const shelf_search_v1 search_table = { sizeof search_table, search };

/* ----- the reading-list side ----- */

struct shelf_connection {
    char pull[16];
    char list[1024];    /* the "list" setting, a file: its first line is the title pulled */
};

static shelf_status describe(const char *service, const shelf_writer *out, shelf_error *err)
{
    if (strcmp(service, "misbehaving-list") != 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "no service %s", service);
    return shelf_write_string(out, "{\"service\":\"misbehaving-list\",\"name\":\"Misbehaving list\",\"pull\":true,"
                                   "\"pushRead\":false,\"pushToRead\":false,\"authorization\":\"none\","
                                   "\"settings\":[{\"key\":\"pull\",\"label\":\"What pull does\",\"required\":false,\"secret\":false},"
                                   "{\"key\":\"list\",\"label\":\"A list file\",\"required\":false,\"type\":\"file\"}]}");
}

static shelf_status connect_list(const char *service, const char *settings, shelf_connection **out, shelf_error *err)
{
    struct shelf_connection *c = calloc(1, sizeof *c);
    const char *at = settings ? strstr(settings, "\"pull\"") : NULL;
    (void)service; (void)err;
    /* Whitespace in a scanf format matches any amount, none included. */
    if (at && sscanf(at, "\"pull\" : \"%15[a-z]\"", c->pull) != 1) c->pull[0] = 0;
    at = settings ? strstr(settings, "\"list\"") : NULL;
    if (at && sscanf(at, "\"list\" : \"%1023[^\"]\"", c->list) != 1) c->list[0] = 0;
    *out = c;
    return SHELF_OK;
}

static shelf_status pull(shelf_connection *c, const char *options, const shelf_writer *out, shelf_error *err)
{
    char title[128] = "Pippi Longstocking";
    (void)options;
    misbehave(c->pull);
    if (c->list[0]) {
        FILE *f = fopen(c->list, "r");
        if (f == NULL) return shelf_error_set(err, SHELF_E_IO, c->list, "cannot read %s: %s", c->list, strerror(errno));
        if (fgets(title, sizeof title, f) == NULL) title[0] = 0;
        title[strcspn(title, "\"\\\n")] = 0;
        fclose(f);
    }
    shelf_write_string(out, "{\"shelves\":[{\"id\":\"to-read\",\"name\":\"to-read\",\"count\":1}],\"entries\":[{\"title\":\"");
    shelf_write_string(out, title);
    return shelf_write_string(out, "\",\"authors\":[\"Astrid Lindgren\"],\"shelf\":\"to-read\",\"identifiers\":{\"isbn13\":\"9780142402498\"}}]}");
}

static shelf_status push(shelf_connection *c, const char *entries, const shelf_writer *out, shelf_error *err)
{
    (void)c; (void)entries; (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this list cannot be written");
}

static shelf_status authorize_begin(shelf_connection *c, const char *options, const shelf_writer *out, shelf_error *err)
{
    (void)c; (void)options; (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "no sign-in");
}

static shelf_status authorize_complete(shelf_connection *c, const char *callback, shelf_error *err)
{
    (void)c; (void)callback;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "no sign-in");
}

static void disconnect(shelf_connection *c) { free(c); }

static const shelf_readinglist_v1 list_table = {
    sizeof list_table, describe, connect_list, pull, push, authorize_begin, authorize_complete, disconnect
};

static const void *get_extension(const char *id)
{
    if (strcmp(id, SHELF_EXT_FORMAT) == 0) return &format;
    if (strcmp(id, SHELF_EXT_RENDER) == 0) return &render_table;
    if (strcmp(id, SHELF_EXT_POSITIONS) == 0) return &positions_table;
    if (strcmp(id, SHELF_EXT_SEARCH) == 0) return &search_table;
    if (strcmp(id, SHELF_EXT_READINGLIST) == 0) return &list_table;
    return NULL;
}

static shelf_status init(const shelf_host *h, shelf_error *err)
{
    (void)err;
    host = h;
    return SHELF_OK;
}

static const char *const media_types[] = { "text/x-shelf-misbehaving", NULL };
static const char *const extensions[] = { "misbehave", NULL };
static const char *const services[] = { "misbehaving-list", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.misbehaving", "Misbehaving", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: crashes, exits, hangs or snoops as its input says.",
    0, media_types, extensions, services, init, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
