/* JSON writing: escaping of every control character and of invalid UTF-8, structure, errors.
 * SPDX-License-Identifier: MIT */
#include "check.h"

#include <stdlib.h>

/* Writes `text` (size bytes) as one JSON string and returns the collected output (free it). */
static char *written(const char *text, size_t size)
{
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    shelf_out_init(&out, &w);
    shelf_json_string_n(&out, text, size);
    if (shelf_out_finish(&out, &err) != SHELF_OK) {
        collected_free(&c);
        return NULL;
    }
    return c.data;
}

static void every_control_character(void)
{
    static const char *const named[32] = {
        [8] = "\\b", [9] = "\\t", [10] = "\\n", [12] = "\\f", [13] = "\\r"
    };
    int c;
    for (c = 0; c < 0x20; c++) {
        char input[3] = { 'a', (char)c, 'z' }, expected[16];
        char *out = written(input, 3);
        if (named[c]) snprintf(expected, sizeof expected, "\"a%sz\"", named[c]);
        else snprintf(expected, sizeof expected, "\"a\\u%04xz\"", c);
        CHECK(out != NULL && strcmp(out, expected) == 0, "control 0x%02x: %s, expected %s", c, out ? out : "(null)", expected);
        /* and the reader gives the byte back */
        {
            shelf_json_doc *doc = shelf_json_parse(out, "test", NULL);
            const shelf_json_value *v = shelf_json_root(doc);
            CHECK(shelf_json_string_size(v) == 3 && memcmp(shelf_json_as_string(v, ""), input, 3) == 0,
                  "control 0x%02x does not read back", c);
            shelf_json_free(doc);
        }
        free(out);
    }
    {
        char *out = written("\x7f\"\\/", 4);
        CHECK(out && strcmp(out, "\"\\u007f\\\"\\\\/\"") == 0, "DEL, quote, backslash, slash: %s", out);
        free(out);
    }
}

static void invalid_utf8(void)
{
    /* Each is invalid as a whole; every byte that cannot start or continue a character is one U+FFFD. */
    static const struct { const char *bytes; const char *expected; } cases[] = {
        { "\x80", "\"\xEF\xBF\xBD\"" },                              /* a lone continuation byte */
        { "\xC0\xAF", "\"\xEF\xBF\xBD\xEF\xBF\xBD\"" },              /* overlong '/' */
        { "\xE0\x80\xAF", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"" }, /* overlong, three bytes */
        { "\xED\xA0\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"" }, /* a UTF-16 surrogate */
        { "\xF4\x90\x80\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"" }, /* above U+10FFFF */
        { "\xF5", "\"\xEF\xBF\xBD\"" },
        { "\xFF", "\"\xEF\xBF\xBD\"" },
        { "a\xE2\x82", "\"a\xEF\xBF\xBD\xEF\xBF\xBD\"" },            /* cut short at the end */
        { "\xE2\x82z", "\"\xEF\xBF\xBD\xEF\xBF\xBDz\"" },            /* cut short by an ASCII byte */
        { "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"" }, /* valid: kept */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = written(cases[i].bytes, strlen(cases[i].bytes));
        CHECK(out && strcmp(out, cases[i].expected) == 0, "invalid UTF-8 case %lu: %s", (unsigned long)i, out);
        CHECK(out && shelf_utf8_check(out, strlen(out)) == strlen(out), "case %lu: output is UTF-8", (unsigned long)i);
        free(out);
    }
    CHECK(shelf_utf8_check("ab\xC3", 3) == 2, "utf8_check: offset of a cut sequence");
    CHECK(shelf_utf8_check("a\0b", 3) == 1, "utf8_check: NUL is not text");
    /* every byte sequence of two bytes gives valid JSON that reads back */
    {
        int a, b, bad = 0;
        for (a = 0; a < 256; a++) for (b = 0; b < 256; b++) {
            char in[2] = { (char)a, (char)b };
            char *out = written(in, 2);
            shelf_json_doc *doc = out ? shelf_json_parse(out, "test", NULL) : NULL;
            if (doc == NULL) bad++;
            shelf_json_free(doc);
            free(out);
        }
        CHECK(bad == 0, "%d two-byte strings wrote JSON that does not parse", bad);
    }
}

static void structure(void)
{
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    shelf_out_init(&out, &w);
    shelf_json_begin_object(&out);
    shelf_json_member_string(&out, "a", "x");
    shelf_json_key(&out, "list");
    shelf_json_begin_array(&out);
    shelf_json_int(&out, -12);
    shelf_json_bool(&out, 1);
    shelf_json_null(&out);
    shelf_json_begin_object(&out);
    shelf_json_end_object(&out);
    shelf_json_begin_array(&out);
    shelf_json_end_array(&out);
    shelf_json_end_array(&out);
    shelf_json_member_int(&out, "big", INT64_MIN);
    shelf_json_end_object(&out);
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK, "structure: %s", err.message);
    CHECK(c.data && strcmp(c.data, "{\"a\":\"x\",\"list\":[-12,true,null,{},[]],\"big\":-9223372036854775808}") == 0,
          "structure: %s", c.data);
    collected_free(&c);

    /* misuse is a status, never a malformed document passed on silently */
    w = collector(&c);
    shelf_out_init(&out, &w);
    shelf_json_begin_array(&out);
    shelf_json_key(&out, "k");
    shelf_json_end_array(&out);
    memset(&err, 0, sizeof err);
    CHECK(shelf_out_finish(&out, &err) == SHELF_E_INTERNAL && strstr(err.message, "bug in the plugin"),
          "a key in an array: %s", err.message);
    collected_free(&c);
    w = collector(&c);
    shelf_out_init(&out, &w);
    shelf_json_begin_object(&out);
    shelf_json_string(&out, "no key");
    CHECK(shelf_out_finish(&out, &err) == SHELF_E_INTERNAL, "a value without a key");
    collected_free(&c);
    w = collector(&c);
    shelf_out_init(&out, &w);
    shelf_json_begin_object(&out);
    CHECK(shelf_out_finish(&out, &err) == SHELF_E_INTERNAL && strstr(err.message, "unclosed"), "unclosed: %s", err.message);
    collected_free(&c);
    {
        int i;
        w = collector(&c);
        shelf_out_init(&out, &w);
        for (i = 0; i < SHELF_OUT_MAX_DEPTH + 5; i++) shelf_json_begin_array(&out);
        CHECK(shelf_out_finish(&out, &err) == SHELF_E_INTERNAL, "too deep");
        collected_free(&c);
    }
    /* the writer's own error comes back, and nothing is written after it */
    w = collector(&c);
    c.refuse_after = 2;
    shelf_out_init(&out, &w);
    {
        char big[10000];
        memset(big, 'x', sizeof big);
        shelf_out_bytes(&out, big, sizeof big);
        shelf_out_bytes(&out, big, sizeof big);
    }
    CHECK(shelf_out_finish(&out, &err) == SHELF_E_LIMIT && err.status == SHELF_E_LIMIT, "writer refusal");
    CHECK(c.writes == 2, "nothing written after the refusal (%d writes)", c.writes);
    collected_free(&c);
}

static void xml(void)
{
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    const char in[] = "<a href=\"x\">Tom & Jerry's\x01\x0B\xFF\tok\xC3\xA9</a>";
    shelf_out_init(&out, &w);
    shelf_out_xml(&out, in, sizeof in - 1);
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK, "xml");
    CHECK(c.data && strcmp(c.data, "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\tok\xC3\xA9&lt;/a&gt;") == 0,
          "xml escaping: %s", c.data);
    collected_free(&c);
}

static void buffers(void)
{
    shelf_buffer b = { 0 };
    shelf_writer w;
    b.limit = 10;
    w = shelf_buffer_writer(&b);
    CHECK(w.write(w.context, "0123456789", 10) == SHELF_OK && b.size == 10 && strcmp(b.data, "0123456789") == 0, "ten bytes fit");
    CHECK(w.write(w.context, "x", 1) == SHELF_E_LIMIT && b.size == 10, "the eleventh is refused");
    shelf_buffer_reset(&b);
    CHECK(b.size == 0 && b.data[0] == '\0' && w.write(w.context, "ab", 2) == SHELF_OK && strcmp(b.data, "ab") == 0, "reset");
    shelf_buffer_free(&b);
    CHECK(b.data == NULL, "freed");
}

void test_writer(void)
{
    buffers();
    every_control_character();
    invalid_utf8();
    structure();
    xml();
}
