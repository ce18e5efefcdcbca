/* JSON reading: strictness, hostile and deeply nested input, messages that say where.
 * SPDX-License-Identifier: MIT */
#include "check.h"

#include <stdlib.h>

static shelf_error fresh(void)
{
    shelf_error e;
    memset(&e, 0, sizeof e);
    e.struct_size = sizeof e;
    return e;
}

static void accepted(void)
{
    shelf_error err = fresh();
    const char *text = " {\"href\":\"ch\\u00e9\\ud83d\\ude00\\/\",\"locations\":{\"position\":3,\"progression\":0.5e0},"
                       "\"list\":[1,-0.0,true,false,null,\"\",{},[]],\"dup\":1,\"dup\":2,\"nul\":\"a\\u0000b\","
                       "\"lone\":\"\\ud800x\"} \n";
    shelf_json_doc *doc = shelf_json_parse(text, "test", &err);
    const shelf_json_value *root = shelf_json_root(doc), *v;
    int64_t whole = 0;
    size_t n = 0;
    if (!CHECK(doc != NULL, "a valid document: %s", err.message)) return;
    CHECK(strcmp(shelf_json_as_string(shelf_json_get(root, "href"), ""), "ch\xC3\xA9\xF0\x9F\x98\x80/") == 0, "escapes decode");
    CHECK(shelf_json_as_whole(shelf_json_path(root, "locations.position"), &whole) && whole == 3, "a path");
    CHECK(shelf_json_as_number(shelf_json_path(root, "locations.progression"), 0) == 0.5, "0.5e0");
    CHECK(shelf_json_path(root, "locations.nothing") == NULL && shelf_json_path(root, "href.x") == NULL, "absent paths");
    CHECK(shelf_json_count(shelf_json_get(root, "list")) == 8, "eight elements");
    for (v = shelf_json_first(shelf_json_get(root, "list")); v; v = shelf_json_next(v)) n++;
    CHECK(n == 8, "iteration");
    CHECK(shelf_json_as_number(shelf_json_get(root, "dup"), 0) == 1, "the first duplicate key wins");
    CHECK(shelf_json_string_size(shelf_json_get(root, "nul")) == 3 && strcmp(shelf_json_as_string(shelf_json_get(root, "nul"), ""), "a") == 0,
          "\\u0000 keeps its size");
    CHECK(strcmp(shelf_json_as_string(shelf_json_get(root, "lone"), ""), "\xEF\xBF\xBDx") == 0, "a lone surrogate is U+FFFD");
    CHECK(strcmp(shelf_json_key_of(shelf_json_first(root)), "href") == 0, "keys");
    CHECK(shelf_json_as_string(shelf_json_get(root, "list"), "fallback")[0] == 'f', "fallbacks");
    CHECK(shelf_json_type_of(NULL) == SHELF_JSON_MISSING && shelf_json_get(NULL, "a") == NULL && shelf_json_count(NULL) == 0,
          "NULL is absent everywhere");
    shelf_json_free(doc);
}

static void refused(void)
{
    static const struct { const char *text; const char *words; } cases[] = {
        { "", "ends where a value" }, { "   ", "ends where a value" }, { "{", "expected a key" },
        { "[1,]", "trailing commas" }, { "{\"a\":1,}", "trailing commas" }, { "[1 2]", "expected ','" },
        { "{\"a\" 1}", "expected ':'" }, { "{a:1}", "expected a key" }, { "[01]", "leading zero" },
        { "[-01]", "leading zero" }, { "[1.]", "malformed number" }, { "[.5]", "unexpected character" },
        { "[+1]", "unexpected character" }, { "[1e]", "malformed number" }, { "[tru]", "unknown word" },
        { "[NaN]", "unexpected character" }, { "[\"a\tb\"]", "control character" }, { "[\"\\x\"]", "bad escape" },
        { "[\"\\u12\"]", "bad escape" }, { "[\"abc", "not closed" }, { "[\"\xC3\"]", "not valid UTF-8" },
        { "[\"\xED\xA0\x80\"]", "not valid UTF-8" }, { "[1] [2]", "more text" }, { "// c\n[1]", "unexpected character" },
        { "{'a':1}", "expected a key" }, { "\xEF\xBB\xBF[1]", "unexpected character" },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        shelf_error err = fresh();
        shelf_json_doc *doc = shelf_json_parse(cases[i].text, "test", &err);
        CHECK(doc == NULL && err.status == SHELF_E_INVALID_ARGUMENT && strstr(err.message, cases[i].words)
              && strstr(err.message, "the test JSON is malformed at line"),
              "\"%s\": %s (expected \"%s\")", cases[i].text, err.message, cases[i].words);
        shelf_json_free(doc);
    }
    {
        shelf_error err = fresh();
        CHECK(shelf_json_parse("{\n  \"a\": [1,\n    2,]\n}", "settings", &err) == NULL
              && strstr(err.message, "line 3, column 7") && strcmp(err.location, "byte 19") == 0,
              "line and column: %s (%s)", err.message, err.location);
        err = fresh();
        CHECK(shelf_json_parse(NULL, "settings", &err) == NULL && strstr(err.message, "missing"), "NULL input");
    }
}

static void nesting(void)
{
    char *deep = malloc(200001);
    int depth;
    shelf_error err;
    for (depth = 62; depth <= 66; depth++) {
        shelf_json_doc *doc;
        memset(deep, '[', (size_t)depth);
        memset(deep + depth, ']', (size_t)depth);
        deep[2 * depth] = '\0';
        err = fresh();
        doc = shelf_json_parse(deep, "deep", &err);
        if (depth <= SHELF_JSON_MAX_DEPTH) CHECK(doc != NULL, "depth %d is allowed: %s", depth, err.message);
        else CHECK(doc == NULL && err.status == SHELF_E_INVALID_ARGUMENT && strstr(err.message, "deeply"), "depth %d is refused", depth);
        shelf_json_free(doc);
    }
    /* a hundred thousand opening brackets: refused at depth 65, no stack exhausted */
    memset(deep, '[', 100000);
    deep[100000] = '\0';
    err = fresh();
    CHECK(shelf_json_parse(deep, "deep", &err) == NULL && err.status == SHELF_E_INVALID_ARGUMENT, "100000 brackets");
    memset(deep, '{', 100000);
    err = fresh();
    CHECK(shelf_json_parse(deep, "deep", &err) == NULL, "100000 braces");
    /* many values side by side are fine */
    {
        int i;
        shelf_json_doc *doc;
        deep[0] = '[';
        for (i = 0; i < 49999; i++) { deep[1 + 2 * i] = '0'; deep[2 + 2 * i] = ','; }
        deep[1 + 2 * 49999] = '0';
        deep[2 + 2 * 49999] = ']';
        deep[3 + 2 * 49999] = '\0';
        doc = shelf_json_parse(deep, "wide", &err);
        CHECK(doc && shelf_json_count(shelf_json_root(doc)) == 50000, "fifty thousand elements");
        shelf_json_free(doc);
    }
    free(deep);
}

/* Every prefix of valid documents, each in a buffer of exactly its size (ASan and valgrind catch
 * a read past the end), and random documents from JSON's own alphabet: an answer, never a crash. */
static void hostile(void)
{
    static const char *const documents[] = {
        "{\"href\":\"chapter-2.md#x\",\"locations\":{\"position\":2,\"progression\":0.5e0,\"fragments\":[\"a\",{}]},"
        "\"text\":{\"highlight\":\"\\u00e9\\ud83d\\ude00\\ud800\"}}",
        "[true,false,null,-0.0,1E+2,\"caf\xC3\xA9\",{\"\":[]}]",
    };
    static const char alphabet[] = "{}[]\":,.-+eE0123456789 truefalsn\\u\xC3\xA9\x80";
    size_t d, k, accepted = 0;
    unsigned long long state = 42;
    int round;
    for (d = 0; d < sizeof documents / sizeof documents[0]; d++) {
        size_t n = strlen(documents[d]);
        for (k = 0; k <= n; k++) {
            char *copy = malloc(k + 1);
            shelf_error err = fresh();
            shelf_json_doc *doc;
            memcpy(copy, documents[d], k);
            copy[k] = '\0';
            doc = shelf_json_parse(copy, "prefix", &err);
            CHECK(doc != NULL ? k == n : err.message[0] != '\0', "prefix %lu of document %lu", (unsigned long)k, (unsigned long)d);
            shelf_json_free(doc);
            free(copy);
        }
    }
    for (round = 0; round < 20000; round++) {
        char text[48];
        size_t n, i;
        shelf_json_doc *doc;
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        n = (size_t)(state >> 59) + (size_t)(round % 16);
        for (i = 0; i < n; i++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            text[i] = alphabet[(state >> 33) % (sizeof alphabet - 1)];
        }
        text[n] = '\0';
        doc = shelf_json_parse(text, "random", NULL);
        if (doc) accepted++;
        shelf_json_free(doc);
    }
    CHECK(accepted > 0, "some random documents are valid JSON (%lu)", (unsigned long)accepted);
}

void test_reader(void)
{
    accepted();
    refused();
    nesting();
    hostile();
}
