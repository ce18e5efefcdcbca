/*
 * shelf's speech plugin: "shelf.speech/1" (speech.h) on libespeak-ng, Debian's speech synthesiser.
 *
 * eSpeak NG synthesises in the calling thread (AUDIO_OUTPUT_SYNCHRONOUS) and hands its 16-bit PCM to a callback,
 * a piece of a few tens of milliseconds at a time, with the events (word, sentence) that begin in that piece. The
 * callback turns both into what speech.h asks: float PCM and marks in bytes of the text. eSpeak keeps one voice
 * and one callback for the whole process, so the plugin does not set SHELF_PLUGIN_CONCURRENT_HANDLES: the host
 * serialises its calls.
 *
 * Hints: eSpeak takes SSML but not the ssml:ph of a span given apart from the text, nor PLS lexicons; both are
 * accepted and not used (speech.h: a hint a plugin cannot use never fails the call).
 */
#include "espeak_library.h"
#include "speech_plugin.h"

#include <shelf/helper.h>
#include <shelf/speech.h>

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const shelf_host *host;
static int sample_rate;
static pthread_once_t started = PTHREAD_ONCE_INIT;
static char start_failure[256];

/* eSpeak reads its data (espeak-ng-data: phonemes, dictionaries) when it starts: ~20 ms, paid at the first voices
 * or speak call, never by a command that only lists plugins. */
static void start_espeak(void)
{
    sample_rate = espeak.Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, NULL, espeakINITIALIZE_DONT_EXIT);
    if (sample_rate <= 0) {
        snprintf(start_failure, sizeof start_failure,
                 "eSpeak NG could not read its voices (espeak-ng-data): install them with apt-get install espeak-ng-data");
    }
}

static shelf_status require_espeak(shelf_error *err)
{
    pthread_once(&started, start_espeak);
    if (sample_rate <= 0) return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "%s", start_failure);
    return SHELF_OK;
}

static shelf_status init(const shelf_host *h, shelf_error *err)
{
    const char *missing = speech_espeak_load();
    if (missing != NULL) return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "%s", missing);
    host = h;
    return SHELF_OK;
}

/* ----- voices ------------------------------------------------------------------------------ */

/* eSpeak's languages field: a priority byte, a NUL-terminated name, again, until an empty name. */
static size_t voice_languages(const espeak_VOICE *v, const char **out, size_t capacity)
{
    const char *p = v->languages;
    size_t n = 0;
    while (p != NULL && p[0] != 0 && p[1] != 0 && n + 1 < capacity) {
        out[n++] = p + 1;
        p += 2 + strlen(p + 1);
    }
    out[n] = NULL;
    return n;
}

static shelf_status voices(const shelf_writer *writer, shelf_error *err)
{
    const espeak_VOICE **list;
    shelf_out out;
    shelf_status status = require_espeak(err);
    if (status != SHELF_OK) return status;
    list = espeak.ListVoices(NULL);
    shelf_out_init(&out, writer);
    shelf_json_begin_array(&out);
    for (; list != NULL && *list != NULL; list++) {
        const char *languages[8];
        shelf_voice voice;
        /* Variants ("mb/mb-de1", MBROLA voices) need data Debian ships apart: only eSpeak's own voices. */
        if (voice_languages(*list, languages, 8) == 0 || strncmp((*list)->identifier, "mb/", 3) == 0) continue;
        voice.id = languages[0];
        voice.name = (*list)->name;
        voice.languages = languages;
        voice.gender = (*list)->gender == 1 ? "male" : (*list)->gender == 2 ? "female" : NULL;
        shelf_json_voice(&out, &voice);
    }
    shelf_json_end_array(&out);
    return shelf_out_finish(&out, err);
}

/* ----- speak ------------------------------------------------------------------------------- */

/* What the callback needs for one call of speak. */
typedef struct speaking {
    const char *text;
    size_t size;
    const shelf_speech_sink *sink;
    shelf_status status;            /* the sink's refusal, or the host's cancellation */
    int64_t frames;                 /* delivered so far */
    int64_t last_frame;             /* of the last mark: marks never go back */
    size_t words_end;               /* where the last word mark ended (words do not overlap) */
    size_t sentence_end;            /* where the sentence last marked ends; 0 before the first */
    float buffer[4096];
} speaking;

/* eSpeak's callback has no context of its own, and eSpeak speaks one text at a time: the call in flight. */
static speaking *current;

/* Where the sentence starting at `start` ends: after its closing punctuation (. ! ? … and any closing quotes or
 * brackets) where a space or the end follows, else at the end of the text. eSpeak pauses on the same marks; its
 * own sentence events come only at clause ends, after the words they start, so the plugin cuts sentences itself. */
static size_t sentence_end(const char *text, size_t size, size_t start)
{
    size_t i = start;
    while (i < size) {
        unsigned char c = (unsigned char)text[i];
        size_t after = i + 1;
        int stop = c == '.' || c == '!' || c == '?';
        if (c == 0xE2 && i + 2 < size && (unsigned char)text[i + 1] == 0x80 && (unsigned char)text[i + 2] == 0xA6) {
            stop = 1;   /* … */
            after = i + 3;
        }
        if (stop) {
            while (after < size && strchr(".!?\"')]", text[after]) != NULL) after++;
            /* closing quotes in UTF-8: » ” ’ */
            while (after + 1 < size && (((unsigned char)text[after] == 0xC2 && (unsigned char)text[after + 1] == 0xBB)
                   || ((unsigned char)text[after] == 0xE2 && after + 2 < size && (unsigned char)text[after + 1] == 0x80
                       && ((unsigned char)text[after + 2] == 0x9D || (unsigned char)text[after + 2] == 0x99)))) {
                after += (unsigned char)text[after] == 0xC2 ? 2 : 3;
            }
            if (after >= size || isspace((unsigned char)text[after])) return after;
        }
        i = after;
    }
    while (size > start && isspace((unsigned char)text[size - 1])) size--;
    return size;
}

static int deliver(speaking *s, shelf_speech_mark mark)
{
    if (mark.frame < s->last_frame) mark.frame = s->last_frame;
    s->last_frame = mark.frame;
    s->status = s->sink->mark(s->sink->context, &mark);
    return s->status != SHELF_OK;
}

/* A word: first the mark of the sentence it opens, if it is past the last sentence, then its own. */
static int word(speaking *s, size_t offset, size_t end, int64_t frame)
{
    if (offset < s->words_end || end <= offset || end > s->size) return 0;
    if (offset >= s->sentence_end) {
        size_t start = offset;
        /* The sentence begins where the text after the last one does, its opening quote or bracket included. */
        if (s->sentence_end == 0) start = 0;
        else start = s->sentence_end;
        while (start < offset && isspace((unsigned char)s->text[start])) start++;
        s->sentence_end = sentence_end(s->text, s->size, offset);
        if (s->sentence_end < end) s->sentence_end = end;
        if (deliver(s, shelf_speech_mark_make(SHELF_SPEECH_MARK_SENTENCE, start, s->sentence_end - start, frame))) return 1;
    }
    s->words_end = end;
    return deliver(s, shelf_speech_mark_make(SHELF_SPEECH_MARK_WORD, offset, end - offset, frame));
}

static int synth_callback(short *wav, int samples, espeak_EVENT *events)
{
    speaking *s = current;
    espeak_EVENT *e;
    int i;
    if (s == NULL || s->status != SHELF_OK) return 1;
    if (host != NULL && host->is_cancelled(host)) {
        s->status = SHELF_E_CANCELLED;
        return 1;
    }
    for (e = events; e != NULL && e->type != espeakEVENT_LIST_TERMINATED; e++) {
        if (e->type != espeakEVENT_WORD || e->length <= 0 || e->text_position <= 0) continue;
        /* eSpeak counts characters from 1, and milliseconds from the start of this text's speech. */
        size_t first = (size_t)e->text_position - 1;
        size_t offset = shelf_utf8_offset_of_character(s->text, s->size, first);
        size_t end = shelf_utf8_offset_of_character(s->text, s->size, first + (size_t)e->length);
        if (word(s, offset, end, (int64_t)e->audio_position * sample_rate / 1000)) return 1;
    }
    for (i = 0; i < samples;) {
        int n = samples - i < 4096 ? samples - i : 4096, k;
        for (k = 0; k < n; k++) s->buffer[k] = (float)wav[i + k] / 32768.0f;
        s->status = s->sink->pcm(s->sink->context, s->buffer, (size_t)n);
        if (s->status != SHELF_OK) return 1;
        s->frames += n;
        i += n;
    }
    return 0;
}

/* The voice set last, by what asked for it: setting a voice reloads its dictionary, so the same one is kept. */
static char chosen[128];

static shelf_status choose_voice(const shelf_speech_options *o, shelf_error *err);

/* choose_voice, unless the same voice or language was asked for last time. */
static shelf_status keep_or_choose_voice(const shelf_speech_options *o, shelf_error *err)
{
    char key[128];
    shelf_status status;
    snprintf(key, sizeof key, "%s|%s", o->voice != NULL ? o->voice : "", o->language != NULL ? o->language : "");
    if (chosen[0] != 0 && strcmp(key, chosen) == 0) return SHELF_OK;
    chosen[0] = 0;
    status = choose_voice(o, err);
    if (status == SHELF_OK) snprintf(chosen, sizeof chosen, "%s", key);
    return status;
}

/* The voice for the options: the one named, else the best for the language, else eSpeak's default (English). */
static shelf_status choose_voice(const shelf_speech_options *o, shelf_error *err)
{
    if (o->voice != NULL) {
        if (espeak.SetVoiceByName(o->voice) != EE_OK) {
            return shelf_error_set(err, SHELF_E_NOT_FOUND, o->voice, "eSpeak NG has no voice \"%s\" (the voices call lists them)", o->voice);
        }
        return SHELF_OK;
    }
    if (o->language != NULL) {
        char language[64];
        espeak_VOICE spec;
        size_t i;
        /* BCP 47 says "en-GB", eSpeak "en-gb". */
        for (i = 0; o->language[i] != 0 && i + 1 < sizeof language; i++) language[i] = (char)tolower((unsigned char)o->language[i]);
        language[i] = 0;
        /* By name first: eSpeak finds "fr" or "en-gb" at once, where a search by properties reads every voice file. */
        if (espeak.SetVoiceByName(language) == EE_OK) return SHELF_OK;
        memset(&spec, 0, sizeof spec);
        spec.languages = language;
        if (espeak.SetVoiceByProperties(&spec) == EE_OK) return SHELF_OK;
        /* A language eSpeak does not speak is read with the default voice rather than not at all. */
    }
    espeak.SetVoiceByName("en");
    return SHELF_OK;
}

static shelf_status speak(const char *text, const char *options_json, shelf_audio_format *format,
                          const shelf_speech_sink *sink, shelf_error *err)
{
    shelf_speech_options options;
    shelf_json_doc *doc = NULL;
    speaking *s;
    size_t size = strlen(text), i;
    shelf_status status = require_espeak(err);
    if (status != SHELF_OK) return status;
    if (shelf_utf8_check(text, size) != size) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "the text is not UTF-8 (byte %zu)", shelf_utf8_check(text, size));
    }
    status = shelf_speech_options_parse(options_json, size, &doc, &options, err);
    if (status != SHELF_OK) return status;
    if ((format->sample_rate != 0 && format->sample_rate != (uint32_t)sample_rate) || (format->channels > 1)) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "eSpeak NG speaks mono at %d Hz only", sample_rate);
    }
    format->sample_rate = (uint32_t)sample_rate;
    format->channels = 1;
    format->sample_format = SHELF_AUDIO_SAMPLE_F32;
    format->total_frames = -1;
    format->frames_exact = 0;
    status = keep_or_choose_voice(&options, err);
    if (status == SHELF_OK) {
        /* eSpeak's normal rate is 175 words a minute. */
        espeak.SetParameter(espeakRATE, (int)(175 * options.rate + 0.5), 0);
    }
    shelf_json_free(doc);
    if (status != SHELF_OK) return status;
    for (i = 0; i < size && isspace((unsigned char)text[i]); i++) {}
    if (i == size) return SHELF_OK;
    s = calloc(1, sizeof *s);
    if (s == NULL) return shelf_error_no_memory(err, "speaking");
    s->text = text;
    s->size = size;
    s->sink = sink;
    s->status = SHELF_OK;
    current = s;
    espeak.SetSynthCallback(synth_callback);
    /* Plain text: a "<" in a book is a "<", not markup (no espeakSSML). */
    if (espeak.Synth(text, size + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL) != EE_OK && s->status == SHELF_OK) {
        s->status = shelf_error_set(err, SHELF_E_INTERNAL, NULL, "eSpeak NG refused the text");
    }
    espeak.Synchronize();
    current = NULL;
    status = s->status;
    free(s);
    if (status == SHELF_E_CANCELLED) return shelf_error_set(err, status, NULL, "speaking was cancelled");
    if (status != SHELF_OK && err->message[0] == 0) return shelf_error_set(err, status, NULL, "the host refused the speech");
    return status;
}

/* ----- descriptor -------------------------------------------------------------------------- */

static const shelf_speech_v1 speech_table = {
    .struct_size = sizeof(shelf_speech_v1),
    .voices = voices,
    .speak = speak,
};

static const void *get_extension(const char *id)
{
    return strcmp(id, SHELF_EXT_SPEECH) == 0 ? &speech_table : NULL;
}

static const shelf_plugin_descriptor descriptor = {
    .struct_size = sizeof(shelf_plugin_descriptor),
    .abi_major = SHELF_ABI_MAJOR,
    .abi_minor = SHELF_ABI_MINOR,
    .id = "org.shelf.speech.espeak-ng",
    .name = "Speech (eSpeak NG)",
    .version = "1.0.0",
    .license = "MIT",
    .vendor = "shelf",
    .url = NULL,
    .description = "Reads books aloud with eSpeak NG, in the language of each passage.",
    .flags = 0,
    .init = init,
    .deinit = NULL,
    .get_extension = get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
