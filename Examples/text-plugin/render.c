/*
 * Rendering a chapter as wrapped text or as simple HTML.
 *
 * The chapter is read line by line into blocks (paragraphs, headings, list items, code fences);
 * the same block walk drives both outputs, so text and HTML always agree on the structure.
 */
#include "text.h"

typedef struct renderer {
    shelf_out *out;
    int html;
    size_t width;
    char block;                 /* 0 none, 'p' paragraph, 'i' list item */
    char list;                  /* html: 0, 'u' or 'o' while a list is open */
    char last;                  /* the kind of the previous block, for spacing in text */
    int wrote;                  /* something has been written */
    size_t col, indent;         /* text: current column and the indent of continuation lines */
} renderer;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void spaces(shelf_out *s, size_t n)
{
    while (n-- > 0) shelf_out_bytes(s, " ", 1);
}

static void end_block(renderer *r)
{
    if (r->block == 0) return;
    if (r->html) shelf_out_text(r->out, r->block == 'p' ? "</p>\n" : "</li>\n");
    else shelf_out_bytes(r->out, "\n", 1);
    r->last = r->block;
    r->block = 0;
    r->wrote = 1;
}

static void close_list(renderer *r)
{
    if (r->html && r->list) shelf_out_text(r->out, r->list == 'u' ? "</ul>\n" : "</ol>\n");
    r->list = 0;
}

/* Text: a blank line between blocks, except between two list items. */
static void separate(renderer *r, char next)
{
    if (!r->html && r->wrote && !(next == 'i' && r->last == 'i')) shelf_out_bytes(r->out, "\n", 1);
}

/* Text wrapping: words are never split unless longer than the width. */
static void word(renderer *r, const char *w, size_t n)
{
    size_t len = utf8_length(w, n);
    if (r->html) {
        if (r->col > 0) shelf_out_bytes(r->out, " ", 1);
        shelf_out_xml(r->out, w, n);
        r->col += len + 1;
        return;
    }
    if (r->col > r->indent) {
        if (r->col + 1 + len > r->width) {
            shelf_out_bytes(r->out, "\n", 1);
            spaces(r->out, r->indent);
            r->col = r->indent;
        } else {
            shelf_out_bytes(r->out, " ", 1);
            r->col++;
        }
    }
    while (r->col + len > r->width && len > 0) {
        size_t room = r->width > r->col ? r->width - r->col : 1, i = 0, k = 0;
        while (k < room && i < n) {         /* `room` code points */
            i++;
            while (i < n && ((unsigned char)w[i] & 0xC0) == 0x80) i++;
            k++;
        }
        shelf_out_bytes(r->out, w, i);
        w += i;
        n -= i;
        len -= k;
        if (len == 0) {
            r->col += k;
            return;
        }
        shelf_out_bytes(r->out, "\n", 1);
        spaces(r->out, r->indent);
        r->col = r->indent;
    }
    shelf_out_bytes(r->out, w, n);
    r->col += len;
}

static void words(renderer *r, const char *t, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t b;
        while (i < n && is_blank(t[i])) i++;
        b = i;
        while (i < n && !is_blank(t[i])) i++;
        if (i > b) word(r, t + b, i - b);
    }
}

static void begin_paragraph(renderer *r)
{
    close_list(r);
    separate(r, 'p');
    if (r->html) shelf_out_text(r->out, "<p>");
    r->block = 'p';
    r->col = r->indent = 0;
}

static void begin_item(renderer *r, const char *marker, size_t n, char list)
{
    if (r->html) {
        if (r->list != list) {
            close_list(r);
            shelf_out_text(r->out, list == 'u' ? "<ul>\n" : "<ol>\n");
            r->list = list;
        }
        shelf_out_text(r->out, "<li>");
        r->col = 0;
    } else {
        separate(r, 'i');
        shelf_out_bytes(r->out, marker, n);
        shelf_out_bytes(r->out, " ", 1);
        r->col = r->indent = utf8_length(marker, n) + 1;
    }
    r->block = 'i';
}

static void heading(renderer *r, int level, const char *t, size_t n)
{
    while (n > 0 && is_blank(*t)) { t++; n--; }
    end_block(r);
    close_list(r);
    if (r->html) {
        char tag[8];
        snprintf(tag, sizeof tag, "<h%d>", level);
        shelf_out_text(r->out, tag);
        r->col = 0;
        words(r, t, n);
        snprintf(tag, sizeof tag, "</h%d>", level);
        shelf_out_text(r->out, tag);
        shelf_out_bytes(r->out, "\n", 1);
    } else {
        size_t len = utf8_length(t, n), i;
        separate(r, 'h');
        r->col = r->indent = 0;
        words(r, t, n);
        shelf_out_bytes(r->out, "\n", 1);
        if (len > r->width) len = r->width;
        for (i = 0; i < len; i++) shelf_out_bytes(r->out, level == 1 ? "=" : "-", 1);
        shelf_out_bytes(r->out, "\n", 1);
    }
    r->last = 'h';
    r->wrote = 1;
}

/* "- item", "* item", "+ item", "12. item": the marker length, 0 when not a list item. */
static size_t list_marker(const char *t, size_t n, char *list)
{
    size_t i = 0;
    if (n >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ') {
        *list = 'u';
        return 1;
    }
    while (i < n && i < 9 && t[i] >= '0' && t[i] <= '9') i++;
    if (i > 0 && i + 1 < n && (t[i] == '.' || t[i] == ')') && t[i + 1] == ' ') {
        *list = 'o';
        return i + 1;
    }
    return 0;
}

/* Markdown heading level 1..6, or 0. */
static int heading_level(const char *t, size_t n)
{
    size_t h = 0;
    while (h < n && t[h] == '#') h++;
    if (h >= 1 && h <= 6 && h < n && (t[h] == ' ' || t[h] == '\t')) return (int)h;
    return 0;
}

void render_chapter(const shelf_publication *book, const chapter *ch, const shelf_render_settings *rs,
                    shelf_out *out)
{
    renderer r;
    const char *t = book->text;
    size_t i = ch->start;
    int fenced = 0;
    memset(&r, 0, sizeof r);
    r.out = out;
    r.html = rs->html;
    r.width = (size_t)rs->width;

    while (i < ch->end && out->status == SHELF_OK) {
        const char *nl = memchr(t + i, '\n', ch->end - i);
        size_t le = nl ? (size_t)(nl - t) : ch->end, b = i, e = le, marker;
        char list = 0;
        while (b < e && is_blank(t[b])) b++;
        while (e > b && is_blank(t[e - 1])) e--;
        if (book->markdown && e - b >= 3 && (strncmp(t + b, "```", 3) == 0 || strncmp(t + b, "~~~", 3) == 0)) {
            if (!fenced) {
                end_block(&r);
                close_list(&r);
                separate(&r, 'c');
                if (r.html) shelf_out_text(out, "<pre><code>");
            } else {
                if (r.html) shelf_out_text(out, "</code></pre>\n");
                r.last = 'c';
                r.wrote = 1;
            }
            fenced = !fenced;
        } else if (fenced) {
            size_t ce = le;
            if (ce > i && t[ce - 1] == '\r') ce--;
            if (r.html) shelf_out_xml(out, t + i, ce - i);
            else shelf_out_bytes(out, t + i, ce - i);
            shelf_out_bytes(out, "\n", 1);
        } else if (b == e) {
            end_block(&r);
        } else if (book->markdown && b == i && heading_level(t + b, e - b)) {
            int level = heading_level(t + b, e - b);
            size_t hb = b + (size_t)level;
            while (e > hb && t[e - 1] == '#') e--;     /* closing hashes */
            heading(&r, level, t + hb, e - hb);
        } else if (!book->markdown && book_chapter_line(t + i, le - i)) {
            heading(&r, 2, t + b, e - b);
        } else if (book->markdown && (marker = list_marker(t + b, e - b, &list)) > 0) {
            end_block(&r);
            begin_item(&r, t + b, marker, list);
            words(&r, t + b + marker, e - b - marker);
        } else {
            if (r.block == 0) begin_paragraph(&r);
            words(&r, t + b, e - b);
        }
        i = le < ch->end ? le + 1 : ch->end;
    }
    if (fenced && r.html) shelf_out_text(out, "</code></pre>\n");
    end_block(&r);
    close_list(&r);
}
