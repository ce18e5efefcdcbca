/* libshelf-plugin: JSON values written into a shelf_out, commas and escaping included.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

static void misuse(shelf_out *out)
{
    if (out->status == SHELF_OK) out->status = SHELF_E_INTERNAL;
}

void shelf_json_before_value_(shelf_out *out)
{
    if (out->after_key) {
        out->after_key = 0;
        return;
    }
    if (out->filled[out->depth] >= 2 || (out->depth == 0 && out->filled[0])) {
        misuse(out);                            /* a value where an object wants a key, or a second document */
        return;
    }
    if (out->filled[out->depth]) shelf_out_bytes(out, ",", 1);
    out->filled[out->depth] = 1;
}

/* Objects mark their level 2 ("wants keys") until a key arrives; arrays mark it 0 or 1. */
static void begin(shelf_out *out, const char *open, unsigned char level)
{
    shelf_json_before_value_(out);
    if (out->depth >= SHELF_OUT_MAX_DEPTH) {
        misuse(out);
        return;
    }
    shelf_out_bytes(out, open, 1);
    out->depth++;
    out->filled[out->depth] = level;
}

static void end(shelf_out *out, const char *close, int object)
{
    if (out->depth == 0 || out->after_key || (object != (out->filled[out->depth] >= 2))) {
        misuse(out);
        return;
    }
    shelf_out_bytes(out, close, 1);
    out->depth--;
}

/* In an object, filled is 2 (no member yet) or 3 (some members). */
void shelf_json_begin_object(shelf_out *out) { begin(out, "{", 2); }
void shelf_json_end_object(shelf_out *out) { end(out, "}", 1); }
void shelf_json_begin_array(shelf_out *out) { begin(out, "[", 0); }
void shelf_json_end_array(shelf_out *out) { end(out, "]", 0); }

/* RFC 8259: quote, backslash and control characters escaped; invalid UTF-8 as U+FFFD, per byte. */
static const char *json_escape(const unsigned char *s, size_t left, size_t *n, char scratch[8])
{
    static const char hex[] = "0123456789abcdef";
    switch (s[0]) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\b': return "\\b";
    case '\f': return "\\f";
    default: break;
    }
    if (s[0] < 0x20 || s[0] == 0x7F) {
        scratch[0] = '\\'; scratch[1] = 'u'; scratch[2] = '0'; scratch[3] = '0';
        scratch[4] = hex[s[0] >> 4]; scratch[5] = hex[s[0] & 15]; scratch[6] = '\0';
        return scratch;
    }
    if (s[0] < 0x80) return NULL;
    *n = shelf_utf8_sequence_(s, left, NULL);
    if (*n == 0) {
        *n = 1;
        return "\xEF\xBF\xBD";
    }
    return NULL;
}

static void string_body(shelf_out *out, const char *text, size_t size)
{
    shelf_out_escaped_(out, text, size, json_escape);
}

void shelf_json_key(shelf_out *out, const char *key)
{
    unsigned char *level = &out->filled[out->depth];
    if (out->depth == 0 || *level < 2 || out->after_key || key == NULL) {
        misuse(out);
        return;
    }
    if (*level == 3) shelf_out_bytes(out, ",", 1);
    *level = 3;
    shelf_out_bytes(out, "\"", 1);
    string_body(out, key, strlen(key));
    shelf_out_bytes(out, "\":", 2);
    out->after_key = 1;
}

void shelf_json_string_n(shelf_out *out, const char *text, size_t size)
{
    if (text == NULL) {
        shelf_json_null(out);
        return;
    }
    shelf_json_before_value_(out);
    shelf_out_bytes(out, "\"", 1);
    string_body(out, text, size);
    shelf_out_bytes(out, "\"", 1);
}

void shelf_json_string(shelf_out *out, const char *text)
{
    shelf_json_string_n(out, text, text ? strlen(text) : 0);
}

static void literal(shelf_out *out, const char *text)
{
    shelf_json_before_value_(out);
    shelf_out_text(out, text);
}

void shelf_json_int(shelf_out *out, int64_t value)
{
    char text[32], digits[24];
    uint64_t m = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    size_t n = 0, i = 0;
    do {
        digits[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m > 0);
    if (value < 0) text[i++] = '-';
    while (n > 0) text[i++] = digits[--n];
    text[i] = '\0';
    literal(out, text);
}

void shelf_json_number(shelf_out *out, double value)
{
    char text[32];
    shelf_number_format(value, text);
    literal(out, text);
}

void shelf_json_fraction(shelf_out *out, uint64_t num, uint64_t den)
{
    char digits[16];
    int i, last = 0;
    uint64_t rest;
    if (den == 0 || num == 0) {
        literal(out, "0");
        return;
    }
    if (num >= den) {
        literal(out, "1");
        return;
    }
    digits[0] = '0';
    digits[1] = '.';
    rest = num;
    for (i = 0; i < 9; i++) {                   /* long division: exact, no rounding up to 1 */
        /* rest < den; rest * 10 overflows only for den > 2^60, then scale both down first */
        if (rest > UINT64_MAX / 10) {
            rest >>= 4;
            den >>= 4;
        }
        rest *= 10;
        digits[2 + i] = (char)('0' + rest / den);
        rest %= den;
        if (digits[2 + i] != '0') last = i;
    }
    digits[3 + last] = '\0';
    literal(out, digits);
}

void shelf_json_bool(shelf_out *out, int value) { literal(out, value ? "true" : "false"); }
void shelf_json_null(shelf_out *out) { literal(out, "null"); }

void shelf_json_member_string(shelf_out *out, const char *key, const char *text)
{
    shelf_json_key(out, key);
    shelf_json_string(out, text);
}

void shelf_json_member_string_opt(shelf_out *out, const char *key, const char *text)
{
    if (text != NULL) shelf_json_member_string(out, key, text);
}

void shelf_json_member_int(shelf_out *out, const char *key, int64_t value)
{
    shelf_json_key(out, key);
    shelf_json_int(out, value);
}

void shelf_json_member_number_opt(shelf_out *out, const char *key, double value)
{
    if (value >= 0) {
        shelf_json_key(out, key);
        shelf_json_number(out, value);
    }
}

void shelf_json_member_bool(shelf_out *out, const char *key, int value)
{
    shelf_json_key(out, key);
    shelf_json_bool(out, value);
}
