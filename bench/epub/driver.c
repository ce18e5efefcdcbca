/*
 * EPUB benchmark driver: loads a shelf format plugin through the C ABI (nothing else) and times
 * what the benchmark asks for. Prints one line of figures per mode; peak memory is the
 * process's maxrss. Usage:
 *   driver PLUGIN.so open FILE...           open + manifest of every file (metadata, TOC, spine)
 *   driver PLUGIN.so extract FILE...        open + text of every reading-order item
 *   driver PLUGIN.so search QUERY FILE      full-text search, all hits (limit 10000)
 *   driver PLUGIN.so positions FILE         the positions list
 *   driver PLUGIN.so info FILE              open + manifest, as `shelf info` does, once
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include "shelf/plugin.h"
#include "shelf/format.h"

typedef struct { char *buf; size_t len, cap; int keep; } sink;
static shelf_status sink_write(void *ctx, const void *data, size_t n) {
    sink *s = ctx;
    if (s->keep) {
        if (s->len + n + 1 > s->cap) { s->cap = (s->len + n + 1) * 2; s->buf = realloc(s->buf, s->cap); if (!s->buf) return SHELF_E_NO_MEMORY; }
        memcpy(s->buf + s->len, data, n); s->buf[s->len + n] = 0;
    }
    s->len += n;
    return SHELF_OK;
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static long maxrss_kb(void) { struct rusage ru; getrusage(RUSAGE_SELF, &ru); return ru.ru_maxrss; }

static const shelf_format_v1 *fmt; static const shelf_render_v1 *ren; static const shelf_positions_v1 *pos; static const shelf_search_v1 *sea;

static shelf_publication *open_book(const char *path) {
    shelf_input in = { sizeof in, path, path, "application/epub+zip", NULL, 0, 0 };
    shelf_error err = { sizeof err };
    shelf_publication *p = NULL;
    if (fmt->open(&in, NULL, &p, &err) != SHELF_OK) { fprintf(stderr, "%s: %s\n", path, err.message); return NULL; }
    return p;
}

/* Distinct hrefs of the reading order, in order, from the positions list. */
static int reading_order(shelf_publication *p, char ***out) {
    sink s = { .keep = 1 }; shelf_error err = { sizeof err };
    if (pos->positions(p, &(shelf_writer){ &s, sink_write }, &err) != SHELF_OK || !s.buf) return 0;
    int n = 0, cap = 64; char **hrefs = malloc(sizeof *hrefs * cap);
    const char *c = s.buf, *key = "\"href\":\"";
    while ((c = strstr(c, key))) {
        c += strlen(key);
        const char *e = strchr(c, '"'); if (!e) break;
        size_t len = (size_t)(e - c);
        if (n == 0 || strlen(hrefs[n - 1]) != len || strncmp(hrefs[n - 1], c, len) != 0) {
            if (n == cap) { cap *= 2; hrefs = realloc(hrefs, sizeof *hrefs * cap); }
            hrefs[n] = strndup(c, len); n++;
        }
        c = e;
    }
    free(s.buf); *out = hrefs; return n;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: driver PLUGIN.so MODE ARGS...\n"); return 64; }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 69; }
    shelf_plugin_entry_fn entry = (shelf_plugin_entry_fn)dlsym(lib, SHELF_PLUGIN_ENTRY_SYMBOL);
    const shelf_plugin_descriptor *d = entry();
    shelf_host host = { sizeof host, SHELF_ABI_MAJOR, SHELF_ABI_MINOR, "bench", "0", NULL, NULL, "/tmp", "/tmp", NULL, NULL, NULL };
    shelf_error err = { sizeof err };
    if (d->init && d->init(&host, &err) != SHELF_OK) { fprintf(stderr, "init: %s\n", err.message); return 69; }
    fmt = d->get_extension(SHELF_EXT_FORMAT); ren = d->get_extension(SHELF_EXT_RENDER);
    pos = d->get_extension(SHELF_EXT_POSITIONS); sea = d->get_extension(SHELF_EXT_SEARCH);
    const char *mode = argv[2];
    double t0 = now();
    long opened = 0, items = 0; size_t bytes = 0;
    if (!strcmp(mode, "open") || !strcmp(mode, "info") || !strcmp(mode, "extract")) {
        for (int i = 3; i < argc; i++) {
            shelf_publication *p = open_book(argv[i]); if (!p) continue;
            opened++;
            sink m = { .keep = !strcmp(mode, "info") };
            fmt->manifest(p, &(shelf_writer){ &m, sink_write }, &err);
            bytes += m.len;
            if (!strcmp(mode, "info") && m.buf) { fwrite(m.buf, 1, m.len < 300 ? m.len : 300, stdout); printf("...\n"); }
            free(m.buf);
            if (!strcmp(mode, "extract")) {
                char **hrefs = NULL; int n = reading_order(p, &hrefs);
                for (int k = 0; k < n; k++) {
                    char loc[4096]; snprintf(loc, sizeof loc, "{\"href\":\"%s\"}", hrefs[k]);
                    sink c = { 0 };
                    if (ren->render(p, loc, "{\"as\":\"text\",\"width\":100000}", &(shelf_writer){ &c, sink_write }, NULL, &err) == SHELF_OK) { items++; bytes += c.len; }
                    free(hrefs[k]);
                }
                free(hrefs);
            }
            fmt->close(p);
        }
        printf("%s: %ld/%d books, %ld items, %zu bytes out, %.4f s, maxrss %ld KB\n", mode, opened, argc - 3, items, bytes, now() - t0, maxrss_kb());
    } else if (!strcmp(mode, "search") && argc >= 5) {
        shelf_publication *p = open_book(argv[4]); if (!p) return 65;
        char q[1024]; snprintf(q, sizeof q, "{\"query\":\"%s\",\"limit\":10000}", argv[3]);
        sink s = { .keep = 1 };
        shelf_status st = sea->search(p, q, &(shelf_writer){ &s, sink_write }, &err);
        long hits = 0; for (const char *c = s.buf; c && (c = strstr(c, "\"highlight\"")); c++) hits++;
        printf("search: status %d, %ld hits, %.4f s, maxrss %ld KB\n", st, hits, now() - t0, maxrss_kb());
        free(s.buf); fmt->close(p);
    } else if (!strcmp(mode, "positions")) {
        shelf_publication *p = open_book(argv[3]); if (!p) return 65;
        sink s = { .keep = 1 };
        pos->positions(p, &(shelf_writer){ &s, sink_write }, &err);
        long n = 0; for (const char *c = s.buf; c && (c = strstr(c, "\"position\"")); c++) n++;
        printf("positions: %ld, %.4f s, maxrss %ld KB\n", n, now() - t0, maxrss_kb());
        free(s.buf); fmt->close(p);
    } else { fprintf(stderr, "unknown mode %s\n", mode); return 64; }
    if (d->deinit) d->deinit();
    return 0;
}
