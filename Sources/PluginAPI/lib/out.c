/* libshelf-plugin: buffered output in front of a host's shelf_writer, and XHTML text.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

void shelf_out_init(shelf_out *out, const shelf_writer *writer)
{
    out->writer = writer;
    out->status = writer == NULL || writer->write == NULL ? SHELF_E_INTERNAL : SHELF_OK;
    out->used = 0;
    out->depth = 0;
    out->filled[0] = 0;
    out->after_key = 0;
}

static void flush(shelf_out *out)
{
    if (out->status == SHELF_OK && out->used > 0) {
        out->status = out->writer->write(out->writer->context, out->buffer, out->used);
    }
    out->used = 0;
}

void shelf_out_bytes(shelf_out *out, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0 && out->status == SHELF_OK) {
        size_t room = sizeof out->buffer - out->used;
        size_t n = size < room ? size : room;
        memcpy(out->buffer + out->used, p, n);
        out->used += n;
        p += n;
        size -= n;
        if (out->used == sizeof out->buffer) flush(out);
    }
}

void shelf_out_text(shelf_out *out, const char *text)
{
    if (text != NULL) shelf_out_bytes(out, text, strlen(text));
}

void shelf_out_escaped_(shelf_out *out, const char *text, size_t size, shelf_escape_fn_ escape)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0;
    char scratch[8];
    while (i < size) {
        size_t n = 1;
        const char *replacement = escape(s + i, size - i, &n, scratch);
        if (replacement != NULL) {
            shelf_out_bytes(out, s + run, i - run);
            shelf_out_text(out, replacement);
            run = i + n;
        }
        i += n;
    }
    shelf_out_bytes(out, s + run, size - run);
}

/* XHTML: the five special characters as references; what XML forbids as U+FFFD. */
static const char *xml_escape(const unsigned char *s, size_t left, size_t *n, char scratch[8])
{
    unsigned long cp = 0;
    (void)scratch;
    switch (s[0]) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\t': case '\n': case '\r': return NULL;
    default: break;
    }
    if (s[0] < 0x20) return "\xEF\xBF\xBD";
    if (s[0] < 0x80) return NULL;
    *n = shelf_utf8_sequence_(s, left, &cp);
    if (*n == 0 || cp == 0xFFFE || cp == 0xFFFF) {      /* not characters in XML either */
        *n = 1;
        return "\xEF\xBF\xBD";
    }
    return NULL;
}

void shelf_out_xml(shelf_out *out, const char *text, size_t size)
{
    shelf_out_escaped_(out, text, size, xml_escape);
}

shelf_status shelf_out_finish(shelf_out *out, shelf_error *err)
{
    flush(out);
    if (out->status == SHELF_OK && (out->depth != 0 || out->after_key)) {
        out->status = SHELF_E_INTERNAL;
        return shelf_error_set(err, out->status, NULL,
                               "the plugin left a JSON object or array unclosed (a bug in the plugin)");
    }
    if (out->status == SHELF_E_INTERNAL) {
        return shelf_error_set(err, out->status, NULL,
                               "the plugin wrote malformed JSON (a key outside an object, or nesting "
                               "deeper than %d): a bug in the plugin", SHELF_OUT_MAX_DEPTH);
    }
    if (out->status != SHELF_OK) {
        return shelf_error_set(err, out->status, NULL, "the host stopped accepting output (status %d)",
                               (int)out->status);
    }
    return SHELF_OK;
}
