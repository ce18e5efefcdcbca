/* Locators, render settings, manifests and reading-list entries in the shapes of the headers.
 * SPDX-License-Identifier: MIT */
#include "check.h"

#include <stdlib.h>

static void locators(void)
{
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    shelf_locator l, back;
    shelf_json_doc *doc = NULL;
    shelf_locator_init(&l);
    l.href = "chapter-2.xhtml";
    l.type = "application/xhtml+xml";
    l.title = "Chapter \"2\"";
    l.position = 7;
    l.progression = 0.25;
    l.total_progression = shelf_total_progression(7, 10);
    l.highlight = "word";
    shelf_out_init(&out, &w);
    shelf_json_locator(&out, &l);
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK, "locator");
    CHECK(c.data && strcmp(c.data, "{\"href\":\"chapter-2.xhtml\",\"type\":\"application/xhtml+xml\",\"title\":\"Chapter \\\"2\\\"\","
                                   "\"locations\":{\"position\":7,\"progression\":0.25,\"totalProgression\":0.6},"
                                   "\"text\":{\"highlight\":\"word\"}}") == 0, "locator: %s", c.data);
    CHECK(shelf_locator_parse(c.data, &doc, &back, &err) == SHELF_OK && back.position == 7 && back.progression == 0.25
          && back.total_progression == 0.6 && strcmp(back.href, l.href) == 0 && strcmp(back.title, l.title) == 0
          && strcmp(back.highlight, "word") == 0 && back.before == NULL,
          "the locator reads back: %s", err.message);
    shelf_json_free(doc);
    collected_free(&c);
    {
        static const struct { const char *json; const char *key; } bad[] = {
            { "{\"href\":3}", "href" }, { "{\"locations\":7}", "locations" },
            { "{\"locations\":{\"position\":1.5}}", "locations.position" },
            { "{\"locations\":{\"position\":0}}", "locations.position" },
            { "{\"locations\":{\"progression\":2}}", "locations.progression" },
            { "{\"locations\":{\"totalProgression\":\"half\"}}", "locations.totalProgression" },
            { "[1]", "" }, { "{\"href\":\"a\",}", "byte 12" },
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            memset(&err, 0, sizeof err);
            CHECK(shelf_locator_parse(bad[i].json, &doc, &back, &err) == SHELF_E_INVALID_ARGUMENT && doc == NULL
                  && strcmp(err.location, bad[i].key) == 0 && err.message[0],
                  "bad locator %s: %s at %s", bad[i].json, err.message, err.location);
        }
    }
    CHECK(shelf_total_progression(1, 4) == 0 && shelf_total_progression(4, 4) == 0.75, "(p - 1) / n");
}

static void settings(void)
{
    shelf_render_settings rs;
    shelf_error err;
    CHECK(shelf_render_settings_parse(NULL, &rs, &err) == SHELF_OK && !rs.html && rs.width == 72 && rs.font_scale == 100,
          "defaults");
    CHECK(shelf_render_settings_parse("{\"as\":\"html\",\"width\":3,\"fontScale\":9000,\"font\":\"sans\",\"theme\":\"sepia\",\"x\":1}",
                                      &rs, &err) == SHELF_OK
          && rs.html && rs.width == 10 && rs.font_scale == 800 && rs.sans && rs.theme == SHELF_THEME_SEPIA, "clamped");
    CHECK(shelf_render_settings_parse("{\"as\":\"pdf\",\"width\":\"wide\",\"theme\":\"purple\"}", &rs, &err) == SHELF_OK
          && !rs.html && rs.width == 72 && rs.theme == SHELF_THEME_DAY, "unknown values fall back");
    memset(&err, 0, sizeof err);
    CHECK(shelf_render_settings_parse("{\"width\": ", &rs, &err) == SHELF_E_INVALID_ARGUMENT && strstr(err.message, "render settings"),
          "malformed settings: %s", err.message);
    CHECK(shelf_render_settings_parse("[]", &rs, &err) == SHELF_E_INVALID_ARGUMENT, "settings must be an object");
}

static void manifest(void)
{
    static const char *const authors[] = { "Maren Holt", "A. N. Other", NULL };
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    shelf_metadata m;
    shelf_link link;
    shelf_json_doc *doc;
    const shelf_json_value *root;
    memset(&m, 0, sizeof m);
    m.title = "The Lighthouse Keeper";
    m.authors = authors;
    m.language = "en";
    m.identifier = "urn:isbn:9780142402498";
    m.duration = -1;
    shelf_out_init(&out, &w);
    shelf_manifest_begin(&out, &m);
    shelf_manifest_list(&out, "readingOrder");
    shelf_link_init(&link);
    link.href = "chapter-1.md";
    link.type = "text/markdown";
    link.title = "One";
    shelf_json_link(&out, &link);
    shelf_manifest_list_end(&out);
    shelf_manifest_end(&out);
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK, "manifest");
    doc = shelf_json_parse(c.data, "manifest", &err);
    root = shelf_json_root(doc);
    CHECK(doc && strcmp(shelf_json_as_string(shelf_json_path(root, "metadata.title"), ""), "The Lighthouse Keeper") == 0
          && strcmp(shelf_json_as_string(shelf_json_get(shelf_json_next(shelf_json_first(shelf_json_path(root, "metadata.author"))), "name"), ""), "A. N. Other") == 0
          && shelf_json_count(shelf_json_get(root, "links")) == 0
          && strcmp(shelf_json_as_string(shelf_json_get(shelf_json_first(shelf_json_get(root, "readingOrder")), "href"), ""), "chapter-1.md") == 0,
          "manifest: %s", c.data);
    shelf_json_free(doc);
    collected_free(&c);
}

static void entries(void)
{
    const char *text = "{\"entries\":[{\"identifiers\":{\"isbn13\":\"9780142402498\",\"tsv\":\"17\"},\"title\":\"Pippi\","
                       "\"authors\":[\"Astrid Lindgren\",\"Florence Lamborn\"],\"shelf\":\"read\",\"dateRead\":\"2021-01-02\",\"rating\":4.5},"
                       "{\"title\":\"Bad\",\"rating\":9},{\"authors\":\"one\"}]}";
    shelf_error err;
    shelf_json_doc *doc = shelf_json_parse(text, "entries", &err);
    const shelf_json_value *first = shelf_json_first(shelf_json_get(shelf_json_root(doc), "entries"));
    shelf_entry e;
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    CHECK(shelf_entry_read(first, "tsv", &e, &err) == SHELF_OK && strcmp(e.isbn13, "9780142402498") == 0 && strcmp(e.service_id, "17") == 0
          && e.rating == 4.5 && strcmp(e.authors[1], "Florence Lamborn") == 0 && e.authors[2] == NULL && e.isbn10 == NULL,
          "an entry: %s", err.message);
    shelf_out_init(&out, &w);
    shelf_json_entry(&out, &e, "tsv");
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK && c.data
          && strcmp(c.data, "{\"identifiers\":{\"isbn13\":\"9780142402498\",\"tsv\":\"17\"},\"title\":\"Pippi\",\"authors\":[\"Astrid Lindgren\","
                            "\"Florence Lamborn\"],\"shelf\":\"read\",\"shelves\":[\"read\"],\"dateRead\":\"2021-01-02\",\"rating\":4.5}") == 0,
          "written: %s", c.data);
    memset(&err, 0, sizeof err);
    CHECK(shelf_entry_read(shelf_json_next(first), NULL, &e, &err) == SHELF_E_INVALID_ARGUMENT && strcmp(err.location, "rating") == 0,
          "a rating of 9");
    CHECK(shelf_entry_read(shelf_json_next(shelf_json_next(first)), NULL, &e, &err) == SHELF_E_INVALID_ARGUMENT
          && strcmp(err.location, "authors") == 0, "authors as a string");
    collected_free(&c);
    shelf_json_free(doc);
}

static void files(void)
{
    char *data;
    size_t size;
    shelf_error err;
    memset(&err, 0, sizeof err);
    CHECK(shelf_read_file("/nonexistent/book.txt", 100, &data, &size, &err) == SHELF_E_NOT_FOUND && data == NULL
          && strstr(err.message, "/nonexistent/book.txt"), "missing file: %s", err.message);
    CHECK(shelf_read_file("/", 100, &data, &size, &err) == SHELF_E_BAD_DATA, "a folder");
    CHECK(shelf_read_file("/proc/self/exe", 10, &data, &size, &err) == SHELF_E_LIMIT && strstr(err.message, "more than"),
          "too large: %s", err.message);
}

void test_documents(void)
{
    locators();
    settings();
    manifest();
    entries();
    files();
}
