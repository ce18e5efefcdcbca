/* The speech helpers: `speak`'s options read strictly with their defaults, a voice written, marks
 * and character offsets as speech.h says.
 * SPDX-License-Identifier: MIT */
#include "check.h"

static void options(void)
{
    shelf_speech_options o;
    shelf_json_doc *doc = NULL;
    shelf_error err;
    const char *text = "Caf\xc3\xa9 au lait.";  /* 15 bytes */
    CHECK(shelf_speech_options_parse(NULL, 15, &doc, &o, &err) == SHELF_OK && doc == NULL, "NULL is the defaults");
    CHECK(o.rate == 1 && o.voice == NULL && o.language == NULL && o.pronunciation_count == 0, "defaults: rate 1, no voice");
    memset(&err, 0, sizeof err);
    CHECK(shelf_speech_options_parse("{\"voice\":\"fr\",\"language\":\"fr-FR\",\"rate\":9,"
                                     "\"pronunciations\":[{\"offset\":0,\"length\":5,\"ph\":\"kafe\"},"
                                     "{\"offset\":12,\"length\":9,\"ph\":\"outside\"}],"
                                     "\"lexicons\":[\"<lexicon/>\"]}", strlen(text), &doc, &o, &err) == SHELF_OK,
          "options read: %s", err.message);
    CHECK(o.voice != NULL && strcmp(o.voice, "fr") == 0 && strcmp(o.language, "fr-FR") == 0, "voice and language");
    CHECK(o.rate == 3, "a rate past 3 is clamped to 3, not %g", o.rate);
    CHECK(o.pronunciation_count == 1 && o.pronunciations[0].length == 5 && strcmp(o.pronunciations[0].alphabet, "ipa") == 0,
          "the span inside the text is kept with ipa, the one past its end dropped (%zu)", o.pronunciation_count);
    CHECK(o.lexicon_count == 1 && strcmp(o.lexicons[0], "<lexicon/>") == 0, "one lexicon");
    shelf_json_free(doc);
    memset(&err, 0, sizeof err);
    CHECK(shelf_speech_options_parse("{\"rate\":\"fast\"}", 15, &doc, &o, &err) == SHELF_E_INVALID_ARGUMENT && doc == NULL
          && strstr(err.message, "rate") != NULL, "a rate that is no number is refused naming it: %s", err.message);
    CHECK(shelf_speech_options_parse("{\"voice\":1,}", 15, &doc, &o, &err) == SHELF_E_INVALID_ARGUMENT, "malformed JSON refused");
    CHECK(shelf_speech_options_parse("[]", 15, &doc, &o, &err) == SHELF_E_INVALID_ARGUMENT, "an array is not options");
}

static void voices_and_marks(void)
{
    static const char *const languages[] = { "en-GB", "en", NULL };
    shelf_voice voice = { "en-gb", "English \"GB\"", languages, NULL };
    collected c;
    shelf_writer w = collector(&c);
    shelf_out out;
    shelf_error err;
    shelf_speech_mark mark = shelf_speech_mark_make(SHELF_SPEECH_MARK_WORD, 4, 3, 880);
    shelf_out_init(&out, &w);
    shelf_json_voice(&out, &voice);
    CHECK(shelf_out_finish(&out, &err) == SHELF_OK, "voice written");
    CHECK(c.data && strcmp(c.data, "{\"id\":\"en-gb\",\"name\":\"English \\\"GB\\\"\",\"languages\":[\"en-GB\",\"en\"],\"gender\":null}") == 0,
          "voice JSON: %s", c.data ? c.data : "(nothing)");
    collected_free(&c);
    CHECK(mark.struct_size == sizeof mark && mark.kind == SHELF_SPEECH_MARK_WORD && mark.text_offset == 4 && mark.frame == 880,
          "a mark made whole");
    CHECK(shelf_utf8_offset_of_character("Caf\xc3\xa9 x", 7, 4) == 5, "the fifth character of 'Caf\\u00e9 x' is at byte 5");
    CHECK(shelf_utf8_offset_of_character("ab", 2, 9) == 2, "past the end is the size");
}

void test_speech(void)
{
    options();
    voices_and_marks();
}
