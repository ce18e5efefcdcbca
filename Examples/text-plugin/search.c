/*
 * Full-text search that ignores case and the common Latin diacritics.
 *
 * Text and query are both "folded": ASCII letters to lowercase, Latin-1 letters to their base
 * letters (é → e, Æ → ae, ß → ss), combining accents dropped, curly quotes made straight. The
 * folded text remembers, for each of its bytes, where it came from, so a match in the folded
 * text maps back to the exact original bytes for the highlight.
 */
#include "text.h"
#include "search.h"

#include <stdlib.h>

/* U+00C0..U+00FF: what each folds to (NULL: kept as is). */
static const char *const latin1[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", NULL, "o", "u", "u", "u", "u", "y", "th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", NULL, "o", "u", "u", "u", "u", "y", "th", "y"
};

/* The folded form of one code point: NULL to keep the original bytes, "" to drop it. */
static const char *fold(unsigned long cp, char *one)
{
    if (cp >= 'A' && cp <= 'Z') {
        one[0] = (char)(cp - 'A' + 'a');
        one[1] = '\0';
        return one;
    }
    if (cp >= 0xC0 && cp <= 0xFF) return latin1[cp - 0xC0];
    if (cp >= 0x300 && cp <= 0x36F) return "";          /* combining accents */
    if (cp == 0x152 || cp == 0x153) return "oe";
    if (cp == 0x2018 || cp == 0x2019) return "'";
    if (cp == 0x201C || cp == 0x201D) return "\"";
    return NULL;
}

int folded_make(folded *f, const char *text, size_t size)
{
    size_t i = 0, cap = size + 16;
    f->text = malloc(cap);
    f->origin = malloc(cap * sizeof *f->origin);
    f->size = 0;
    if (f->text == NULL || f->origin == NULL) {
        folded_free(f);
        return 0;
    }
    while (i < size) {
        unsigned long cp = (unsigned char)text[i];
        size_t len = utf8_sequence((const unsigned char *)text + i, size - i, &cp), k, n;
        char one[2];
        const char *to;
        if (len == 0) len = 1;          /* cannot happen after open's check; be safe anyway */
        to = fold(cp, one);
        if (to == NULL) {
            to = text + i;
            n = len;
        } else {
            n = strlen(to);
        }
        if (f->size + n + 1 > cap) {    /* "ß" (2 bytes) → "ss" never grows, but be general */
            size_t bigger = cap * 2;
            char *t = realloc(f->text, bigger);
            size_t *o;
            if (t == NULL) { folded_free(f); return 0; }
            f->text = t;
            o = realloc(f->origin, bigger * sizeof *o);
            if (o == NULL) { folded_free(f); return 0; }
            f->origin = o;
            cap = bigger;
        }
        for (k = 0; k < n; k++) {
            f->text[f->size] = to[k];
            f->origin[f->size] = i;
            f->size++;
        }
        i += len;
    }
    f->text[f->size] = '\0';
    f->origin[f->size] = size;
    return 1;
}

void folded_free(folded *f)
{
    free(f->text);
    free(f->origin);
    f->text = NULL;
    f->origin = NULL;
    f->size = 0;
}

/* First match of needle in f at or after `from`; returns f->size when none. */
size_t folded_find(const folded *f, size_t from, const folded *needle)
{
    size_t n = needle->size;
    if (n == 0 || n > f->size) return f->size;
    while (from + n <= f->size) {
        const char *hit = memchr(f->text + from, needle->text[0], f->size - n + 1 - from);
        if (hit == NULL) return f->size;
        from = (size_t)(hit - f->text);
        if (memcmp(hit, needle->text, n) == 0) return from;
        from++;
    }
    return f->size;
}
