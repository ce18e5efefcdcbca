/*
 * Smoke test for a shelf format plugin, without shelf: plays the host's part from the headers.
 *
 *   ./check ./libshelf-text.so samples
 *
 * Loads the plugin with dlopen, checks the descriptor, then probes, opens, renders, lists
 * positions, locates each of them, searches, and feeds it broken files. Prints each failure and
 * one "N passed, N failed" line; exits non-zero when anything failed.
 */
#define _POSIX_C_SOURCE 200809L
#include <shelf/shelf.h>
#include <shelf/helper.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, ...) check_((cond) != 0, __LINE__, __VA_ARGS__)

static int check_(int ok, int line, const char *format, ...)
{
    if (ok) {
        passed++;
    } else {
        va_list args;
        failed++;
        fprintf(stderr, "FAIL (check.c:%d): ", line);
        va_start(args, format);
        vfprintf(stderr, format, args);
        va_end(args);
        fputc('\n', stderr);
    }
    return ok;
}

/* ----- a host writer that collects output ---------------------------------------------------- */

static shelf_status refusing_write(void *context, const void *data, size_t size)
{
    (void)context; (void)data; (void)size;
    return SHELF_E_LIMIT;
}

static const char *text_of(const shelf_buffer *b)
{
    return b->data ? b->data : "";
}

/* ----- a strict JSON checker, independent of the plugin's own reader ------------------------- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* Returns the end of the JSON value at p, or NULL when it is malformed. */
static const char *skip_value(const char *p, int depth)
{
    p = skip_ws(p);
    if (depth > 100) return NULL;
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int object = *p == '{';
        p = skip_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (object) {
                if (*p != '"' || (p = skip_value(p, depth + 1)) == NULL) return NULL;
                p = skip_ws(p);
                if (*p++ != ':') return NULL;
            }
            if ((p = skip_value(p, depth + 1)) == NULL) return NULL;
            p = skip_ws(p);
            if (*p == ',') { p = skip_ws(p + 1); continue; }
            if (*p == close) return p + 1;
            return NULL;
        }
    }
    if (*p == '"') {
        for (p++; *p != '"'; p++) {
            if ((unsigned char)*p < 0x20) return NULL;
            if (*p == '\\') {
                p++;
                if (*p == 'u') {
                    int i;
                    for (i = 1; i <= 4; i++) if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
                    p += 4;
                } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                    return NULL;
                }
            }
        }
        return p + 1;
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        char *end;
        strtod(p, &end);
        return end > p ? end : NULL;
    }
    if (strncmp(p, "true", 4) == 0) return p + 4;
    if (strncmp(p, "false", 5) == 0) return p + 5;
    if (strncmp(p, "null", 4) == 0) return p + 4;
    return NULL;
}

static int valid_json(const char *text)
{
    const char *end = skip_value(text, 0);
    return end != NULL && *skip_ws(end) == '\0';
}

/* Splits a JSON array into copies of its elements; returns the count (-1 when malformed). */
static int array_elements(const char *text, char ***out)
{
    const char *p = skip_ws(text);
    int n = 0;
    *out = NULL;
    if (*p++ != '[') return -1;
    p = skip_ws(p);
    if (*p == ']') return 0;
    for (;;) {
        const char *start = skip_ws(p), *end = skip_value(start, 1);
        char **bigger;
        if (end == NULL) return -1;
        bigger = realloc(*out, (size_t)(n + 1) * sizeof *bigger);
        if (bigger == NULL) return -1;
        *out = bigger;
        (*out)[n] = malloc((size_t)(end - start) + 1);
        memcpy((*out)[n], start, (size_t)(end - start));
        (*out)[n][end - start] = '\0';
        n++;
        p = skip_ws(end);
        if (*p == ',') { p++; continue; }
        return *p == ']' ? n : -1;
    }
}

static void free_elements(char **items, int n)
{
    int i;
    for (i = 0; i < n; i++) free(items[i]);
    free(items);
}

/* The number after the first "key": in text, or -1. */
static double number_after(const char *text, const char *key)
{
    char pattern[64];
    const char *p;
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    p = strstr(text, pattern);
    return p ? strtod(p + strlen(pattern), NULL) : -1;
}

/* A copy of the string after the first "key": in text (no unescaping), or "". */
static void string_after(const char *text, const char *key, char *out, size_t size)
{
    char pattern[64];
    const char *p, *e;
    out[0] = '\0';
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    p = strstr(text, pattern);
    if (p == NULL) return;
    p += strlen(pattern);
    e = p;
    while (*e && *e != '"') e += (*e == '\\' && e[1]) ? 2 : 1;
    snprintf(out, size, "%.*s", (int)(e - p), p);
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    const char *p = text;
    while ((p = strstr(p, needle)) != NULL) { n++; p += strlen(needle); }
    return n;
}

/* ----- the host's side ----------------------------------------------------------------------- */

static int log_lines;

static void host_log(const shelf_host *host, int32_t level, const char *message)
{
    (void)host; (void)level; (void)message;
    log_lines++;
}

static shelf_status host_progress(const shelf_host *host, double fraction, const char *label)
{
    (void)host; (void)fraction; (void)label;
    return SHELF_OK;
}

static int32_t host_cancelled(const shelf_host *host)
{
    (void)host;
    return 0;
}

static const void *host_service(const shelf_host *host, const char *id)
{
    (void)host; (void)id;
    return NULL;
}

static const shelf_format_v1 *format;
static const shelf_render_v1 *render;
static const shelf_positions_v1 *positions;
static const shelf_search_v1 *search;

/* Reads a file's head as the host would and builds the shelf_input. */
static void make_input(shelf_input *in, const char *path, unsigned char *head, size_t head_max)
{
    FILE *f = fopen(path, "rb");
    memset(in, 0, sizeof *in);
    in->struct_size = sizeof *in;
    in->path = path;
    in->uri = path;
    in->head = head;
    if (f) {
        in->head_size = fread(head, 1, head_max, f);
        fseek(f, 0, SEEK_END);
        in->file_size = (uint64_t)ftell(f);
        fclose(f);
    }
}

static shelf_error new_error(void)
{
    shelf_error e;
    memset(&e, 0, sizeof e);
    e.struct_size = sizeof e;
    return e;
}

static int probe_file(const char *path)
{
    static unsigned char head[65536];
    shelf_input in;
    int32_t confidence = -1;
    make_input(&in, path, head, sizeof head);
    if (format->probe(&in, &confidence) != SHELF_OK) return -1;
    return confidence;
}

static shelf_publication *open_file(const char *path, shelf_status *status, shelf_error *err)
{
    static unsigned char head[65536];
    shelf_input in;
    shelf_publication *pub = NULL;
    make_input(&in, path, head, sizeof head);
    *err = new_error();
    *status = format->open(&in, NULL, &pub, err);
    return pub;
}

/* Expects open to fail with `status` and a message containing `words`. */
static void expect_open_error(const char *path, shelf_status expected, const char *words)
{
    shelf_error err;
    shelf_status status;
    shelf_publication *pub = open_file(path, &status, &err);
    CHECK(status == expected && pub == NULL, "open %s: status %d, expected %d", path, (int)status,
          (int)expected);
    CHECK(err.status == expected, "open %s: err.status %d, expected %d", path, (int)err.status, (int)expected);
    CHECK(err.message[0] != '\0' && strstr(err.message, words) != NULL,
          "open %s: message \"%s\" should mention \"%s\"", path, err.message, words);
    if (pub) format->close(pub);
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
}

/* Every line of `text` at most `width` code points, unless it is one long word. */
static int lines_fit(const char *text, size_t width)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p), cols = 0, i;
        for (i = 0; i < n; i++) if (((unsigned char)p[i] & 0xC0) != 0x80) cols++;
        if (cols > width && memchr(p, ' ', n) != NULL) return 0;
        p += n + (nl ? 1 : 0);
    }
    return 1;
}

/* ----- the checks on one sample -------------------------------------------------------------- */

static void check_book(const char *path, const char *title, const char *author, int chapters,
                       const char *type, const char *word)
{
    shelf_error err;
    shelf_status status;
    shelf_buffer out = { 0 }, where = { 0 };
    shelf_writer w = shelf_buffer_writer(&out), wh = shelf_buffer_writer(&where);
    shelf_writer refuse = { NULL, refusing_write };
    shelf_publication *pub = open_file(path, &status, &err);
    char **items = NULL;
    int n, i, ok;
    char expect[256], href[64];

    if (!CHECK(status == SHELF_OK && pub != NULL, "open %s: status %d: %s", path, (int)status, err.message)) {
        return;
    }

    /* manifest */
    err = new_error();
    status = format->manifest(pub, &w, &err);
    CHECK(status == SHELF_OK, "manifest %s: %s", path, err.message);
    CHECK(valid_json(text_of(&out)), "manifest of %s is not valid JSON: %s", path, text_of(&out));
    CHECK(strstr(text_of(&out), "\"@context\":") && strstr(text_of(&out), "\"metadata\":")
          && strstr(text_of(&out), "\"readingOrder\":[{") && strstr(text_of(&out), "\"toc\":["),
          "manifest of %s lacks @context, metadata, readingOrder or toc", path);
    CHECK(strstr(text_of(&out), "conformsTo") == NULL, "manifest of %s has conformsTo", path);
    snprintf(expect, sizeof expect, "\"title\":\"%s\"", title);
    CHECK(strstr(text_of(&out), expect) != NULL, "manifest of %s: title should be %s", path, title);
    snprintf(expect, sizeof expect, "\"author\":[{\"name\":\"%s\"}]", author);
    CHECK(strstr(text_of(&out), expect) != NULL, "manifest of %s: author should be %s", path, author);
    snprintf(expect, sizeof expect, "\"type\":\"%s\"", type);
    CHECK(count_of(text_of(&out), expect) == 2 * chapters,
          "manifest of %s: expected %d chapters of type %s (readingOrder + toc): %s", path, chapters,
          type, text_of(&out));

    /* resources */
    string_after(strstr(text_of(&out), "\"readingOrder\""), "href", href, sizeof href);
    shelf_buffer_reset(&out);
    err = new_error();
    status = format->resource(pub, href, &w, &err);
    CHECK(status == SHELF_OK && out.size > 0, "resource %s of %s: %s", href, path, err.message);
    snprintf(expect, sizeof expect, "%s#fragment", href);
    shelf_buffer_reset(&out);
    status = format->resource(pub, expect, &w, &err);
    CHECK(status == SHELF_OK && out.size > 0, "resource %s with a #fragment: %s", href, err.message);
    err = new_error();
    status = format->resource(pub, "nowhere.txt", &w, &err);
    CHECK(status == SHELF_E_NOT_FOUND && err.message[0], "resource nowhere.txt: status %d", (int)status);
    err = new_error();
    status = format->resource(pub, href, &refuse, &err);
    CHECK(status == SHELF_E_LIMIT, "a refusing writer's status comes back (got %d)", (int)status);

    /* render: default, narrow, html */
    shelf_buffer_reset(&out);
    err = new_error();
    status = render->render(pub, NULL, NULL, &w, &wh, &err);
    CHECK(status == SHELF_OK && out.size > 0, "render %s: %s", path, err.message);
    CHECK(lines_fit(text_of(&out), 72), "render %s: a line is wider than 72 columns", path);
    CHECK(valid_json(text_of(&where)) && number_after(text_of(&where), "position") == 1,
          "render %s: where should be position 1: %s", path, text_of(&where));
    shelf_buffer_reset(&out);
    shelf_buffer_reset(&where);
    status = render->render(pub, NULL, "{\"width\": 30}", &w, &wh, &err);
    CHECK(status == SHELF_OK && lines_fit(text_of(&out), 30), "render %s at width 30", path);
    shelf_buffer_reset(&out);
    shelf_buffer_reset(&where);
    snprintf(expect, sizeof expect, "{\"href\":\"%s\",\"locations\":{\"progression\":0.99}}", href);
    status = render->render(pub, expect, "{\"as\":\"html\",\"fontScale\":150,\"font\":\"sans\",\"theme\":\"night\"}",
                            &w, &wh, &err);
    CHECK(status == SHELF_OK, "render html %s: %s", path, err.message);
    CHECK(strstr(text_of(&out), "<body style=\"font-size:150%;font-family:sans-serif;background-color:#000000")
          != NULL, "render html %s: settings not applied on <body>", path);
    CHECK(strstr(text_of(&out), "<p>") && strstr(text_of(&out), "</html>"), "render html %s: no <p>", path);
    CHECK(valid_json(text_of(&where)), "render html where: %s", text_of(&where));
    for (i = 2; i <= chapters; i++) {       /* every chapter renders, in HTML, escaped */
        snprintf(expect, sizeof expect, "{\"href\":\"chapter-%d.%s\"}", i, strstr(type, "markdown") ? "md" : "txt");
        shelf_buffer_reset(&out);
        status = render->render(pub, expect, "{\"as\":\"html\"}", &w, NULL, &err);
        CHECK(status == SHELF_OK, "render %s: %s", expect, err.message);
        ok = 1;
        {
            const char *p = text_of(&out);
            for (; *p; p++) if (*p == '&' && strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) && strncmp(p, "&#39;", 5)) ok = 0;
        }
        CHECK(ok, "render %s: an unescaped & in the HTML", expect);
    }
    err = new_error();
    status = render->render(pub, NULL, "{\"width\": ", &w, &wh, &err);
    CHECK(status == SHELF_E_INVALID_ARGUMENT && err.message[0], "render with malformed settings: %d", (int)status);
    err = new_error();
    /* A setting is a wish (format.h): an unknown theme falls back to the default, a width out of
     * range is clamped; neither is an error. */
    status = render->render(pub, NULL, "{\"theme\":\"purple\",\"width\":3}", &w, &wh, &err);
    CHECK(status == SHELF_OK, "render theme purple, width 3: %s", err.message);
    err = new_error();
    status = render->render(pub, "{\"href\":\"chapter-99.txt\"}", NULL, &w, &wh, &err);
    CHECK(status == SHELF_E_NOT_FOUND && err.message[0], "render unknown href: %d", (int)status);
    err = new_error();
    status = render->render(pub, "[1,2", NULL, &w, &wh, &err);
    CHECK(status == SHELF_E_INVALID_ARGUMENT && err.message[0], "render malformed locator: %d", (int)status);

    /* positions and the locate round trip */
    shelf_buffer_reset(&out);
    err = new_error();
    status = positions->positions(pub, &w, &err);
    CHECK(status == SHELF_OK && valid_json(text_of(&out)), "positions of %s: %s", path, err.message);
    n = array_elements(text_of(&out), &items);
    CHECK(n >= chapters, "positions of %s: %d positions for %d chapters", path, n, chapters);
    for (i = 0; i < n; i++) {
        char h1[64], h2[64];
        double p;
        shelf_buffer_reset(&where);
        err = new_error();
        status = positions->locate(pub, items[i], &wh, &err);
        string_after(items[i], "href", h1, sizeof h1);
        string_after(text_of(&where), "href", h2, sizeof h2);
        p = number_after(text_of(&where), "position");
        CHECK(status == SHELF_OK && p == i + 1 && strcmp(h1, h2) == 0 && number_after(items[i], "position") == i + 1,
              "locate(position %d of %s) gave %s (%s)", i + 1, path, text_of(&where), err.message);
        CHECK(strstr(items[i], "\"totalProgression\":") && strstr(items[i], "\"title\":"),
              "position %d lacks totalProgression or title", i + 1);
        snprintf(expect, sizeof expect, "{\"locations\":{\"position\":%d}}", i + 1);
        shelf_buffer_reset(&where);
        status = positions->locate(pub, expect, &wh, &err);
        CHECK(status == SHELF_OK && number_after(text_of(&where), "position") == i + 1,
              "locate(bare position %d) gave %s", i + 1, text_of(&where));
    }
    if (n > 0) {
        snprintf(expect, sizeof expect, "{\"locations\":{\"position\":%d}}", n + 1);
        err = new_error();
        status = positions->locate(pub, expect, &wh, &err);
        CHECK(status == SHELF_E_NOT_FOUND && err.message[0], "locate position %d: %d", n + 1, (int)status);
        err = new_error();
        status = positions->locate(pub, "{\"href\":\"nope.md\",\"locations\":{\"progression\":0}}", &wh, &err);
        CHECK(status == SHELF_E_NOT_FOUND && err.message[0], "locate unknown href: %d", (int)status);
        err = new_error();
        status = positions->locate(pub, "{\"locations\":{\"position\":\"two\"}}", &wh, &err);
        CHECK(status == SHELF_E_INVALID_ARGUMENT && err.message[0], "locate string position: %d", (int)status);
    }
    free_elements(items, n);

    /* search */
    shelf_buffer_reset(&out);
    err = new_error();
    snprintf(expect, sizeof expect, "{\"query\":\"%s\"}", word);
    status = search->search(pub, expect, &w, &err);
    CHECK(status == SHELF_OK && valid_json(text_of(&out)), "search %s in %s: %s", word, path, err.message);
    n = array_elements(text_of(&out), &items);
    CHECK(n >= 2, "search %s in %s: %d results", word, path, n);
    for (i = 0; i < n; i++) {
        CHECK(strstr(items[i], "\"highlight\":") && strstr(items[i], "\"before\":")
              && strstr(items[i], "\"after\":") && number_after(items[i], "position") >= 1,
              "search result %d lacks text or position: %s", i, items[i]);
    }
    free_elements(items, n);
    shelf_buffer_reset(&out);
    snprintf(expect, sizeof expect, "{\"query\":\"%s\",\"limit\":1}", word);
    status = search->search(pub, expect, &w, &err);
    n = array_elements(text_of(&out), &items);
    CHECK(status == SHELF_OK && n == 1, "search with limit 1 gave %d results", n);
    free_elements(items, n);
    shelf_buffer_reset(&out);
    status = search->search(pub, "{\"query\":\"zebra quantum\"}", &w, &err);
    CHECK(status == SHELF_OK && strcmp(text_of(&out), "[]") == 0, "search with no match: %s", text_of(&out));
    err = new_error();
    status = search->search(pub, "{\"query\":", &w, &err);
    CHECK(status == SHELF_E_INVALID_ARGUMENT && err.message[0], "search malformed: %d", (int)status);
    err = new_error();
    status = search->search(pub, "{\"limit\":3}", &w, &err);
    CHECK(status == SHELF_E_INVALID_ARGUMENT && err.message[0], "search without query: %d", (int)status);

    format->close(pub);
    free(out.data);
    free(where.data);
}

/* ----- threads: separate handles at once (the descriptor says CONCURRENT_HANDLES) ------------ */

typedef struct job {
    const char *path;
    int ok;
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    int round;
    j->ok = 1;
    for (round = 0; round < 20 && j->ok; round++) {
        shelf_error err;
        shelf_status status;
        shelf_buffer out = { 0 };
        shelf_writer w = shelf_buffer_writer(&out);
        shelf_publication *pub = open_file(j->path, &status, &err);
        if (pub == NULL) { j->ok = 0; break; }
        if (render->render(pub, NULL, "{\"as\":\"html\"}", &w, NULL, &err) != SHELF_OK) j->ok = 0;
        shelf_buffer_reset(&out);
        if (search->search(pub, "{\"query\":\"the\"}", &w, &err) != SHELF_OK) j->ok = 0;
        format->close(pub);
        free(out.data);
    }
    return NULL;
}

/* ----- hostile JSON and mutated books: errors, never crashes or over-reads ------------------- */

static shelf_writer sink_writer;

static shelf_status discard_write(void *context, const void *data, size_t size)
{
    (void)context; (void)data; (void)size;
    return SHELF_OK;
}

static void fuzz(const char *md, const char *dir)
{
    static const char *const docs[] = {
        "{\"href\":\"chapter-2.md#x\",\"locations\":{\"position\":2,\"progression\":0.5e0,\"fragments\":[\"a\",{}]},\"text\":{\"highlight\":\"\\u00e9\\ud83d\\ude00\\ud800\"}}",
        "{\"as\":\"html\",\"width\":40,\"fontScale\":1.25E2,\"font\":\"sans\",\"theme\":\"sepia\",\"x\":[true,false,null,-0.0]}",
        "{\"query\":\"the \\\"keeper\\\"\\n\",\"limit\":3}",
        NULL
    };
    static const char *const bad[] = {
        "", " ", "[]", "3", "\"x\"", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":01}",
        "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":tru}", "{\"a\":1} x", "{\"a\":\"\t\"}",
        "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"width\":-3}", "{\"width\":\"wide\"}",
        "{\"fontScale\":0}", "{\"as\":\"pdf\"}", "{\"locations\":{\"progression\":2}}",
        "{\"locations\":{\"position\":1.5}}", "{\"locations\":7}", "{\"href\":3}", NULL
    };
    char deep[400], *copy;
    shelf_status status;
    shelf_error err;
    shelf_publication *pub = open_file(md, &status, &err);
    int i, crashes = 0;
    size_t n, k;
    sink_writer.context = NULL;
    sink_writer.write = discard_write;
    if (!CHECK(pub != NULL, "fuzz: open %s", md)) return;
    for (i = 0; docs[i]; i++) {
        n = strlen(docs[i]);
        for (k = 0; k <= n; k++) {      /* every prefix, in a buffer of exactly that size */
            copy = malloc(k + 1);
            memcpy(copy, docs[i], k);
            copy[k] = '\0';
            err = new_error();
            status = render->render(pub, copy, NULL, &sink_writer, &sink_writer, &err);
            if (status != SHELF_OK && (status != SHELF_E_INVALID_ARGUMENT || !err.message[0])) crashes++;
            status = render->render(pub, NULL, copy, &sink_writer, &sink_writer, &err);
            if (status != SHELF_OK && (status != SHELF_E_INVALID_ARGUMENT || !err.message[0])) crashes++;
            status = positions->locate(pub, copy, &sink_writer, &err);
            if (status != SHELF_OK && status != SHELF_E_INVALID_ARGUMENT) crashes++;
            status = search->search(pub, copy, &sink_writer, &err);
            if (status != SHELF_OK && status != SHELF_E_INVALID_ARGUMENT) crashes++;
            free(copy);
        }
        CHECK(crashes == 0, "fuzz: prefixes of document %d gave unexpected statuses", i);
        err = new_error();
        status = i == 0 ? positions->locate(pub, docs[i], &sink_writer, &err)
               : i == 1 ? render->render(pub, NULL, docs[i], &sink_writer, NULL, &err)
                        : search->search(pub, docs[i], &sink_writer, &err);
        CHECK(status == SHELF_OK, "fuzz: document %d is accepted: %s", i, err.message);
    }
    for (i = 0; bad[i]; i++) {
        err = new_error();
        status = render->render(pub, NULL, bad[i], &sink_writer, NULL, &err);
        if (status == SHELF_OK) status = positions->locate(pub, bad[i], &sink_writer, &err);
        CHECK((status == SHELF_E_INVALID_ARGUMENT || status == SHELF_E_NOT_FOUND) && err.message[0],
              "bad JSON %s: status %d, message \"%s\"", bad[i], (int)status, err.message);
    }
    memset(deep, '[', sizeof deep - 1);
    deep[0] = '{';
    deep[1] = '"';
    deep[2] = 'a';
    deep[3] = '"';
    deep[4] = ':';
    deep[sizeof deep - 1] = '\0';
    err = new_error();
    status = render->render(pub, NULL, deep, &sink_writer, NULL, &err);
    CHECK(status == SHELF_E_INVALID_ARGUMENT && strstr(err.message, "deep"), "deep nesting: %s", err.message);
    format->close(pub);

    /* mutated copies of the Markdown sample: open fails cleanly or everything works */
    {
        FILE *f = fopen(md, "rb");
        static char original[16384];
        char path[600];
        size_t size = f ? fread(original, 1, sizeof original, f) : 0;
        unsigned seed = 7;
        int round, bad_opens = 0;
        shelf_buffer out = { 0 };
        shelf_writer w = shelf_buffer_writer(&out);
        if (f) fclose(f);
        snprintf(path, sizeof path, "%s/mutant.md", dir);
        for (round = 0; round < 60 && size > 0; round++) {
            char mutant[16384];
            int flips;
            memcpy(mutant, original, size);
            for (flips = 0; flips < 1 + round % 8; flips++) {
                seed = seed * 1103515245u + 12345u;
                k = (seed >> 8) % size;
                seed = seed * 1103515245u + 12345u;
                mutant[k] = round % 3 == 0 ? (char)(seed >> 16) : round % 3 == 1 ? '#' : '\n';
            }
            n = round % 5 == 4 ? (seed >> 4) % size : size;     /* sometimes truncated */
            write_file(path, mutant, n);
            pub = open_file(path, &status, &err);
            if (pub == NULL) {
                if (!((status == SHELF_E_BAD_DATA) && err.message[0])) bad_opens++;
                continue;
            }
            shelf_buffer_reset(&out);
            status = format->manifest(pub, &w, &err);
            if (status != SHELF_OK || !valid_json(text_of(&out))) bad_opens++;
            shelf_buffer_reset(&out);
            if (render->render(pub, NULL, "{\"as\":\"html\"}", &w, &w, &err) != SHELF_OK) bad_opens++;
            shelf_buffer_reset(&out);
            if (positions->positions(pub, &w, &err) != SHELF_OK || !valid_json(text_of(&out))) bad_opens++;
            shelf_buffer_reset(&out);
            if (search->search(pub, "{\"query\":\"e\"}", &w, &err) != SHELF_OK || !valid_json(text_of(&out))) bad_opens++;
            format->close(pub);
        }
        CHECK(bad_opens == 0, "mutated books: %d misbehaved", bad_opens);
        unlink(path);
        free(out.data);
    }
}

/* ----- main ---------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *plugin = argc > 1 ? argv[1] : "./libshelf-text.so";
    const char *samples = argc > 2 ? argv[2] : "samples";
    char md[512], txt[512], dir[] = "/tmp/shelf-check-XXXXXX", path[600];
    void *lib;
    shelf_plugin_entry_fn entry;
    const shelf_plugin_descriptor *d;
    shelf_host host;
    shelf_error err = new_error();
    int i, confidence;
    unsigned char noise[4096];
    unsigned seed = 12345;

    snprintf(md, sizeof md, "%s/lighthouse-keeper.md", samples);
    snprintf(txt, sizeof txt, "%s/clockmakers-daughter.txt", samples);

    lib = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
    if (!CHECK(lib != NULL, "dlopen %s: %s", plugin, dlerror())) goto done;
    *(void **)&entry = dlsym(lib, SHELF_PLUGIN_ENTRY_SYMBOL);
    if (!CHECK(entry != NULL, "no %s in %s", SHELF_PLUGIN_ENTRY_SYMBOL, plugin)) goto done;

    /* the descriptor */
    d = entry();
    if (!CHECK(d != NULL && d == entry(), "the entry returns one static descriptor")) goto done;
    CHECK(d->struct_size >= sizeof *d, "descriptor struct_size %u", (unsigned)d->struct_size);
    CHECK(d->abi_major == SHELF_ABI_MAJOR, "abi_major %u", (unsigned)d->abi_major);
    CHECK(d->id && strcmp(d->id, "org.shelf.example.text") == 0, "id %s", d->id ? d->id : "(null)");
    CHECK(d->name && d->name[0] && d->version && d->version[0], "name and version");
    CHECK(d->license && strcmp(d->license, "MIT") == 0, "license");
    CHECK(d->vendor && d->description, "vendor and description");
    CHECK(d->flags & SHELF_PLUGIN_CONCURRENT_HANDLES, "flags: concurrent handles");
    CHECK(d->media_types && d->media_types[0] && strcmp(d->media_types[0], "text/plain") == 0
          && d->media_types[1] && strcmp(d->media_types[1], "text/markdown") == 0 && !d->media_types[2],
          "media types text/plain, text/markdown");
    for (i = 0; d->file_extensions && d->file_extensions[i]; i++) {}
    CHECK(i == 4, "four file extensions (got %d)", i);
    CHECK(d->get_extension("shelf.nothing/1") == NULL && d->get_extension(SHELF_EXT_FORMAT) == d->get_extension(SHELF_EXT_FORMAT),
          "get_extension: NULL for unknown ids, the same pointer each time");

    memset(&host, 0, sizeof host);
    host.struct_size = sizeof host;
    host.abi_major = SHELF_ABI_MAJOR;
    host.abi_minor = SHELF_ABI_MINOR;
    host.host_name = "check";
    host.host_version = "0";
    host.log = host_log;
    host.data_dir = "/tmp";
    host.cache_dir = "/tmp";
    host.progress = host_progress;
    host.is_cancelled = host_cancelled;
    host.get_service = host_service;
    CHECK(d->init == NULL || d->init(&host, &err) == SHELF_OK, "init: %s", err.message);

    format = d->get_extension(SHELF_EXT_FORMAT);
    render = d->get_extension(SHELF_EXT_RENDER);
    positions = d->get_extension(SHELF_EXT_POSITIONS);
    search = d->get_extension(SHELF_EXT_SEARCH);
    if (!CHECK(format && render && positions && search, "all four extensions are offered")) goto done;
    CHECK(format->struct_size == sizeof *format && render->struct_size == sizeof *render
          && positions->struct_size == sizeof *positions && search->struct_size == sizeof *search,
          "vtable sizes");

    if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp")) goto done;

    /* probe */
    confidence = probe_file(md);
    CHECK(confidence >= SHELF_PROBE_LIKELY, "probe %s: %d", md, confidence);
    i = probe_file(txt);
    CHECK(i >= SHELF_PROBE_LIKELY && i < confidence, "probe %s: %d (markdown %d should be higher)", txt, i, confidence);
    for (i = 0; i < (int)sizeof noise; i++) {
        seed = seed * 1103515245u + 12345u;
        noise[i] = (unsigned char)(seed >> 16);
    }
    snprintf(path, sizeof path, "%s/random.txt", dir);
    write_file(path, noise, sizeof noise);
    CHECK(probe_file(path) == 0, "probe random bytes: %d", probe_file(path));
    snprintf(path, sizeof path, "%s/empty.txt", dir);
    write_file(path, "", 0);
    CHECK(probe_file(path) == 0, "probe empty file: %d", probe_file(path));
    {
        shelf_input in;
        int32_t c = -1;
        const unsigned char cut[] = "Caf\xC3";  /* a head that ends inside "é" */
        memset(&in, 0, sizeof in);
        in.struct_size = sizeof in;
        in.path = "cut.txt";
        in.head = cut;
        in.head_size = 4;
        in.file_size = 100000;
        CHECK(format->probe(&in, &c) == SHELF_OK && c >= SHELF_PROBE_LIKELY, "probe a head cut inside a character: %d", c);
        for (i = 0; i <= (int)sizeof noise; i += 97) {      /* any bytes: never fails */
            in.head = noise;
            in.head_size = (size_t)i;
            in.file_size = (uint64_t)i;
            CHECK(format->probe(&in, &c) == SHELF_OK && c >= 0 && c <= 100, "probe noise of %d bytes", i);
        }
    }

    /* the two samples, end to end */
    check_book(md, "The Lighthouse Keeper", "Maren Holt", 5, "text/markdown", "LIGHT");
    check_book(txt, "THE CLOCKMAKER'S DAUGHTER", "Anselm Reed", 4, "text/plain", "clock");

    /* search ignores diacritics: "elodie" finds "Élodie" */
    {
        shelf_status status;
        shelf_buffer out = { 0 };
        shelf_writer w = shelf_buffer_writer(&out);
        shelf_publication *pub = open_file(md, &status, &err);
        if (pub) {
            status = search->search(pub, "{\"query\":\"elodie\"}", &w, &err);
            CHECK(status == SHELF_OK && strstr(text_of(&out), "\"highlight\":\"Élodie\""),
                  "search elodie: %s", text_of(&out));
            format->close(pub);
        }
        free(out.data);
    }

    /* broken inputs */
    snprintf(path, sizeof path, "%s/missing.txt", dir);
    expect_open_error(path, SHELF_E_NOT_FOUND, "no such file");
    snprintf(path, sizeof path, "%s/empty.txt", dir);
    expect_open_error(path, SHELF_E_BAD_DATA, "empty");
    snprintf(path, sizeof path, "%s/blank.txt", dir);
    write_file(path, " \n\n\t\n", 5);
    expect_open_error(path, SHELF_E_BAD_DATA, "empty");
    snprintf(path, sizeof path, "%s/random.txt", dir);
    expect_open_error(path, SHELF_E_BAD_DATA, "byte offset");
    snprintf(path, sizeof path, "%s/latin1.txt", dir);
    write_file(path, "Chapter 1\nCaf\xE9 au lait\n", 22);
    expect_open_error(path, SHELF_E_BAD_DATA, "not valid UTF-8 at byte offset 13");
    snprintf(path, sizeof path, "%s/nul.md", dir);
    write_file(path, "# Title\n\0oops\n", 14);
    expect_open_error(path, SHELF_E_BAD_DATA, "NUL byte at byte offset 8");
    snprintf(path, sizeof path, "%s", dir);
    expect_open_error(path, SHELF_E_BAD_DATA, "not a regular file");

    /* JSON strings escaped: quotes, backslashes and control characters in a title */
    {
        shelf_status status;
        shelf_buffer out = { 0 };
        shelf_writer w = shelf_buffer_writer(&out);
        shelf_publication *pub;
        snprintf(path, sizeof path, "%s/quotes.md", dir);
        write_file(path, "# A \"quoted\" \\ title\x01\n\nSome text.\n", 34);
        pub = open_file(path, &status, &err);
        if (CHECK(pub != NULL, "open quotes.md: %s", err.message)) {
            status = format->manifest(pub, &w, &err);
            CHECK(status == SHELF_OK && valid_json(text_of(&out))
                  && strstr(text_of(&out), "A \\\"quoted\\\" \\\\ title\\u0001"),
                  "escaped title in %s", text_of(&out));
            format->close(pub);
        }
        free(out.data);
    }

    fuzz(md, dir);

    /* separate handles from separate threads */
    {
        pthread_t threads[4];
        job jobs[4];
        int started = 0, all = 1;
        for (i = 0; i < 4; i++) {
            jobs[i].path = i % 2 ? md : txt;
            jobs[i].ok = 0;
            if (pthread_create(&threads[i], NULL, thread_main, &jobs[i]) == 0) started++;
            else break;
        }
        for (i = 0; i < started; i++) {
            pthread_join(threads[i], NULL);
            all = all && jobs[i].ok;
        }
        CHECK(started == 4 && all, "four threads with their own handles");
    }

    if (d->deinit) d->deinit();
    CHECK(log_lines >= 0, "log");

    /* clean the temporary folder */
    {
        static const char *const names[] = { "random.txt", "empty.txt", "blank.txt", "latin1.txt",
                                              "nul.md", "quotes.md", NULL };
        for (i = 0; names[i]; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            unlink(path);
        }
        rmdir(dir);
    }

done:
    if (lib) dlclose(lib);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
