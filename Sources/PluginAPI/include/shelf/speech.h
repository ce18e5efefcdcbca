/*
 * shelf plugin ABI, version 1 — speech synthesis.
 *
 *   "shelf.speech/1"   the voices a plugin offers; text in, PCM and word and sentence marks out
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here. A speech
 * plugin opens no publications: its descriptor may declare no media types and no services, and the
 * host finds it by this capability. The host reads a book aloud by handing a speech plugin the
 * book's text a passage at a time (a paragraph, a heading, an image's alt text), in reading order.
 *
 * Text.  UTF-8, NUL-terminated, plain: no markup. What the book says about how to speak it comes in
 *   the options (below): the language of the passage (xml:lang), pronunciations of spans of it (the
 *   EPUB's SSML attributes, ssml:ph) and pronunciation lexicons (PLS documents the book carries). A
 *   plugin that cannot use a hint speaks the text as written; it never fails because of a hint.
 *
 * Marks.  Where each word and each sentence of the text begins in the PCM, as `shelf_speech_mark`s:
 *   `text_offset` and `text_length` are in bytes of the text passed in, on UTF-8 character
 *   boundaries, inside the text (text_offset + text_length <= the text's length); `frame` is the
 *   frame of the PCM this call delivers (0 is the first) at which it starts being heard. Marks come
 *   in order: each mark's frame is at or after the previous mark's, and each mark of one kind starts
 *   at or after the end of the previous mark of that kind (words and sentences do not overlap their
 *   own kind). A mark is delivered before or with the PCM that holds its frame, never after. Every
 *   word of the text gets a word mark, and every sentence a sentence mark (a passage of one sentence
 *   gets one), so that a reader following the speech can show the sentence being heard.
 *
 * PCM.  In the format the plugin declares in `format` (audio.h's shelf_audio_format) before its
 *   first call of the sink, and keeps for the whole call: 32-bit float, channels interleaved, as in
 *   audio.h. The host may ask for a sample rate or a channel count there (non-zero): the plugin then
 *   delivers exactly that, or fails with SHELF_E_UNSUPPORTED. `total_frames` is -1 (not known ahead).
 *
 * Cancellation.  A long passage takes a while: the plugin polls the host's `is_cancelled` between
 *   pieces of work, and each call of the sink may answer SHELF_E_CANCELLED (the listener skipped or
 *   stopped). Either way the plugin calls the sink no more, and returns SHELF_E_CANCELLED promptly
 *   (within a tenth of a second of work).
 *
 * Threading.  `speak` may be called from several threads at once only if the descriptor sets
 *   SHELF_PLUGIN_CONCURRENT_HANDLES; otherwise the host serialises the calls. `voices` may come from
 *   any thread, at any time after `init`.
 */
#ifndef SHELF_SPEECH_H
#define SHELF_SPEECH_H

#include "audio.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SHELF_EXT_SPEECH "shelf.speech/1"

/* What a mark stands for. */
#define SHELF_SPEECH_MARK_WORD      1
#define SHELF_SPEECH_MARK_SENTENCE  2

/* One word or sentence of the text and where it starts in the PCM (see "Marks" above). */
typedef struct shelf_speech_mark {
    uint32_t struct_size;
    uint32_t kind;              /* SHELF_SPEECH_MARK_* */
    uint64_t text_offset;       /* bytes into the text passed in */
    uint64_t text_length;       /* bytes */
    int64_t frame;              /* from the first frame this call delivers */
} shelf_speech_mark;

/*
 * Where the speech goes, supplied by the host for one call of `speak` (like shelf_writer, it never
 * grows). `pcm` takes `frames` frames in the declared format (frames * channels floats), which the
 * host copies before it returns; `mark` takes one mark, copied likewise. Both return SHELF_OK, or
 * an error status (SHELF_E_CANCELLED, SHELF_E_IO): the plugin then calls neither again and returns
 * that status, with `err` filled as for any failure.
 */
typedef struct shelf_speech_sink {
    void *context;              /* host-private: pass it back unchanged */
    shelf_status (*pcm)(void *context, const float *samples, size_t frames);
    shelf_status (*mark)(void *context, const shelf_speech_mark *mark);
} shelf_speech_sink;

typedef struct shelf_speech_v1 {
    uint32_t struct_size;

    /*
     * Writes the voices this plugin offers to `out`: a JSON array of objects
     *   {"id": "en-gb", "name": "English (Great Britain)", "languages": ["en-GB", "en"],
     *    "gender": "female" | "male" | null}
     * "id" is what `speak` takes as "voice"; "languages" are BCP 47 tags, the voice's best first.
     * At least one voice; the same list on every call.
     */
    shelf_status (*voices)(const shelf_writer *out, shelf_error *err);

    /*
     * Speaks `text` (see "Text"): fills `format` (in/out, see "PCM"), then delivers PCM and marks to
     * `sink` until the text is spoken, and returns SHELF_OK. options_json is an object, or NULL:
     *   "voice":    a voice id from `voices`; absent: the best voice for "language"
     *   "language": the passage's language, a BCP 47 tag ("fr", "en-GB"); absent: the voice's own
     *   "rate":     speaking rate, 1 the voice's normal one, 0.5 to 3 (the host speeds playback up with
     *               the pitch kept itself: it passes a rate only when the patron asks for one)
     *   "pronunciations": [{"offset": N, "length": N, "ph": "...", "alphabet": "ipa" | "x-sampa"}]
     *               spans of the text (bytes) to be said as `ph` says (EPUB's ssml:ph, ssml:alphabet)
     *   "lexicons": ["<lexicon ...>...</lexicon>", ...]: PLS documents that apply to this text
     * SHELF_E_NOT_FOUND for a voice the plugin does not have (naming it); SHELF_E_INVALID_ARGUMENT
     * for options that are not JSON, or text that is not UTF-8; SHELF_E_CANCELLED (see above).
     * An empty text (or one of spaces) is SHELF_OK with no PCM and no marks.
     */
    shelf_status (*speak)(const char *text, const char *options_json, shelf_audio_format *format,
                          const shelf_speech_sink *sink, shelf_error *err);
} shelf_speech_v1;

#ifdef __cplusplus
}
#endif

#endif /* SHELF_SPEECH_H */
