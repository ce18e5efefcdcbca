/* libshelf-plugin: the options, voices and marks of speech plugins (speech.h, shelf.speech/1).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

static shelf_status wrong(shelf_error *err, const char *key, const char *what)
{
    return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, key, "speech option \"%s\" must be %s", key, what);
}

/* A string member, or NULL when absent; *bad set when present with another type. */
static const char *string_member(const shelf_json_value *root, const char *key, int *bad)
{
    const shelf_json_value *v = shelf_json_get(root, key);
    if (v == NULL || shelf_json_type_of(v) == SHELF_JSON_NULL) return NULL;
    if (shelf_json_type_of(v) != SHELF_JSON_STRING) *bad = 1;
    return shelf_json_as_string(v, NULL);
}

static shelf_status read_pronunciations(const shelf_json_value *list, size_t text_size, shelf_speech_options *o,
                                        shelf_error *err)
{
    const shelf_json_value *item;
    if (list == NULL) return SHELF_OK;
    if (shelf_json_type_of(list) != SHELF_JSON_ARRAY) return wrong(err, "pronunciations", "an array");
    for (item = shelf_json_first(list); item != NULL; item = shelf_json_next(item)) {
        int64_t offset, length;
        const char *ph = shelf_json_as_string(shelf_json_get(item, "ph"), NULL);
        if (shelf_json_type_of(item) != SHELF_JSON_OBJECT || ph == NULL
            || !shelf_json_as_whole(shelf_json_get(item, "offset"), &offset)
            || !shelf_json_as_whole(shelf_json_get(item, "length"), &length)) {
            return wrong(err, "pronunciations", "an array of {\"offset\": N, \"length\": N, \"ph\": \"...\"}");
        }
        /* A span outside the text is a hint that cannot apply: dropped (speech.h says hints never fail). */
        if (offset < 0 || length <= 0 || (uint64_t)offset + (uint64_t)length > text_size) continue;
        if (o->pronunciation_count == SHELF_SPEECH_MAX_PRONUNCIATIONS) break;
        o->pronunciations[o->pronunciation_count].offset = (size_t)offset;
        o->pronunciations[o->pronunciation_count].length = (size_t)length;
        o->pronunciations[o->pronunciation_count].ph = ph;
        o->pronunciations[o->pronunciation_count].alphabet =
            shelf_json_as_string(shelf_json_get(item, "alphabet"), "ipa");
        o->pronunciation_count++;
    }
    return SHELF_OK;
}

shelf_status shelf_speech_options_parse(const char *json, size_t text_size, shelf_json_doc **doc,
                                        shelf_speech_options *o, shelf_error *err)
{
    const shelf_json_value *root, *rate, *lexicons, *item;
    int bad = 0;
    shelf_status status;
    memset(o, 0, sizeof *o);
    o->rate = 1;
    *doc = NULL;
    if (json == NULL) return SHELF_OK;
    *doc = shelf_json_parse(json, "speech options", err);
    if (*doc == NULL) return err ? err->status : SHELF_E_INVALID_ARGUMENT;
    root = shelf_json_root(*doc);
    if (shelf_json_type_of(root) != SHELF_JSON_OBJECT) {
        status = shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL,
                                 "speech options must be a JSON object ({\"voice\": \"en\", ...})");
        goto fail;
    }
    o->voice = string_member(root, "voice", &bad);
    if (bad) { status = wrong(err, "voice", "a string (a voice id)"); goto fail; }
    o->language = string_member(root, "language", &bad);
    if (bad) { status = wrong(err, "language", "a string (a BCP 47 tag)"); goto fail; }
    rate = shelf_json_get(root, "rate");
    if (rate != NULL) {
        if (shelf_json_type_of(rate) != SHELF_JSON_NUMBER) { status = wrong(err, "rate", "a number"); goto fail; }
        o->rate = shelf_json_as_number(rate, 1);
        o->rate = o->rate < 0.5 ? 0.5 : o->rate > 3 ? 3 : o->rate;
    }
    status = read_pronunciations(shelf_json_get(root, "pronunciations"), text_size, o, err);
    if (status != SHELF_OK) goto fail;
    lexicons = shelf_json_get(root, "lexicons");
    if (lexicons != NULL) {
        if (shelf_json_type_of(lexicons) != SHELF_JSON_ARRAY) { status = wrong(err, "lexicons", "an array of PLS documents"); goto fail; }
        for (item = shelf_json_first(lexicons); item != NULL && o->lexicon_count < SHELF_SPEECH_MAX_LEXICONS;
             item = shelf_json_next(item)) {
            const char *pls = shelf_json_as_string(item, NULL);
            if (pls == NULL) { status = wrong(err, "lexicons", "an array of PLS documents (strings)"); goto fail; }
            o->lexicons[o->lexicon_count++] = pls;
        }
    }
    return SHELF_OK;
fail:
    shelf_json_free(*doc);
    *doc = NULL;
    return status;
}

void shelf_json_voice(shelf_out *out, const shelf_voice *voice)
{
    const char *const *language;
    shelf_json_begin_object(out);
    shelf_json_member_string(out, "id", voice->id);
    shelf_json_member_string(out, "name", voice->name != NULL ? voice->name : voice->id);
    shelf_json_key(out, "languages");
    shelf_json_begin_array(out);
    for (language = voice->languages; language != NULL && *language != NULL; language++) {
        shelf_json_string(out, *language);
    }
    shelf_json_end_array(out);
    shelf_json_key(out, "gender");
    shelf_json_string(out, voice->gender);
    shelf_json_end_object(out);
}

shelf_speech_mark shelf_speech_mark_make(uint32_t kind, size_t text_offset, size_t text_length, int64_t frame)
{
    shelf_speech_mark mark;
    memset(&mark, 0, sizeof mark);
    mark.struct_size = (uint32_t)sizeof mark;
    mark.kind = kind;
    mark.text_offset = text_offset;
    mark.text_length = text_length;
    mark.frame = frame;
    return mark;
}

size_t shelf_utf8_offset_of_character(const char *text, size_t size, size_t index)
{
    size_t at = 0;
    while (index > 0 && at < size) {
        size_t n = shelf_utf8_sequence_((const unsigned char *)text + at, size - at, NULL);
        at += n > 0 ? n : 1;
        index--;
    }
    return at < size ? at : size;
}
