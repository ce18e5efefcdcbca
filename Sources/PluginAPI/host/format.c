/* shelf-plugin-host: a format plugin on one sample, capability by capability, as shelf calls it.
 * SPDX-License-Identifier: MIT */
#include "host.h"

#include <ctype.h>
#include <stdlib.h>

static const shelf_format_v1 *format;
static const shelf_render_v1 *render;
static const shelf_positions_v1 *positions;
static const shelf_search_v1 *search;

static shelf_input make_input(const char *path, unsigned char *head, size_t head_max)
{
    shelf_input in;
    FILE *f = fopen(path, "rb");
    memset(&in, 0, sizeof in);
    in.struct_size = sizeof in;
    in.path = path;
    in.uri = path;
    in.head = head;
    if (f != NULL) {
        in.head_size = fread(head, 1, head_max, f);
        if (fseek(f, 0, SEEK_END) == 0) in.file_size = (uint64_t)ftell(f);
        fclose(f);
    }
    if (in.head_size == 0) in.head = NULL;
    return in;
}

/* Parses what a call wrote; a breach naming the call when it is not JSON of the expected type. */
static shelf_json_doc *parsed(const char *call, const shelf_buffer *b, shelf_json_type type)
{
    shelf_error err = fresh_error();
    shelf_json_doc *doc = shelf_json_parse(b->data ? b->data : "", call, &err);
    if (doc == NULL) {
        breach(call, "%s; it wrote: %s", err.message, excerpt(b->data, 160));
        return NULL;
    }
    if (shelf_json_type_of(shelf_json_root(doc)) != type) {
        breach(call, "wrote JSON of the wrong kind: %s", excerpt(b->data, 160));
        shelf_json_free(doc);
        return NULL;
    }
    return doc;
}

static int failed(const char *call, shelf_status status, const shelf_error *err)
{
    if (status == SHELF_OK) return 0;
    if (err->message[0] == '\0') breach(call, "failed with status %d and no message", (int)status);
    else say("failed", "%s: status %d: %s%s%s", call, (int)status, err->message, err->location[0] ? " at " : "", err->location);
    return 1;
}

/* A word of five letters or more from text, for search. */
static int pick_word(const char *text, char *word, size_t size)
{
    size_t i = 0, n;
    while (text && text[i]) {
        while (text[i] && !isalpha((unsigned char)text[i])) i++;
        for (n = 0; isalpha((unsigned char)text[i + n]); n++) {}
        if (n >= 5 && n < size) {
            memcpy(word, text + i, n);
            word[n] = '\0';
            return 1;
        }
        i += n;
    }
    return 0;
}

static void run_search(shelf_publication *pub, const char *word)
{
    char query[256], call[300], upper[128];
    shelf_buffer b = { 0 };
    shelf_writer w = shelf_buffer_writer(&b);
    shelf_error err = fresh_error();
    shelf_json_doc *doc;
    size_t i, hits;
    snprintf(query, sizeof query, "{\"query\":\"%s\"}", word);
    snprintf(call, sizeof call, "search(%s)", query);
    if (!failed(call, search->search(pub, query, &w, &err), &err) && (doc = parsed(call, &b, SHELF_JSON_ARRAY)) != NULL) {
        hits = shelf_json_count(shelf_json_root(doc));
        say("search", "\"%s\": %lu hits", word, (unsigned long)hits);
        if (hits == 0) breach(call, "a word from the rendered text is not found");
        shelf_json_free(doc);
    }
    for (i = 0; word[i] && i < sizeof upper - 1; i++) upper[i] = (char)toupper((unsigned char)word[i]);
    upper[i] = '\0';
    snprintf(query, sizeof query, "{\"query\":\"%s\"}", upper);
    snprintf(call, sizeof call, "search(%s)", query);
    shelf_buffer_reset(&b);
    err = fresh_error();
    if (!failed(call, search->search(pub, query, &w, &err), &err) && (doc = parsed(call, &b, SHELF_JSON_ARRAY)) != NULL) {
        if (shelf_json_count(shelf_json_root(doc)) == 0) breach(call, "search must ignore case (format.h), but \"%s\" finds nothing", upper);
        shelf_json_free(doc);
    }
    shelf_buffer_free(&b);
}

static void run_positions(shelf_publication *pub)
{
    shelf_buffer b = { 0 }, back = { 0 };
    shelf_writer w = shelf_buffer_writer(&b), wb = shelf_buffer_writer(&back);
    shelf_error err = fresh_error();
    shelf_json_doc *doc;
    const shelf_json_value *p;
    size_t n, k = 0;
    if (failed("positions", positions->positions(pub, &w, &err), &err) || (doc = parsed("positions", &b, SHELF_JSON_ARRAY)) == NULL) {
        shelf_buffer_free(&b);
        return;
    }
    n = shelf_json_count(shelf_json_root(doc));
    say("positions", "%lu", (unsigned long)n);
    for (p = shelf_json_first(shelf_json_root(doc)); p != NULL; p = shelf_json_next(p)) {
        int64_t number = 0;
        double total = shelf_json_as_number(shelf_json_path(p, "locations.totalProgression"), -1);
        double expected = shelf_total_progression(k + 1, n);
        char call[64], *json;
        shelf_out out;
        shelf_locator l;
        shelf_json_doc *ldoc;
        k++;
        snprintf(call, sizeof call, "positions[%lu]", (unsigned long)k);
        if (!shelf_json_as_whole(shelf_json_path(p, "locations.position"), &number) || number != (int64_t)k) {
            breach(call, "locations.position should be %lu", (unsigned long)k);
        }
        if (total < expected - 1e-6 || total > expected + 1e-6) {
            breach(call, "totalProgression %g, but position %lu of %lu has (p - 1) / n = %g", total, (unsigned long)k,
                   (unsigned long)n, expected);
        }
        /* locate(position) comes back to the same position */
        {
            shelf_buffer one = { 0 };
            shelf_writer wo = shelf_buffer_writer(&one);
            shelf_out_init(&out, &wo);
            shelf_locator_init(&l);
            l.href = shelf_json_as_string(shelf_json_get(p, "href"), "");
            l.type = shelf_json_as_string(shelf_json_get(p, "type"), NULL);
            l.position = number;
            l.progression = shelf_json_as_number(shelf_json_path(p, "locations.progression"), -1);
            shelf_json_locator(&out, &l);
            shelf_out_finish(&out, NULL);
            json = one.data;
            shelf_buffer_reset(&back);
            err = fresh_error();
            snprintf(call, sizeof call, "locate(position %lu)", (unsigned long)k);
            if (!failed(call, positions->locate(pub, json, &wb, &err), &err)) {
                if (shelf_locator_parse(back.data ? back.data : "", &ldoc, &l, &err) != SHELF_OK) {
                    breach(call, "wrote no Locator: %s", err.message);
                } else {
                    if (l.position != number || strcmp(l.href ? l.href : "", shelf_json_as_string(shelf_json_get(p, "href"), "")) != 0) {
                        breach(call, "came back as %s position %ld", l.href ? l.href : "(no href)", (long)l.position);
                    }
                    shelf_json_free(ldoc);
                }
            }
            shelf_buffer_free(&one);
        }
    }
    shelf_json_free(doc);
    shelf_buffer_free(&b);
    shelf_buffer_free(&back);
}

static void run_render(shelf_publication *pub, const char *href, const char *type, char *word, size_t word_size)
{
    static const char *const settings[] = { "{\"as\":\"text\",\"width\":60}", "{\"as\":\"html\",\"theme\":\"night\"}" };
    shelf_buffer content = { 0 }, where = { 0 };
    shelf_writer wc = shelf_buffer_writer(&content), ww = shelf_buffer_writer(&where);
    char locator[1024], call[1200];
    size_t i;
    snprintf(locator, sizeof locator, "{\"href\":\"%s\",\"type\":\"%s\"}", href, type ? type : "");
    for (i = 0; i < 2; i++) {
        shelf_error err = fresh_error();
        shelf_json_doc *ldoc;
        shelf_locator l;
        shelf_buffer_reset(&content);
        shelf_buffer_reset(&where);
        snprintf(call, sizeof call, "render(%s, %s)", locator, settings[i]);
        if (failed(call, render->render(pub, locator, settings[i], &wc, &ww, &err), &err)) continue;
        say("render", "%s as %s: %lu bytes: %s", href, i ? "html" : "text", (unsigned long)content.size, excerpt(content.data, 100));
        if (shelf_locator_parse(where.data ? where.data : "", &ldoc, &l, &err) != SHELF_OK) {
            breach(call, "`where` is not a Locator: %s; it wrote: %s", err.message, excerpt(where.data, 120));
        } else {
            if (l.href == NULL || strcmp(l.href, href) != 0) breach(call, "`where` names %s, not the item rendered", l.href ? l.href : "no href");
            shelf_json_free(ldoc);
        }
        if (i == 1 && (content.data == NULL || strstr(content.data, "<html") == NULL || strstr(content.data, "</html>") == NULL)) {
            breach(call, "\"html\" output must be a complete XHTML document");
        }
        if (i == 0 && word[0] == '\0') pick_word(content.data, word, word_size);
    }
    shelf_buffer_free(&content);
    shelf_buffer_free(&where);
}

void run_format(const shelf_plugin_descriptor *d, const char *sample)
{
    static unsigned char head[65536];
    shelf_input in = make_input(sample, head, sizeof head);
    int32_t confidence = -1;
    shelf_publication *pub = NULL;
    shelf_error err = fresh_error();
    shelf_status status;
    shelf_buffer b = { 0 };
    shelf_writer w = shelf_buffer_writer(&b);
    shelf_json_doc *manifest;
    const shelf_json_value *item;
    char word[64] = "";
    format = d->get_extension(SHELF_EXT_FORMAT);
    render = d->get_extension(SHELF_EXT_RENDER);
    positions = d->get_extension(SHELF_EXT_POSITIONS);
    search = d->get_extension(SHELF_EXT_SEARCH);
    if (format == NULL) {
        breach("get_extension(shelf.format/1)", "the plugin declares media types but offers no format vtable");
        return;
    }
    status = format->probe(&in, &confidence);
    say("probe", "%s: status %d, confidence %d", sample, (int)status, (int)confidence);
    if (status != SHELF_OK || confidence < 0 || confidence > 100) breach("probe", "status %d, confidence %d", (int)status, (int)confidence);
    {
        /* ABI 1.1: the probe that can say why; a refusal with a message is an answer, not a breach. */
        const shelf_probe_v1 *explained = d->get_extension(SHELF_EXT_PROBE);
        if (explained != NULL && explained->struct_size >= sizeof *explained && explained->probe != NULL) {
            shelf_error why = fresh_error();
            int32_t sure = -1;
            status = explained->probe(&in, &sure, &why);
            say("shelf.probe/1", "%s: status %d, confidence %d%s%s", sample, (int)status, (int)sure,
                status != SHELF_OK ? ", " : "", status != SHELF_OK ? why.message : "");
            if (status != SHELF_OK && why.message[0] == '\0') breach("shelf.probe/1", "failed (status %d) without a message", (int)status);
            if (status == SHELF_OK && (sure < 0 || sure > 100)) breach("shelf.probe/1", "confidence %d", (int)sure);
        }
    }
    status = format->open(&in, NULL, &pub, &err);
    if (status != SHELF_OK) {
        if (pub != NULL) breach("open", "failed but left a handle");
        failed("open", status, &err);
        return;
    }
    if (pub == NULL) {
        breach("open", "succeeded without a handle");
        return;
    }
    err = fresh_error();
    if (!failed("manifest", format->manifest(pub, &w, &err), &err) && (manifest = parsed("manifest", &b, SHELF_JSON_OBJECT)) != NULL) {
        const shelf_json_value *root = shelf_json_root(manifest), *order = shelf_json_get(root, "readingOrder");
        const char *title = shelf_json_as_string(shelf_json_path(root, "metadata.title"), NULL);
        say("manifest", "\"%s\", %lu reading-order items", title ? title : "(no title)", (unsigned long)shelf_json_count(order));
        if (title == NULL || title[0] == '\0') breach("manifest", "metadata.title is required");
        if (shelf_json_count(order) == 0) breach("manifest", "readingOrder must not be empty");
        for (item = shelf_json_first(order); item != NULL; item = shelf_json_next(item)) {
            const char *href = shelf_json_as_string(shelf_json_get(item, "href"), NULL);
            const char *type = shelf_json_as_string(shelf_json_get(item, "type"), NULL);
            shelf_buffer r = { 0 };
            shelf_writer wr = shelf_buffer_writer(&r);
            char call[600];
            if (href == NULL || type == NULL) {
                breach("manifest", "a reading-order link lacks href or type");
                continue;
            }
            snprintf(call, sizeof call, "resource(%s)", href);
            err = fresh_error();
            if (!failed(call, format->resource(pub, href, &wr, &err), &err)) say("resource", "%s: %lu bytes", href, (unsigned long)r.size);
            shelf_buffer_free(&r);
            if (render != NULL) run_render(pub, href, type, word, sizeof word);
        }
        err = fresh_error();
        shelf_buffer_reset(&b);
        status = format->resource(pub, "no/such/resource.xhtml", &w, &err);
        if (status != SHELF_E_NOT_FOUND) breach("resource(no/such/resource.xhtml)", "status %d, expected SHELF_E_NOT_FOUND (%d)", (int)status, SHELF_E_NOT_FOUND);
        shelf_json_free(manifest);
    }
    if (positions != NULL) run_positions(pub);
    if (search != NULL && word[0] != '\0') run_search(pub, word);
    format->close(pub);
    shelf_buffer_free(&b);
}
