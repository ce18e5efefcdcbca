/* Test fixture: `probe` spins forever, burning CPU. The conformance suite must time the check
 * out, kill the child and report it. */
#include "common.h"

static shelf_status hanging_probe(const shelf_input *input, int32_t *confidence)
{
    volatile unsigned long spins = 0;   /* volatile: the loop has an effect and stays */
    (void)input;
    *confidence = 0;
    for (;;) {
        spins++;
    }
    return SHELF_OK;    /* never reached */
}

static const shelf_format_v1 format = {
    sizeof(shelf_format_v1), hanging_probe, unsupported_open, no_manifest, no_resource, no_close
};

static const void *get_extension(const char *id)
{
    return (id && strcmp(id, SHELF_EXT_FORMAT) == 0) ? &format : NULL;
}

static const char *const media_types[] = { "text/x-shelf-broken-hang", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.broken-hang", "Broken: probe never returns", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: probe loops forever.",
    0, media_types, NULL, NULL, NULL, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
