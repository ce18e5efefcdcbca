/*
 * A small, correct speech plugin on libshelf-plugin (speech.h, "shelf.speech/1"), built once per deliberate bug
 * with -DBUG=name (see the README): it "speaks" each word as a short tone, so its PCM is in proportion to the
 * words, with a word mark for each and a sentence mark for each sentence. A test fixture: never install it.
 *
 *   order     the word marks of a text come last word first
 *   outside   the last word's mark runs past the end of the text
 *   format    declares 16-bit samples (speech.h has only 32-bit float)
 *   silent    delivers silence
 *   nocancel  goes on speaking when its sink or the host says stop
 */
#include <shelf/helper.h>
#include <shelf/speech.h>

#include <ctype.h>
#include <math.h>
#include <string.h>

#define RATE 16000
#define WORD_FRAMES (RATE / 5)      /* 200 ms a word: 300 words a minute */
#define GAP_FRAMES (RATE / 20)

#define BUG_order 1
#define BUG_outside 2
#define BUG_format 3
#define BUG_silent 4
#define BUG_nocancel 5
#define IS_BUG_(name) (BUG_##name)
#define IS_BUG(name) IS_BUG_(name)
#ifdef BUG
#define HAS(bug) (IS_BUG(BUG) == BUG_##bug)
#else
#define HAS(bug) 0
#endif

static const shelf_host *host;

static shelf_status init(const shelf_host *h, shelf_error *err)
{
    (void)err;
    host = h;
    return SHELF_OK;
}

static shelf_status voices(const shelf_writer *writer, shelf_error *err)
{
    static const char *const languages[] = { "en", NULL };
    shelf_voice voice = { "tone", "A tone for each word", languages, NULL };
    shelf_out out;
    shelf_out_init(&out, writer);
    shelf_json_begin_array(&out);
    shelf_json_voice(&out, &voice);
    shelf_json_end_array(&out);
    return shelf_out_finish(&out, err);
}

typedef struct word { size_t offset, length; } word;

static int stops_sentence(const char *text, size_t end)
{
    return end > 0 && strchr(".!?", text[end - 1]) != NULL;
}

static shelf_status speak(const char *text, const char *options_json, shelf_audio_format *format,
                          const shelf_speech_sink *sink, shelf_error *err)
{
    static float tone[WORD_FRAMES + GAP_FRAMES];
    shelf_speech_options options;
    shelf_json_doc *doc = NULL;
    word words[4096];
    size_t count = 0, size = strlen(text), i = 0, w;
    int64_t frame = 0;
    int cancelled = 0;
    shelf_status status = shelf_speech_options_parse(options_json, size, &doc, &options, err);
    if (status != SHELF_OK) return status;
    if (options.voice != NULL && strcmp(options.voice, "tone") != 0) {
        status = shelf_error_set(err, SHELF_E_NOT_FOUND, options.voice, "no voice \"%s\": the only voice is \"tone\"", options.voice);
        shelf_json_free(doc);
        return status;
    }
    shelf_json_free(doc);
    format->sample_rate = RATE;
    format->channels = 1;
    format->sample_format = HAS(format) ? 2 : SHELF_AUDIO_SAMPLE_F32;
    format->total_frames = -1;
    for (w = 0; w < WORD_FRAMES + GAP_FRAMES; w++) {
        tone[w] = HAS(silent) || w >= WORD_FRAMES ? 0.0f : (float)(0.3 * sin(2 * 3.14159265358979 * 220.0 * (double)w / RATE));
    }
    while (i < size && count < sizeof words / sizeof *words) {
        while (i < size && isspace((unsigned char)text[i])) i++;
        if (i == size) break;
        words[count].offset = i;
        while (i < size && !isspace((unsigned char)text[i])) i++;
        words[count].length = i - words[count].offset;
        count++;
    }
    for (w = 0; w < count; w++) {
        size_t k = HAS(order) ? count - 1 - w : w;
        shelf_speech_mark mark;
        if (!HAS(nocancel) && host->is_cancelled(host)) return shelf_error_set(err, SHELF_E_CANCELLED, NULL, "cancelled");
        if (w == 0 || stops_sentence(text, words[w - 1].offset + words[w - 1].length)) {
            size_t end = w;
            while (end + 1 < count && !stops_sentence(text, words[end].offset + words[end].length)) end++;
            mark = shelf_speech_mark_make(SHELF_SPEECH_MARK_SENTENCE, words[w].offset,
                                          words[end].offset + words[end].length - words[w].offset, frame);
            if ((status = sink->mark(sink->context, &mark)) != SHELF_OK) {
                if (!HAS(nocancel)) goto stop;
                cancelled = 1;
            }
        }
        mark = shelf_speech_mark_make(SHELF_SPEECH_MARK_WORD, words[k].offset,
                                      words[k].length + (HAS(outside) && w + 1 == count ? 4 : 0), frame);
        if ((status = sink->mark(sink->context, &mark)) != SHELF_OK) {
            if (!HAS(nocancel)) goto stop;
            cancelled = 1;
        }
        if ((status = sink->pcm(sink->context, tone, WORD_FRAMES + GAP_FRAMES)) != SHELF_OK) {
            if (!HAS(nocancel)) goto stop;
            cancelled = 1;
        }
        frame += WORD_FRAMES + GAP_FRAMES;
    }
    if (cancelled) return shelf_error_set(err, SHELF_E_CANCELLED, NULL, "stopped late");
    return SHELF_OK;
stop:
    return shelf_error_set(err, status, NULL, "the host stopped the speech");
}

static const shelf_speech_v1 speech_table = { sizeof(shelf_speech_v1), voices, speak };

static const void *get_extension(const char *id)
{
    return strcmp(id, SHELF_EXT_SPEECH) == 0 ? &speech_table : NULL;
}

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.example.faulty-speech", "Faulty speech (test fixture)", "1.0.0", "MIT", "shelf",
    NULL, "A tone for each word, with one deliberate bug per build.", 0,
    NULL, NULL, NULL, init, NULL, get_extension,
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
