/*
 * shelf plugin ABI, version 1 — audio decoding.
 *
 *   "shelf.audio/1"   decode PCM from any sample of any reading-order track of an open publication
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here. A
 * plugin that offers this capability also offers "shelf.format/1": a decoder always belongs to a
 * publication opened through it.
 *
 * Units.  Time inside a track is counted in *frames*: one frame is one sample for every channel,
 *   so frame f lies at f / sample_rate seconds. Frame 0 is the first frame a player should hear
 *   (encoder delay and priming already removed); the last is total_frames - 1 (padding removed).
 *
 * Samples.  Always 32-bit IEEE float, native byte order, nominally in [-1, 1] (a decoder may
 *   exceed it slightly; the host clips), channels interleaved (L R L R ... for stereo). Float was
 *   chosen because every decoder produces it without loss and the host's time-stretch and volume
 *   work in it; a host that needs integers converts once, at the sink.
 *
 * Sample accuracy.  For any frame f, seek(f) followed by read yields the same samples as reading
 *   from frame 0 and discarding f frames (a decoder re-runs enough pre-roll to make that true, to
 *   within the codec's own rounding).
 *
 * Threading.  A decoder is used by one thread at a time. Decoders of one publication may be used
 *   from different threads at once only if the descriptor sets SHELF_PLUGIN_CONCURRENT_HANDLES;
 *   in any case no decoder call is made at the same time as `close` of its publication, and
 *   every decoder is closed before its publication is.
 */
#ifndef SHELF_AUDIO_H
#define SHELF_AUDIO_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open decoder for one track: the plugin's own type, opaque to the host. */
typedef struct shelf_audio_decoder shelf_audio_decoder;

#define SHELF_EXT_AUDIO "shelf.audio/1"

/* The only sample format of 1.0: interleaved 32-bit float (see "Samples" above). */
#define SHELF_AUDIO_SAMPLE_F32  1

/*
 * A track's PCM format. The host zeroes it, sets `struct_size`, and may ask for a sample rate or a
 * channel count (non-zero `sample_rate` / `channels`): the plugin then resamples or remixes to
 * exactly that, or fails with SHELF_E_UNSUPPORTED. Zero means "the track's own". The plugin fills
 * every field on success.
 */
typedef struct shelf_audio_format {
    uint32_t struct_size;
    uint32_t sample_rate;       /* frames per second, 1..768000 */
    uint32_t channels;          /* 1..16 */
    uint32_t sample_format;     /* SHELF_AUDIO_SAMPLE_F32 */
    /* The track's length in frames at `sample_rate`, or -1 when not known until decoded to the
     * end. `frames_exact` is 1 when total_frames is the exact count read will deliver (stated by
     * the container, or measured), 0 when it is an estimate (a bitrate guess): the host then
     * treats read's end of stream as the truth. */
    int64_t total_frames;
    int32_t frames_exact;
    int32_t reserved;           /* zero */
} shelf_audio_format;

typedef struct shelf_audio_v1 {
    uint32_t struct_size;

    /*
     * Opens a decoder for the reading-order item `href` (as in the manifest; a #fragment is
     * ignored) of `publication`. `format` is in/out as described above.
     * options_json is an object or NULL:
     *   "file": "PATH"   a local file that holds the bytes of `href`; the host passes it when it
     *                    downloaded a remote track itself. Without it the plugin reads the track
     *                    from the publication (a file beside the manifest, a zip entry) and fails
     *                    with SHELF_E_NOT_FOUND, saying so, for a remote track it does not have.
     * On SHELF_OK *out is a decoder positioned at frame 0, owned by the plugin until the host
     * passes it to `close_decoder`, exactly once. On failure *out is NULL: SHELF_E_NOT_FOUND (no
     * such track, or not here yet), SHELF_E_PROTECTED (encrypted: name the scheme),
     * SHELF_E_BAD_DATA (not decodable audio), SHELF_E_UNSUPPORTED (format not possible).
     * Threading: a handle call on `publication` (plugin.h); the new decoder is not yet in use.
     */
    shelf_status (*open_decoder)(shelf_publication *publication, const char *href,
                                 const char *options_json, shelf_audio_format *format,
                                 shelf_audio_decoder **out, shelf_error *err);

    /*
     * Moves to `frame` (0 <= frame; a frame at or past the end positions at the end, so the next
     * read returns 0 frames). Sample-accurate (see above). SHELF_E_INVALID_ARGUMENT for a
     * negative frame.
     * Threading: one thread at a time for this decoder ("Threading" above).
     */
    shelf_status (*seek)(shelf_audio_decoder *decoder, int64_t frame, shelf_error *err);

    /*
     * Decodes up to `capacity` frames into `buffer`, which the host owns and which holds at least
     * capacity * channels floats. Writes the number of frames decoded to *frames_read: fewer than
     * `capacity` only at the end of the track, and 0 exactly when the end was reached. The next
     * read continues where this one stopped. A broken packet in the middle of a track is skipped
     * (logged), not an error; SHELF_E_BAD_DATA only when nothing more can be decoded.
     * Threading: one thread at a time for this decoder ("Threading" above).
     */
    shelf_status (*read)(shelf_audio_decoder *decoder, float *buffer, size_t capacity,
                         size_t *frames_read, shelf_error *err);

    /* Releases the decoder and everything it owns. Never fails; never called twice.
     * Threading: with no other call on this decoder in flight, before its publication's close. */
    void (*close_decoder)(shelf_audio_decoder *decoder);
} shelf_audio_v1;

#ifdef __cplusplus
}
#endif

#endif /* SHELF_AUDIO_H */
