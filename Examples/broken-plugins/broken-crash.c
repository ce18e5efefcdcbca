/* Test fixture: a correct descriptor and a well-behaved probe, but `open` writes through a NULL
 * pointer (SIGSEGV). The conformance suite must report the open checks as crashed, with the
 * signal, and go on. */
#include "common.h"

static shelf_status crashing_open(const shelf_input *input, const char *options_json,
                                  shelf_publication **out, shelf_error *err)
{
    volatile int *volatile nowhere = NULL;  /* volatile: the compiler must keep the store */
    (void)input; (void)options_json; (void)out; (void)err;
    *nowhere = 42;
    return SHELF_E_INTERNAL;
}

static const shelf_format_v1 format = {
    sizeof(shelf_format_v1), fine_probe, crashing_open, no_manifest, no_resource, no_close
};

static const void *get_extension(const char *id)
{
    return (id && strcmp(id, SHELF_EXT_FORMAT) == 0) ? &format : NULL;
}

static const char *const media_types[] = { "text/x-shelf-broken-crash", NULL };
static const char *const extensions[] = { "crash", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.broken-crash", "Broken: crashes in open", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: open dereferences a NULL pointer.",
    0, media_types, extensions, NULL, NULL, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
