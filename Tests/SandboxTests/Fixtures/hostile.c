/* Test fixture for shelf's confinement (SandboxTests/HostilePluginTests): a plugin written as an attacker would,
 * from the public headers only, built once per attack with -DATTACK_<NAME> (and, for the run path attack, linked
 * with -Wl,-rpath,/). It is a format plugin for "*.hostile" books and a connector for the service "hostile-list".
 * A book is a text file that begins "HOSTILE", then of lines "KEY value" that tell the attack where to aim (READ <path>, UDP <port>,
 * UNIX <path>, ABSTRACT <name>, MARK <path>, COMPANION <relative path>, FORGE <book> <relative path>), and the
 * rest is text. The attack runs when the book
 * is opened (the connector's in `pull`); what it achieved goes into the manifest's "description", one line each:
 *     <what>: refused (<why>)         or         <what>: SUCCEEDED [<what it got>]
 * so the tests read what the plugin could do, and the listeners the tests run say what reached them.
 * Never install it. SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <shelf/shelf.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct shelf_publication {
    char *text;
    char path[4096];
    char report[8192];
};

static const shelf_host *host;

static void say(char *report, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void say(char *report, const char *format, ...)
{
    size_t used = strlen(report);
    va_list args;
    va_start(args, format);
    vsnprintf(report + used, 8192 - used, format, args);
    va_end(args);
}

static void outcome(char *report, const char *what, int ok, const char *got)
{
    if (ok) say(report, "%s: SUCCEEDED%s%s\n", what, got ? " " : "", got ? got : "");
    else say(report, "%s: refused (%s)\n", what, strerror(errno));
}

/* The value of the first line "KEY value" of the book, or NULL. */
static const char *aim(const char *text, const char *key, char *value, size_t size)
{
    const char *line = text;
    size_t n = strlen(key);
    while (line && *line) {
        if (strncmp(line, key, n) == 0 && line[n] == ' ') {
            const char *end = strchr(line, '\n');
            size_t length = end ? (size_t)(end - line - n - 1) : strlen(line + n + 1);
            if (length >= size) length = size - 1;
            memcpy(value, line + n + 1, length);
            value[length] = 0;
            return value;
        }
        line = strchr(line, '\n');
        if (line) line++;
    }
    return NULL;
}

/* ----- io_uring without liburing: one ring, one request at a time ----- */

struct ring {
    int fd;
    unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
};

static int ring_open(struct ring *r)
{
    struct io_uring_params p;
    uint8_t *sq, *cq;
    size_t sq_size, cq_size;
    memset(&p, 0, sizeof p);
    r->fd = (int)syscall(__NR_io_uring_setup, 4, &p);
    if (r->fd < 0) return -1;
    sq_size = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (p.features & IORING_FEAT_SINGLE_MMAP) sq_size = cq_size = sq_size > cq_size ? sq_size : cq_size;
    sq = mmap(NULL, sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
    if (sq == MAP_FAILED) return -1;
    cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq
         : mmap(NULL, cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
    if (cq == MAP_FAILED) return -1;
    r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                   r->fd, IORING_OFF_SQES);
    if (r->sqes == MAP_FAILED) return -1;
    r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
    r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
    r->sq_array = (unsigned *)(sq + p.sq_off.array);
    r->cq_head = (unsigned *)(cq + p.cq_off.head);
    r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
    r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
    return 0;
}

/* Submits one request and returns its result (a descriptor, a count, or -errno). */
static int ring_do(struct ring *r, const struct io_uring_sqe *request)
{
    unsigned tail = *r->sq_tail, index = tail & *r->sq_mask, head;
    int result;
    r->sqes[index] = *request;
    r->sq_array[index] = index;
    __atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
    if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) return -errno;
    head = *r->cq_head;
    if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) return -EAGAIN;
    result = r->cqes[head & *r->cq_mask].res;
    __atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
    return result;
}

static int ring_socket(struct ring *r, int domain, int type)
{
    struct io_uring_sqe q;
    memset(&q, 0, sizeof q);
    q.opcode = IORING_OP_SOCKET;
    q.fd = domain;
    q.off = (uint64_t)type;
    return ring_do(r, &q);
}

static int ring_connect(struct ring *r, int fd, const void *address, socklen_t size)
{
    struct io_uring_sqe q;
    memset(&q, 0, sizeof q);
    q.opcode = IORING_OP_CONNECT;
    q.fd = fd;
    q.addr = (uint64_t)(uintptr_t)address;
    q.off = size;
    return ring_do(r, &q);
}

static int ring_send(struct ring *r, int fd, const char *text)
{
    struct io_uring_sqe q;
    memset(&q, 0, sizeof q);
    q.opcode = IORING_OP_SEND;
    q.fd = fd;
    q.addr = (uint64_t)(uintptr_t)text;
    q.len = (uint32_t)strlen(text);
    return ring_do(r, &q);
}

/* Outcome of an io_uring step: a negative result is the refusal's errno. */
static int ring_ok(int result)
{
    if (result < 0) errno = -result;
    return result >= 0;
}

/* ----- the attacks ----- */

/* Each COMPANION line: a file asked of the host as the book's companion (files.h); each FORGE line "<book> <path>":
 * the same, naming a book the plugin was not handed. What was read is reported as for READ. */
static void companions(struct shelf_publication *p)
{
    const shelf_host_files_v1 *files = host->get_service(host, SHELF_HOST_FILES);
    const char *line = p->text;
    while (line && *line) {
        char book[1024], relative[1024], what[2200], got[64] = "";
        int forged = sscanf(line, "FORGE %1023s %1023s", book, relative) == 2, fd = -1, n;
        if (forged || sscanf(line, "COMPANION %1023s", relative) == 1) {
            shelf_error err;
            memset(&err, 0, sizeof err);
            snprintf(what, sizeof what, "companion %s%s%s", relative, forged ? " of " : "", forged ? book : "");
            if (files == NULL) errno = ENOSYS;
            else if (files->open_companion(host, forged ? book : p->path, relative, &fd, &err) != SHELF_OK) errno = EACCES;
            if (fd >= 0) {
                n = (int)read(fd, got + 1, 40);
                if (n < 0) n = 0;
                got[0] = '[';
                for (int i = 1; i <= n; i++) if ((unsigned char)got[i] < 0x20 || got[i] == '"' || got[i] == '\\') got[i] = '.';
                got[n + 1] = ']';
                got[n + 2] = 0;
                close(fd);
            }
            outcome(p->report, what, fd >= 0, got);
        }
        line = strchr(line, '\n');
        if (line) line++;
    }
}

/* Each READ line: a file that is not the plugin's business (credentials, the database, ~/.ssh, another book). */
static void read_files(struct shelf_publication *p)
{
    const char *line = p->text;
    while ((line = strstr(line, "READ ")) != NULL) {
        char path[1024], got[64] = "";
        int fd, n = 0;
        if (sscanf(line, "READ %1023s", path) == 1) {
            fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                n = (int)read(fd, got + 1, 40);
                got[0] = '[';
                if (n < 0) n = 0;
                got[n + 1] = ']';
                got[n + 2] = 0;
                for (int i = 1; i <= n; i++) if ((unsigned char)got[i] < 0x20 || got[i] == '"' || got[i] == '\\') got[i] = '.';
                close(fd);
            }
            char what[1100];
            snprintf(what, sizeof what, "read %s", path);
            outcome(p->report, what, fd >= 0, got);
        }
        line += 5;
    }
}

static void udp_through_io_uring(struct shelf_publication *p)
{
    char port[16];
    struct ring r;
    struct sockaddr_in to;
    int fd;
    if (ring_open(&r) != 0) { outcome(p->report, "io_uring", 0, NULL); return; }
    fd = ring_socket(&r, AF_INET, SOCK_DGRAM);
    if (!ring_ok(fd)) { outcome(p->report, "io_uring UDP socket", 0, NULL); return; }
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((uint16_t)atoi(aim(p->text, "UDP", port, sizeof port) ? port : "9"));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (!ring_ok(ring_connect(&r, fd, &to, sizeof to))) { outcome(p->report, "io_uring UDP connect", 0, NULL); return; }
    outcome(p->report, "io_uring UDP send", ring_ok(ring_send(&r, fd, "the library password is hunter2")), NULL);
}

/* A unix socket by path (UNIX) or in the abstract namespace (ABSTRACT), by socket() and through io_uring. */
static void unix_sockets(struct shelf_publication *p)
{
    const char *kinds[2] = { "UNIX", "ABSTRACT" };
    for (int k = 0; k < 2; k++) {
        char name[108], what[64];
        struct sockaddr_un to;
        socklen_t size;
        struct ring r;
        int fd;
        if (aim(p->text, kinds[k], name, sizeof name) == NULL) continue;
        memset(&to, 0, sizeof to);
        to.sun_family = AF_UNIX;
        if (k == 0) {
            snprintf(to.sun_path, sizeof to.sun_path, "%s", name);
            size = sizeof to;
        } else {
            memcpy(to.sun_path + 1, name, strnlen(name, sizeof to.sun_path - 2));
            size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
        }
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        snprintf(what, sizeof what, "%s socket() connect", kinds[k]);
        if (fd < 0) outcome(p->report, what, 0, NULL);
        else {
            int ok = connect(fd, (struct sockaddr *)&to, size) == 0;
            outcome(p->report, what, ok && send(fd, "hunter2", 7, MSG_NOSIGNAL) == 7, NULL);
            close(fd);
        }
        snprintf(what, sizeof what, "%s io_uring connect", kinds[k]);
        if (ring_open(&r) != 0) { outcome(p->report, what, 0, NULL); continue; }
        fd = ring_socket(&r, AF_UNIX, SOCK_STREAM);
        if (!ring_ok(fd)) { outcome(p->report, what, 0, NULL); continue; }
        if (!ring_ok(ring_connect(&r, fd, &to, size))) { outcome(p->report, what, 0, NULL); continue; }
        outcome(p->report, what, ring_ok(ring_send(&r, fd, "hunter2")), NULL);
    }
}

static void socket_pair(struct shelf_publication *p)
{
    int fds[2];
    int ok = socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0;
    outcome(p->report, "socketpair", ok, NULL);
    if (ok) { close(fds[0]); close(fds[1]); }
}

/* A grandchild that outlives shelf: it writes its pid to MARK (default: the plugin's data folder), then stays. */
static void double_fork(struct shelf_publication *p)
{
    char mark[1024];
    pid_t child;
    if (aim(p->text, "MARK", mark, sizeof mark) == NULL) snprintf(mark, sizeof mark, "%s/mark", host->data_dir);
    child = fork();
    if (child < 0) { outcome(p->report, "fork", 0, NULL); return; }
    if (child == 0) {
        setsid();
        if (fork() == 0) {
            FILE *f = fopen(mark, "w");
            if (f) { fprintf(f, "%ld\n", (long)getpid()); fclose(f); }
            for (int i = 0; i < 600; i++) sleep(1);
        }
        _exit(0);
    }
    waitpid(child, NULL, 0);
    outcome(p->report, "fork", 1, NULL);
}

static void exec_program(struct shelf_publication *p)
{
    char mark[1024], command[1200];
    pid_t child;
    int status = -1;
    if (aim(p->text, "MARK", mark, sizeof mark) == NULL) snprintf(mark, sizeof mark, "%s/mark", host->data_dir);
    snprintf(command, sizeof command, "echo ran > '%s'", mark);
    /* vfork-free: the exec is tried in this very process's child, and, should fork be refused, by the plugin's
     * own process (which then is gone: an exec that succeeds never returns). */
    child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    if (child > 0) {
        waitpid(child, &status, 0);
        errno = EPERM;
        outcome(p->report, "exec in a child", WIFEXITED(status) && WEXITSTATUS(status) == 0, NULL);
        return;
    }
    outcome(p->report, "fork for exec", 0, NULL);
    {
        char *argv[] = { "sh", "-c", command, NULL };
        syscall(__NR_execve, "/bin/sh", argv, environ);
        outcome(p->report, "exec", 0, NULL);
    }
}

static void allocate(struct shelf_publication *p)
{
    size_t size = (size_t)8 << 30;
    char *memory = malloc(size);
    if (memory) {
        /* One byte a page of the first 64 MiB: the memory is really had, not only promised. */
        for (size_t i = 0; i < ((size_t)64 << 20); i += 4096) memory[i] = 1;
    }
    outcome(p->report, "8 GiB allocation", memory != NULL, NULL);
    free(memory);
}

/* Progress forever, never looking at what progress answers. */
static void endless_progress(void)
{
    for (;;) {
        struct timespec pause = { 0, 20 * 1000 * 1000 };
        host->progress(host, 0.5, "still working");
        nanosleep(&pause, NULL);
    }
}

/* Every variable of the environment: a password shelf was given must not be among them. */
static void read_environment(struct shelf_publication *p)
{
    for (char **e = environ; e && *e; e++) {
        char line[512];
        snprintf(line, sizeof line, "%s", *e);
        for (char *c = line; *c; c++) if ((unsigned char)*c < 0x20 || *c == '"' || *c == '\\') *c = '.';
        say(p->report, "env %s\n", line);
    }
    outcome(p->report, "environment", 1, NULL);
}

/* Log lines that try to pass for shelf's own, with escape sequences, and many of them. */
static void forge_logs(void)
{
    host->log(host, SHELF_LOG_ERROR, "innocent\nshelf: error: your library password expired, type it again below");
    host->log(host, SHELF_LOG_ERROR, "\rshelf: sign-in needed\x1b[2K\x1b]0;owned\x07\x1b[31mred");
    host->log(host, SHELF_LOG_ERROR, "tab\there\x7f\x9b" "2J done");
    for (int i = 0; i < 5000; i++) host->log(host, SHELF_LOG_WARNING, "flood");
    {
        struct timespec pause = { 0, 300 * 1000 * 1000 };
        nanosleep(&pause, NULL);
        host->log(host, SHELF_LOG_WARNING, "after the flood");
    }
}

static shelf_status counting(void *context, const void *data, size_t size);

/* Each URL line: fetched through the host's HTTP service, which a format plugin should not have. */
static void fetch_urls(struct shelf_publication *p)
{
    const shelf_host_http_v1 *http = host->get_service(host, SHELF_HOST_HTTP);
    const char *line = p->text;
    while ((line = strstr(line, "URL ")) != NULL) {
        char url[1024], what[1100];
        if (sscanf(line, "URL %1023s", url) == 1) {
            shelf_http_request request;
            shelf_error failure;
            size_t got = 0;
            int32_t status = 0;
            shelf_writer body = { &got, counting };
            int ok;
            memset(&request, 0, sizeof request);
            memset(&failure, 0, sizeof failure);
            request.struct_size = sizeof request;
            request.method = "GET";
            request.url = url;
            snprintf(what, sizeof what, "fetch %s", url);
            ok = http != NULL && http->send(host, &request, &status, NULL, &body, &failure) == SHELF_OK;
            if (!ok) errno = EACCES;
            outcome(p->report, what, ok, NULL);
        }
        line += 4;
    }
}

/* ATTACK is the variant's name, given at build time (-DATTACK="\"udp\""). */
static void attack(struct shelf_publication *p)
{
    if (strcmp(ATTACK, "read") == 0 || strcmp(ATTACK, "rpath") == 0) read_files(p);
    else if (strcmp(ATTACK, "companion") == 0) { read_files(p); companions(p); }
    else if (strcmp(ATTACK, "http") == 0) fetch_urls(p);
    else if (strcmp(ATTACK, "udp") == 0) udp_through_io_uring(p);
    else if (strcmp(ATTACK, "unix") == 0) unix_sockets(p);
    else if (strcmp(ATTACK, "socketpair") == 0) socket_pair(p);
    else if (strcmp(ATTACK, "fork") == 0) double_fork(p);
    else if (strcmp(ATTACK, "exec") == 0) exec_program(p);
    else if (strcmp(ATTACK, "memory") == 0) allocate(p);
    else if (strcmp(ATTACK, "progress") == 0) endless_progress();
    else if (strcmp(ATTACK, "environment") == 0) read_environment(p);
    else if (strcmp(ATTACK, "log") == 0) forge_logs();
}

/* ----- the format ----- */

static shelf_status probe(const shelf_input *input, int32_t *confidence)
{
    *confidence = input->head_size >= 7 && memcmp(input->head, "HOSTILE", 7) == 0 ? SHELF_PROBE_CERTAIN : SHELF_PROBE_NONE;
    return SHELF_OK;
}

static shelf_status open_book(const shelf_input *input, const char *options, shelf_publication **out, shelf_error *err)
{
    struct shelf_publication *p = calloc(1, sizeof *p);
    FILE *f = fopen(input->path, "r");
    long size;
    (void)options;
    if (p == NULL || f == NULL) {
        free(p);
        if (f) fclose(f);
        return shelf_error_set(err, SHELF_E_IO, NULL, "cannot read %s: %s", input->path, strerror(errno));
    }
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    p->text = calloc(1, (size_t)size + 1);
    if (fread(p->text, 1, (size_t)size, f) != (size_t)size) p->text[0] = 0;
    fclose(f);
    snprintf(p->path, sizeof p->path, "%s", input->path);
    attack(p);
    *out = p;
    return SHELF_OK;
}

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
    shelf_write_string(out, "{\"metadata\":{\"title\":\"A hostile book\",\"description\":\"");
    json_text(out, p->report);
    return shelf_write_string(out, "\"},\"links\":[],\"readingOrder\":[{\"href\":\"text\",\"type\":\"text/plain\"}]}");
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

static shelf_status render(shelf_publication *p, const char *at, const char *settings, const shelf_writer *content,
                           const shelf_writer *where, shelf_error *err)
{
    (void)at; (void)settings; (void)err;
    shelf_write_string(content, p->report);
    return shelf_write_string(where, "{\"href\":\"text\",\"type\":\"text/plain\",\"locations\":{\"position\":1,\"progression\":0}}");
}

static const shelf_format_v1 format = { sizeof format, probe, open_book, manifest, resource, close_book };
static const shelf_render_v1 render_table = { sizeof render_table, render };

/* ----- the connector: its pull fetches each URL of its "fetch" setting through the host's HTTP service ----- */

struct shelf_connection {
    char fetch[2048];
};

static shelf_status describe(const char *service, const shelf_writer *out, shelf_error *err)
{
    if (strcmp(service, "hostile-list") != 0) return shelf_error_set(err, SHELF_E_NOT_FOUND, NULL, "no service %s", service);
    return shelf_write_string(out, "{\"service\":\"hostile-list\",\"name\":\"Hostile list\",\"pull\":true,\"pushRead\":false,"
                                   "\"pushToRead\":false,\"authorization\":\"none\",\"settings\":["
                                   "{\"key\":\"baseURL\",\"label\":\"service address\",\"type\":\"url\",\"default\":\"https://hostile.invalid\"},"
                                   "{\"key\":\"fetch\",\"label\":\"addresses to fetch, space-separated\"}]}");
}

static shelf_status connect_list(const char *service, const char *settings, shelf_connection **out, shelf_error *err)
{
    struct shelf_connection *c = calloc(1, sizeof *c);
    const char *at = settings ? strstr(settings, "\"fetch\"") : NULL;
    (void)service; (void)err;
    if (at && sscanf(at, "\"fetch\" : \"%2047[^\"]\"", c->fetch) != 1) c->fetch[0] = 0;
    *out = c;
    return SHELF_OK;
}

static shelf_status counting(void *context, const void *data, size_t size)
{
    (void)data;
    *(size_t *)context += size;
    return SHELF_OK;
}

static shelf_status pull(shelf_connection *c, const char *options, const shelf_writer *out, shelf_error *err)
{
    const shelf_host_http_v1 *http = host->get_service(host, SHELF_HOST_HTTP);
    char title[4096] = "", *url, *rest;
    (void)options; (void)err;
    for (url = strtok_r(c->fetch, " ", &rest); url; url = strtok_r(NULL, " ", &rest)) {
        shelf_http_request request;
        shelf_error failure;
        size_t got = 0;
        int32_t status = 0;
        shelf_writer body = { &got, counting };
        size_t used = strlen(title);
        memset(&request, 0, sizeof request);
        memset(&failure, 0, sizeof failure);
        request.struct_size = sizeof request;
        request.method = "GET";
        request.url = url;
        if (http == NULL) snprintf(title + used, sizeof title - used, "%s no-http-service; ", url);
        else if (http->send(host, &request, &status, NULL, &body, &failure) == SHELF_OK)
            snprintf(title + used, sizeof title - used, "%s answered %d; ", url, (int)status);
        else snprintf(title + used, sizeof title - used, "%s refused; ", url);
    }
    for (char *t = title; *t; t++) if (*t == '"' || *t == '\\') *t = '.';
    shelf_write_string(out, "{\"shelves\":[{\"id\":\"to-read\",\"name\":\"to-read\",\"count\":1}],\"entries\":[{\"title\":\"");
    shelf_write_string(out, title);
    return shelf_write_string(out, "\",\"authors\":[\"A. Hostile\"],\"shelf\":\"to-read\"}]}");
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
    if (strcmp(id, SHELF_EXT_READINGLIST) == 0) return &list_table;
    return NULL;
}

static shelf_status init(const shelf_host *h, shelf_error *err)
{
    (void)err;
    host = h;
    return SHELF_OK;
}

static const char *const media_types[] = { "text/x-shelf-hostile", NULL };
static const char *const extensions[] = { "hostile", NULL };
static const char *const services[] = { "hostile-list", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.hostile", "Hostile", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: attacks shelf's confinement.",
    0, media_types, extensions, services, init, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
