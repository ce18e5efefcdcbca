/* Case- and accent-folded text for search (internal to the text plugin). */
#ifndef SHELF_TEXT_SEARCH_H
#define SHELF_TEXT_SEARCH_H

#include <stddef.h>

typedef struct folded {
    char *text;                 /* folded bytes, NUL-terminated */
    size_t *origin;             /* origin[i]: offset in the original of the code point that made
                                 * folded byte i; origin[size] is the original's size */
    size_t size;
} folded;

/* Folds text[0..size) (valid UTF-8). Returns 0 when out of memory. */
int folded_make(folded *f, const char *text, size_t size);
void folded_free(folded *f);

/* First occurrence of `needle` at or after `from`, or f->size. */
size_t folded_find(const folded *f, size_t from, const folded *needle);

#endif /* SHELF_TEXT_SEARCH_H */
