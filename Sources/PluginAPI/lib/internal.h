/* libshelf-plugin: declarations shared by the library's own files (never installed).
 * SPDX-License-Identifier: MIT */
#ifndef SHELF_HELPER_INTERNAL_H
#define SHELF_HELPER_INTERNAL_H

#include <shelf/helper.h>

/* Length of the valid UTF-8 sequence (no overlong forms, no surrogates, at most U+10FFFF) at
 * s[0..n), or 0 when the byte at s is not the start of one. Sets *codepoint when not NULL. */
size_t shelf_utf8_sequence_(const unsigned char *s, size_t n, unsigned long *codepoint);

/* Length of the JSON number at the start of text[0..size), or 0 when there is none. */
size_t shelf_number_scan_(const char *text, size_t size);

/* Replaces bytes while copying: returns the replacement of the character at s (setting *n to the
 * bytes it covers; *n is 1 on entry) or NULL to keep it. `scratch` may hold the replacement. */
typedef const char *(*shelf_escape_fn_)(const unsigned char *s, size_t left, size_t *n, char scratch[8]);
void shelf_out_escaped_(shelf_out *out, const char *text, size_t size, shelf_escape_fn_ escape);

/* Writes a JSON value's leading comma, or nothing after a key; marks the level as filled. */
void shelf_json_before_value_(shelf_out *out);

#endif
