/* libshelf-plugin: UTF-8 checks, by the table of well-formed sequences in Unicode 15, 3.9.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

size_t shelf_utf8_sequence_(const unsigned char *s, size_t n, unsigned long *codepoint)
{
    unsigned long cp;
    size_t length, i;
    unsigned char low = 0x80, high = 0xBF;
    if (n == 0) return 0;
    if (s[0] < 0x80) {
        if (codepoint) *codepoint = s[0];
        return 1;
    }
    if (s[0] >= 0xC2 && s[0] <= 0xDF) { length = 2; cp = s[0] & 0x1F; }
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        length = 3; cp = s[0] & 0x0F;
        if (s[0] == 0xE0) low = 0xA0;           /* no overlong forms */
        if (s[0] == 0xED) high = 0x9F;          /* no surrogates */
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        length = 4; cp = s[0] & 0x07;
        if (s[0] == 0xF0) low = 0x90;
        if (s[0] == 0xF4) high = 0x8F;          /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (n < length) return 0;
    for (i = 1; i < length; i++) {
        unsigned char c = s[i];
        if (i == 1 ? (c < low || c > high) : (c < 0x80 || c > 0xBF)) return 0;
        cp = (cp << 6) | (c & 0x3F);
    }
    if (codepoint) *codepoint = cp;
    return length;
}

size_t shelf_utf8_check(const void *text, size_t size)
{
    const unsigned char *s = text;
    size_t i = 0;
    while (i < size) {
        size_t n;
        if (s[i] != 0 && s[i] < 0x80) {
            i++;
            continue;
        }
        n = s[i] == 0 ? 0 : shelf_utf8_sequence_(s + i, size - i, NULL);
        if (n == 0) return i;
        i += n;
    }
    return size;
}
