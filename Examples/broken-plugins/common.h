/*
 * Shared pieces of the deliberately broken plugins. Each broken-*.c defines BROKEN_ID and
 * BROKEN_NAME and may override what it breaks. These are test fixtures for the host and the
 * conformance suite: never install them.
 */
#ifndef SHELF_BROKEN_COMMON_H
#define SHELF_BROKEN_COMMON_H

#include <shelf/format.h>

/* (static inline: a fixture that does not use one gets no warning) */

/* A probe that behaves: 25 for non-empty input, 0 for empty. */
static inline shelf_status fine_probe(const shelf_input *input, int32_t *confidence)
{
    *confidence = (input != NULL && input->head_size > 0) ? SHELF_PROBE_POSSIBLE : SHELF_PROBE_NONE;
    return SHELF_OK;
}

/* An open that declines politely. */
static inline shelf_status unsupported_open(const shelf_input *input, const char *options_json,
                                     shelf_publication **out, shelf_error *err)
{
    (void)input; (void)options_json;
    if (out) *out = NULL;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this test plugin opens nothing");
}

static inline shelf_status no_manifest(shelf_publication *p, const shelf_writer *out, shelf_error *err)
{
    (void)p; (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this test plugin has no publications");
}

static inline shelf_status no_resource(shelf_publication *p, const char *href, const shelf_writer *out,
                                shelf_error *err)
{
    (void)p; (void)href; (void)out;
    return shelf_error_set(err, SHELF_E_UNSUPPORTED, NULL, "this test plugin has no publications");
}

static inline void no_close(shelf_publication *p)
{
    (void)p;
}

#endif
