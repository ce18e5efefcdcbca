/* libshelf-plugin: a strict JSON reader for the documents a plugin receives.
 *
 * Recursive descent over a NUL-terminated text, depth-limited, building a flat array of values
 * linked by index (the array may move while it grows; pointers are handed out only once it is
 * done). Strings are decoded into one buffer of their own.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

#include <stdlib.h>

#define NONE ((size_t)-1)

struct shelf_json_value {
    const shelf_json_doc *doc;
    shelf_json_type type;
    int boolean;
    double number;
    size_t first, next, count;      /* children, by index */
    size_t string, string_size;     /* offsets into doc->strings */
    size_t key, key_size;
};

struct shelf_json_doc {
    shelf_json_value *values;
    size_t value_count, value_capacity;
    char *strings;
    size_t string_used, string_capacity;
};

typedef struct parser {
    shelf_json_doc *doc;
    const char *start, *p, *end;   /* *end is the terminating NUL */
    const char *problem;
    shelf_status status;
} parser;

static int fail(parser *s, shelf_status status, const char *problem)
{
    if (s->problem == NULL) {
        s->problem = problem;
        s->status = status;
    }
    return 0;
}

static void skip_space(parser *s)
{
    while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r') s->p++;
}

static int grow(void **data, size_t *capacity, size_t need, size_t unit)
{
    size_t n;
    void *bigger;
    if (need <= *capacity) return 1;
    n = *capacity ? *capacity : 16;
    while (n < need) n *= 2;
    bigger = realloc(*data, n * unit);
    if (bigger == NULL) return 0;
    *data = bigger;
    *capacity = n;
    return 1;
}

static size_t new_value(parser *s, shelf_json_type type)
{
    shelf_json_doc *d = s->doc;
    shelf_json_value *v;
    if (!grow((void **)&d->values, &d->value_capacity, d->value_count + 1, sizeof *v)) {
        fail(s, SHELF_E_NO_MEMORY, "out of memory");
        return NONE;
    }
    v = &d->values[d->value_count];
    memset(v, 0, sizeof *v);
    v->doc = d;
    v->type = type;
    v->first = v->next = NONE;
    return d->value_count++;
}

static int put_bytes(parser *s, const void *bytes, size_t n)
{
    shelf_json_doc *d = s->doc;
    if (!grow((void **)&d->strings, &d->string_capacity, d->string_used + n, 1)) {
        return fail(s, SHELF_E_NO_MEMORY, "out of memory");
    }
    memcpy(d->strings + d->string_used, bytes, n);
    d->string_used += n;
    return 1;
}

static int hex4(const char *p, unsigned long *value)
{
    int i;
    *value = 0;
    for (i = 0; i < 4; i++) {               /* stops at the NUL: never reads past the end */
        char c = p[i];
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (digit < 0) return 0;
        *value = *value * 16 + (unsigned long)digit;
    }
    return 1;
}

static size_t encode_utf8(unsigned long cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
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

/* At an opening quote: decodes the string into doc->strings (NUL-terminated). */
static int parse_string(parser *s, size_t *offset, size_t *size)
{
    if (*s->p != '"') return fail(s, SHELF_E_INVALID_ARGUMENT, "expected a string in double quotes");
    s->p++;
    *offset = s->doc->string_used;
    for (;;) {
        const char *run = s->p;
        while ((unsigned char)*s->p >= 0x20 && *s->p != '"' && *s->p != '\\' && (unsigned char)*s->p < 0x80) s->p++;
        if (s->p > run && !put_bytes(s, run, (size_t)(s->p - run))) return 0;
        if (*s->p == '"') break;
        if (*s->p == '\0') return fail(s, SHELF_E_INVALID_ARGUMENT, "a string is not closed");
        if ((unsigned char)*s->p < 0x20) {
            return fail(s, SHELF_E_INVALID_ARGUMENT, "a control character inside a string (write it as \\n, \\t or \\u00XX)");
        }
        if ((unsigned char)*s->p >= 0x80) {
            size_t n = shelf_utf8_sequence_((const unsigned char *)s->p, (size_t)(s->end - s->p), NULL);
            if (n == 0) return fail(s, SHELF_E_INVALID_ARGUMENT, "a string is not valid UTF-8");
            if (!put_bytes(s, s->p, n)) return 0;
            s->p += n;
            continue;
        }
        /* a backslash */
        {
            char e = s->p[1], out[4];
            const char *simple = e ? strchr("\"\\/bfnrt", e) : NULL;
            unsigned long cp, low;
            if (simple != NULL) {
                static const char decoded[] = "\"\\/\b\f\n\r\t";
                if (!put_bytes(s, &decoded[simple - "\"\\/bfnrt"], 1)) return 0;
                s->p += 2;
                continue;
            }
            if (e != 'u' || !hex4(s->p + 2, &cp)) {
                return fail(s, SHELF_E_INVALID_ARGUMENT, "a bad escape in a string (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)");
            }
            s->p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && s->p[0] == '\\' && s->p[1] == 'u' && hex4(s->p + 2, &low)
                && low >= 0xDC00 && low <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                s->p += 6;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;                /* a lone surrogate: the replacement character */
            }
            if (!put_bytes(s, out, encode_utf8(cp, out))) return 0;
        }
    }
    s->p++;
    *size = s->doc->string_used - *offset;
    return put_bytes(s, "", 1);
}

static size_t parse_value(parser *s, int depth);

static size_t parse_container(parser *s, int depth, int object)
{
    size_t self = new_value(s, object ? SHELF_JSON_OBJECT : SHELF_JSON_ARRAY), last = NONE;
    char close = object ? '}' : ']';
    if (self == NONE) return NONE;
    if (depth >= SHELF_JSON_MAX_DEPTH) {
        fail(s, SHELF_E_INVALID_ARGUMENT, "nested too deeply (more than 64 levels)");
        return NONE;
    }
    s->p++;
    skip_space(s);
    if (*s->p == close) {
        s->p++;
        return self;
    }
    for (;;) {
        size_t key = 0, key_size = 0, child;
        if (object) {
            skip_space(s);
            if (*s->p != '"') {
                fail(s, SHELF_E_INVALID_ARGUMENT, *s->p == '}' ? "a comma before '}' (trailing commas are not JSON)"
                                                               : "expected a key in double quotes");
                return NONE;
            }
            if (!parse_string(s, &key, &key_size)) return NONE;
            skip_space(s);
            if (*s->p != ':') {
                fail(s, SHELF_E_INVALID_ARGUMENT, "expected ':' after a key");
                return NONE;
            }
            s->p++;
        } else {
            skip_space(s);
            if (*s->p == ']') {
                fail(s, SHELF_E_INVALID_ARGUMENT, "a comma before ']' (trailing commas are not JSON)");
                return NONE;
            }
        }
        child = parse_value(s, depth + 1);
        if (child == NONE) return NONE;
        s->doc->values[child].key = key;
        s->doc->values[child].key_size = key_size;
        if (last == NONE) s->doc->values[self].first = child;
        else s->doc->values[last].next = child;
        last = child;
        s->doc->values[self].count++;
        skip_space(s);
        if (*s->p == ',') {
            s->p++;
            continue;
        }
        if (*s->p == close) {
            s->p++;
            return self;
        }
        fail(s, SHELF_E_INVALID_ARGUMENT, object ? "expected ',' or '}' after a member" : "expected ',' or ']' after an element");
        return NONE;
    }
}

static size_t parse_value(parser *s, int depth)
{
    size_t v;
    skip_space(s);
    switch (*s->p) {
    case '{': return parse_container(s, depth, 1);
    case '[': return parse_container(s, depth, 0);
    case '"': {
        size_t offset, size;
        v = new_value(s, SHELF_JSON_STRING);
        if (v == NONE || !parse_string(s, &offset, &size)) return NONE;
        s->doc->values[v].string = offset;
        s->doc->values[v].string_size = size;
        return v;
    }
    case 't': case 'f': case 'n': {
        static const char *const words[] = { "true", "false", "null" };
        int i = *s->p == 't' ? 0 : *s->p == 'f' ? 1 : 2;
        size_t n = strlen(words[i]);
        if (strncmp(s->p, words[i], n) != 0) {
            fail(s, SHELF_E_INVALID_ARGUMENT, "an unknown word (only true, false and null are JSON)");
            return NONE;
        }
        v = new_value(s, i == 2 ? SHELF_JSON_NULL : SHELF_JSON_BOOL);
        if (v == NONE) return NONE;
        s->doc->values[v].boolean = i == 0;
        s->p += n;
        return v;
    }
    default: {
        size_t n = shelf_number_scan_(s->p, (size_t)(s->end - s->p));
        double number;
        if (*s->p == '\0') {
            fail(s, SHELF_E_INVALID_ARGUMENT, "the document ends where a value should be");
            return NONE;
        }
        if (n == 0) {
            fail(s, SHELF_E_INVALID_ARGUMENT, *s->p == '-' || (*s->p >= '0' && *s->p <= '9')
                     ? "a malformed number" : "an unexpected character (not the start of a JSON value)");
            return NONE;
        }
        if (s->p[n] >= '0' && s->p[n] <= '9') {     /* "01": the scan stopped after the zero */
            fail(s, SHELF_E_INVALID_ARGUMENT, "a number with a leading zero");
            return NONE;
        }
        if (!shelf_number_parse(s->p, n, &number)) {
            fail(s, SHELF_E_NO_MEMORY, "out of memory");
            return NONE;
        }
        v = new_value(s, SHELF_JSON_NUMBER);
        if (v == NONE) return NONE;
        s->doc->values[v].number = number;
        s->p += n;
        return v;
    }
    }
}

shelf_json_doc *shelf_json_parse(const char *text, const char *what, shelf_error *err)
{
    parser s;
    size_t size;
    if (what == NULL) what = "input";
    if (text == NULL) {
        shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the %s JSON is missing", what);
        return NULL;
    }
    for (size = 0; size <= SHELF_JSON_MAX_SIZE && text[size] != '\0'; size++) {}
    if (size > SHELF_JSON_MAX_SIZE) {
        shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the %s JSON is larger than %lu MiB", what,
                        (unsigned long)(SHELF_JSON_MAX_SIZE >> 20));
        return NULL;
    }
    s.doc = calloc(1, sizeof *s.doc);
    if (s.doc == NULL) {
        shelf_error_no_memory(err, "reading JSON");
        return NULL;
    }
    s.start = s.p = text;
    s.end = text + size;
    s.problem = NULL;
    s.status = SHELF_OK;
    if (parse_value(&s, 0) != NONE) {
        skip_space(&s);
        if (*s.p != '\0') fail(&s, SHELF_E_INVALID_ARGUMENT, "more text after the JSON value");
    }
    if (s.problem != NULL) {
        size_t offset = (size_t)(s.p - s.start), line = 1, column = 1, i;
        char where[64];
        for (i = 0; i < offset; i++) {
            if (text[i] == '\n') { line++; column = 1; } else { column++; }
        }
        snprintf(where, sizeof where, "byte %lu", (unsigned long)offset);
        if (s.status == SHELF_E_NO_MEMORY) shelf_error_no_memory(err, "reading JSON");
        else shelf_error_set(err, s.status, where, "the %s JSON is malformed at line %lu, column %lu (byte %lu): %s",
                             what, (unsigned long)line, (unsigned long)column, (unsigned long)offset, s.problem);
        shelf_json_free(s.doc);
        return NULL;
    }
    return s.doc;
}

void shelf_json_free(shelf_json_doc *doc)
{
    if (doc == NULL) return;
    free(doc->values);
    free(doc->strings);
    free(doc);
}

const shelf_json_value *shelf_json_root(const shelf_json_doc *doc)
{
    return doc != NULL && doc->value_count > 0 ? &doc->values[0] : NULL;
}

shelf_json_type shelf_json_type_of(const shelf_json_value *value)
{
    return value ? value->type : SHELF_JSON_MISSING;
}

static const shelf_json_value *at(const shelf_json_value *any, size_t index)
{
    return index == NONE ? NULL : &any->doc->values[index];
}

const shelf_json_value *shelf_json_first(const shelf_json_value *container)
{
    if (container == NULL || (container->type != SHELF_JSON_ARRAY && container->type != SHELF_JSON_OBJECT)) return NULL;
    return at(container, container->first);
}

const shelf_json_value *shelf_json_next(const shelf_json_value *value)
{
    return value ? at(value, value->next) : NULL;
}

size_t shelf_json_count(const shelf_json_value *container)
{
    return shelf_json_first(container) ? container->count : 0;
}

const char *shelf_json_key_of(const shelf_json_value *member)
{
    return member && member->key_size + member->key > 0 ? member->doc->strings + member->key : "";
}

static const shelf_json_value *member_n(const shelf_json_value *object, const char *key, size_t n)
{
    const shelf_json_value *m;
    if (object == NULL || object->type != SHELF_JSON_OBJECT || key == NULL) return NULL;
    for (m = shelf_json_first(object); m != NULL; m = shelf_json_next(m)) {
        if (m->key_size == n && memcmp(m->doc->strings + m->key, key, n) == 0) return m;
    }
    return NULL;
}

const shelf_json_value *shelf_json_get(const shelf_json_value *object, const char *key)
{
    return key ? member_n(object, key, strlen(key)) : NULL;
}

const shelf_json_value *shelf_json_path(const shelf_json_value *value, const char *path)
{
    while (value != NULL && path != NULL) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        value = member_n(value, path, n);
        path = dot ? dot + 1 : NULL;
    }
    return value;
}

const char *shelf_json_as_string(const shelf_json_value *value, const char *fallback)
{
    return value && value->type == SHELF_JSON_STRING ? value->doc->strings + value->string : fallback;
}

size_t shelf_json_string_size(const shelf_json_value *value)
{
    return value && value->type == SHELF_JSON_STRING ? value->string_size : 0;
}

double shelf_json_as_number(const shelf_json_value *value, double fallback)
{
    return value && value->type == SHELF_JSON_NUMBER ? value->number : fallback;
}

int shelf_json_as_bool(const shelf_json_value *value, int fallback)
{
    return value && value->type == SHELF_JSON_BOOL ? value->boolean : fallback;
}

int shelf_json_as_whole(const shelf_json_value *value, int64_t *out)
{
    double v;
    if (value == NULL || value->type != SHELF_JSON_NUMBER) return 0;
    v = value->number;
    if (!(v >= -9007199254740992.0 && v <= 9007199254740992.0) || v != (double)(int64_t)v) return 0;
    *out = (int64_t)v;
    return 1;
}
