/*
 * A small, tolerant JSON reader and a buffered writer.
 *
 * The reader checks the whole document against the JSON grammar (so malformed input is an error,
 * never a crash or a read past the end) and records the values at the paths the caller asks
 * for. Unknown keys are skipped, as plugin.h asks. Numbers are parsed by hand so that the
 * host's locale can never change what "0.5" means.
 */
#include "text.h"

#include <stdlib.h>

#define JSON_MAX_DEPTH 64
#define JSON_MAX_PATH 128

typedef struct scanner {
    const char *start;
    const char *p;
    const char *problem;        /* static text, set on the first error */
    json_want *wants;
    size_t count;
} scanner;

static int fail(scanner *s, const char *problem)
{
    if (s->problem == NULL) {
        s->problem = problem;
    }
    return 0;
}

static void skip_space(scanner *s)
{
    while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r') {
        s->p++;
    }
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* At an opening quote: checks the string and returns its raw contents. */
static int scan_string(scanner *s, const char **raw, size_t *size)
{
    const char *begin;
    if (*s->p != '"') {
        return fail(s, "expected a string");
    }
    begin = ++s->p;
    for (;;) {
        unsigned char c = (unsigned char)*s->p;
        if (c == '\0') {
            return fail(s, "unterminated string");
        }
        if (c < 0x20) {
            return fail(s, "control character inside a string");
        }
        if (c == '"') {
            break;
        }
        if (c == '\\') {
            char e = s->p[1];
            if (e == 'u') {
                int i;
                for (i = 2; i < 6; i++) {
                    if (hex_digit(s->p[i]) < 0) {   /* stops at the NUL: no over-read */
                        return fail(s, "bad \\u escape");
                    }
                }
                s->p += 6;
                continue;
            }
            if (e == '\0' || strchr("\"\\/bfnrt", e) == NULL) {
                return fail(s, "bad escape in a string");
            }
            s->p += 2;
            continue;
        }
        s->p++;
    }
    *raw = begin;
    *size = (size_t)(s->p - begin);
    s->p++;
    return 1;
}

static int scan_number(scanner *s, double *value)
{
    double v = 0, scale;
    int negative = 0, exponent = 0, exp_negative = 0, digits = 0;
    if (*s->p == '-') {
        negative = 1;
        s->p++;
    }
    if (*s->p == '0') {
        s->p++;
        digits = 1;
    } else {
        while (*s->p >= '0' && *s->p <= '9') {
            v = v * 10 + (*s->p++ - '0');
            digits++;
        }
    }
    if (digits == 0) {
        return fail(s, "bad number");
    }
    if (*s->p == '.') {
        s->p++;
        digits = 0;
        scale = 0.1;
        while (*s->p >= '0' && *s->p <= '9') {
            v += (*s->p++ - '0') * scale;
            scale /= 10;
            digits++;
        }
        if (digits == 0) {
            return fail(s, "bad number");
        }
    }
    if (*s->p == 'e' || *s->p == 'E') {
        s->p++;
        if (*s->p == '+' || *s->p == '-') {
            exp_negative = *s->p++ == '-';
        }
        digits = 0;
        while (*s->p >= '0' && *s->p <= '9') {
            if (exponent < 1000) {
                exponent = exponent * 10 + (*s->p - '0');
            }
            s->p++;
            digits++;
        }
        if (digits == 0) {
            return fail(s, "bad number");
        }
        while (exponent-- > 0) {
            v = exp_negative ? v / 10 : v * 10;
        }
    }
    *value = negative ? -v : v;
    return 1;
}

static int literal(scanner *s, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(s->p, word, n) != 0) {   /* strncmp stops at the NUL */
        return fail(s, "unexpected character");
    }
    s->p += n;
    return 1;
}

static json_want *wanted(scanner *s, const char *path)
{
    size_t i;
    if (path == NULL) {
        return NULL;
    }
    for (i = 0; i < s->count; i++) {
        if (strcmp(s->wants[i].path, path) == 0) {
            return &s->wants[i];
        }
    }
    return NULL;
}

/* `path` is the dotted path of this value, or NULL when no wanted value can be inside it. */
static int scan_value(scanner *s, char *path, int depth)
{
    json_want *want = wanted(s, path);
    skip_space(s);
    if (depth > JSON_MAX_DEPTH) {
        return fail(s, "nested too deeply");
    }
    if (*s->p == '{') {
        size_t base = path ? strlen(path) : 0;
        if (want) want->type = JSON_OBJECT;
        s->p++;
        skip_space(s);
        if (*s->p == '}') {
            s->p++;
            return 1;
        }
        for (;;) {
            const char *key;
            size_t key_size;
            char *child = NULL;
            skip_space(s);
            if (!scan_string(s, &key, &key_size)) {
                return fail(s, "expected a key in quotes");
            }
            /* Keys with escapes never match a wanted path; that is fine for our keys. */
            if (path != NULL && memchr(key, '\\', key_size) == NULL
                && base + 1 + key_size < JSON_MAX_PATH) {
                child = path;
                if (base > 0) {
                    child[base] = '.';
                    memcpy(child + base + 1, key, key_size);
                    child[base + 1 + key_size] = '\0';
                } else {
                    memcpy(child, key, key_size);
                    child[key_size] = '\0';
                }
            }
            skip_space(s);
            if (*s->p != ':') {
                return fail(s, "expected ':' after a key");
            }
            s->p++;
            if (!scan_value(s, child, depth + 1)) {
                return 0;
            }
            if (path != NULL) {
                path[base] = '\0';
            }
            skip_space(s);
            if (*s->p == ',') {
                s->p++;
                continue;
            }
            if (*s->p == '}') {
                s->p++;
                return 1;
            }
            return fail(s, "expected ',' or '}' in an object");
        }
    }
    if (*s->p == '[') {
        if (want) want->type = JSON_ARRAY;
        s->p++;
        skip_space(s);
        if (*s->p == ']') {
            s->p++;
            return 1;
        }
        for (;;) {
            if (!scan_value(s, NULL, depth + 1)) {
                return 0;
            }
            skip_space(s);
            if (*s->p == ',') {
                s->p++;
                continue;
            }
            if (*s->p == ']') {
                s->p++;
                return 1;
            }
            return fail(s, "expected ',' or ']' in an array");
        }
    }
    if (*s->p == '"') {
        const char *raw;
        size_t size;
        if (!scan_string(s, &raw, &size)) {
            return 0;
        }
        if (want) {
            want->type = JSON_STRING;
            want->raw = raw;
            want->raw_size = size;
        }
        return 1;
    }
    if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) {
        double v;
        if (!scan_number(s, &v)) {
            return 0;
        }
        if (want) {
            want->type = JSON_NUMBER;
            want->number = v;
        }
        return 1;
    }
    if (*s->p == 't' || *s->p == 'f') {
        int truth = *s->p == 't';
        if (!literal(s, truth ? "true" : "false")) {
            return 0;
        }
        if (want) {
            want->type = JSON_BOOL;
            want->boolean = truth;
        }
        return 1;
    }
    if (*s->p == 'n') {
        if (!literal(s, "null")) {
            return 0;
        }
        if (want) want->type = JSON_NULL;
        return 1;
    }
    return fail(s, *s->p == '\0' ? "unexpected end" : "unexpected character");
}

shelf_status json_scan(const char *json, json_want *wants, size_t count, const char *what,
                       shelf_error *err)
{
    scanner s;
    char path[JSON_MAX_PATH];
    size_t i;
    for (i = 0; i < count; i++) {
        wants[i].type = JSON_MISSING;
        wants[i].raw = NULL;
        wants[i].raw_size = 0;
    }
    if (json == NULL) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the %s JSON is missing", what);
    }
    s.start = s.p = json;
    s.problem = NULL;
    s.wants = wants;
    s.count = count;
    path[0] = '\0';
    skip_space(&s);
    if (*s.p != '{') {
        s.problem = "it must be a JSON object ({...})";
    } else if (scan_value(&s, path, 0)) {
        skip_space(&s);
        if (*s.p != '\0') {
            s.problem = "extra characters after the object";
        }
    }
    if (s.problem != NULL) {
        char where[48];
        snprintf(where, sizeof where, "byte %lu", (unsigned long)(s.p - s.start));
        for (i = 0; i < count; i++) {
            wants[i].type = JSON_MISSING;
        }
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, where,
                               "the %s JSON is malformed at byte %lu: %s", what,
                               (unsigned long)(s.p - s.start), s.problem);
    }
    return SHELF_OK;
}

static size_t put_utf8(char *out, unsigned long cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static unsigned long hex4(const char *p)
{
    return (unsigned long)((hex_digit(p[0]) << 12) | (hex_digit(p[1]) << 8)
                           | (hex_digit(p[2]) << 4) | hex_digit(p[3]));
}

char *json_string(const json_want *want)
{
    /* Decoding never grows a string: "\uXXXX" (6 bytes) is at most 3 bytes of UTF-8, and a
     * surrogate pair (12 bytes) is 4. json_scan already checked every escape. */
    const char *p = want->raw, *end = want->raw + want->raw_size;
    char *out = malloc(want->raw_size + 1), *o = out;
    if (out == NULL) {
        return NULL;
    }
    while (p < end) {
        if (*p != '\\') {
            *o++ = *p++;
            continue;
        }
        switch (p[1]) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned long cp = hex4(p + 2);
            if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u') {
                unsigned long low = hex4(p + 8);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    p += 6;
                }
            }
            if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) {
                cp = 0xFFFD;        /* a lone surrogate or NUL: the replacement character */
            }
            o += put_utf8(o, cp);
            p += 6;
            continue;
        }
        default: *o++ = p[1]; break;   /* \" \\ \/ */
        }
        p += 2;
    }
    *o = '\0';
    return out;
}

/* ----- writing -------------------------------------------------------------------------------- */

void sink_init(sink *s, const shelf_writer *writer)
{
    s->writer = writer;
    s->status = SHELF_OK;
    s->used = 0;
}

static void sink_flush(sink *s)
{
    if (s->status == SHELF_OK && s->used > 0) {
        s->status = s->writer->write(s->writer->context, s->buffer, s->used);
    }
    s->used = 0;
}

void sink_bytes(sink *s, const char *data, size_t size)
{
    while (size > 0 && s->status == SHELF_OK) {
        size_t room = sizeof s->buffer - s->used;
        size_t n = size < room ? size : room;
        memcpy(s->buffer + s->used, data, n);
        s->used += n;
        data += n;
        size -= n;
        if (s->used == sizeof s->buffer) {
            sink_flush(s);
        }
    }
}

void sink_str(sink *s, const char *text)
{
    sink_bytes(s, text, strlen(text));
}

void sink_size(sink *s, size_t value)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lu", (unsigned long)value);
    sink_str(s, digits);
}

void sink_fraction(sink *s, size_t num, size_t den)
{
    char digits[16];
    int i, last = 0;
    unsigned long long rest;
    if (den == 0 || num == 0) {
        sink_str(s, "0");
        return;
    }
    if (num >= den) {
        sink_str(s, "1");
        return;
    }
    rest = num;
    digits[0] = '0';
    digits[1] = '.';
    for (i = 0; i < 9; i++) {               /* exact long division: no rounding, no locale */
        rest *= 10;
        digits[2 + i] = (char)('0' + rest / den);
        rest %= den;
        if (digits[2 + i] != '0') {
            last = i;
        }
    }
    digits[3 + last] = '\0';
    sink_str(s, digits);
}

void sink_json_string(sink *s, const char *text, size_t size)
{
    sink_bytes(s, "\"", 1);
    sink_json_chars(s, text, size);
    sink_bytes(s, "\"", 1);
}

void sink_json_chars(sink *s, const char *text, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, run = 0;
    for (i = 0; i < size; i++) {
        unsigned char c = (unsigned char)text[i];
        const char *escape = NULL;
        char u[7];
        if (c == '"') escape = "\\\"";
        else if (c == '\\') escape = "\\\\";
        else if (c == '\n') escape = "\\n";
        else if (c == '\r') escape = "\\r";
        else if (c == '\t') escape = "\\t";
        else if (c < 0x20 || c == 0x7F) {
            u[0] = '\\'; u[1] = 'u'; u[2] = '0'; u[3] = '0';
            u[4] = hex[c >> 4]; u[5] = hex[c & 15]; u[6] = '\0';
            escape = u;
        }
        if (escape != NULL) {
            sink_bytes(s, text + run, i - run);
            sink_str(s, escape);
            run = i + 1;
        }
    }
    sink_bytes(s, text + run, size - run);
}

void sink_html(sink *s, const char *text, size_t size)
{
    size_t i, run = 0;
    for (i = 0; i < size; i++) {
        const char *escape = NULL;
        switch (text[i]) {
        case '<': escape = "&lt;"; break;
        case '>': escape = "&gt;"; break;
        case '&': escape = "&amp;"; break;
        case '"': escape = "&quot;"; break;
        default: break;
        }
        if (escape != NULL) {
            sink_bytes(s, text + run, i - run);
            sink_str(s, escape);
            run = i + 1;
        }
    }
    sink_bytes(s, text + run, size - run);
}

shelf_status sink_finish(sink *s, shelf_error *err)
{
    sink_flush(s);
    if (s->status != SHELF_OK) {
        return shelf_error_set(err, s->status, NULL,
                               "the host stopped accepting output (status %d)", (int)s->status);
    }
    return SHELF_OK;
}
