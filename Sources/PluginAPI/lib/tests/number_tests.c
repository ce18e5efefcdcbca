/* Numbers without the locale: under de_DE (decimal comma) the JSON still says 0.5.
 * SPDX-License-Identifier: MIT */
#include "check.h"

#include <locale.h>
#include <stdlib.h>

static void formats(const char *label)
{
    static const struct { double value; const char *text; } cases[] = {
        { 0.5, "0.5" }, { 0.1, "0.1" }, { -2.25, "-2.25" }, { 1.0 / 3.0, "0.3333333333333333" },
        { 123456789.125, "123456789.125" }, { 1e-7, "1e-07" }, { 3, "3" }, { -0.0, "0" },
        { 9007199254740993.0, "9007199254740992" }, { 1e300, "1e+300" }, { 0.30000000000000004, "0.30000000000000004" },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[32];
        double back = -1;
        shelf_number_format(cases[i].value, text);
        CHECK(strcmp(text, cases[i].text) == 0, "%s: %.17g wrote %s, expected %s", label, cases[i].value, text, cases[i].text);
        CHECK(shelf_number_parse(text, strlen(text), &back) && back == cases[i].value, "%s: %s reads back as %.17g", label, text, back);
    }
    {
        char text[32];
        double nan = 0.0;
        nan = nan / nan;
        shelf_number_format(nan, text);
        CHECK(strcmp(text, "null") == 0, "NaN is null");
    }
    /* a thousand pseudo-random doubles: shortest form, and the same double again */
    {
        unsigned long long state = 0x5EED;
        int i2, bad = 0;
        for (i2 = 0; i2 < 1000; i2++) {
            double v, back = 0;
            char text[32];
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            v = (double)(state >> 11) / 9007199254740992.0 * ((i2 % 7) ? 1.0 : 1e-5) - 0.25;
            shelf_number_format(v, text);
            if (strchr(text, ',') || !shelf_number_parse(text, strlen(text), &back) || back != v) bad++;
        }
        CHECK(bad == 0, "%s: %d of 1000 doubles do not survive writing and reading", label, bad);
    }
    {
        static const char *const bad[] = { "", "-", "01x", "1.", ".5", "1e", "1e+", "0,5", "+1", "1 ", "--1", NULL };
        double v;
        for (i = 0; bad[i]; i++) CHECK(!shelf_number_parse(bad[i], strlen(bad[i]), &v), "%s: \"%s\" is no number", label, bad[i]);
        CHECK(shelf_number_parse("1.25e2", 6, &v) && v == 125, "%s: 1.25e2", label);
        CHECK(shelf_number_parse("-0.5E-1", 7, &v) && v == -0.05, "%s: -0.5E-1", label);
    }
}

static void written_document(const char *label)
{
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    shelf_json_doc *doc;
    shelf_out_init(&out, &w);
    shelf_json_begin_array(&out);
    shelf_json_number(&out, 0.75);
    shelf_json_fraction(&out, 1, 3);
    shelf_json_fraction(&out, 0, 5);
    shelf_json_fraction(&out, 5, 5);
    shelf_json_fraction(&out, 1, 1024);
    shelf_json_number(&out, shelf_total_progression(3, 4));
    shelf_json_end_array(&out);
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK, "numbers document");
    CHECK(c.data && strcmp(c.data, "[0.75,0.333333333,0,1,0.000976562,0.5]") == 0, "%s: %s", label, c.data);
    doc = shelf_json_parse(c.data, "numbers", &err);
    CHECK(doc && shelf_json_as_number(shelf_json_first(shelf_json_root(doc)), 0) == 0.75, "%s: reads 0.75", label);
    shelf_json_free(doc);
    collected_free(&c);
}

void test_numbers(void)
{
    char probe[16];
    formats("C locale");
    written_document("C locale");
    if (!CHECK(setlocale(LC_ALL, "de_DE.UTF-8") != NULL,
               "the de_DE.UTF-8 locale is missing: `make -C Sources/PluginAPI test` compiles it into LOCPATH")) {
        return;
    }
    snprintf(probe, sizeof probe, "%.1f", 0.5);
    CHECK(strcmp(probe, "0,5") == 0, "de_DE writes a decimal comma (%s): the test would prove nothing", probe);
    formats("de_DE");
    written_document("de_DE");
    setlocale(LC_ALL, "C");
}
