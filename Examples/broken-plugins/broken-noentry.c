/* Test fixture: a shared library without the `shelf_plugin_entry` symbol (it exports a
 * misspelt one instead). The host must say so and skip it. */
#include "common.h"

static const char *const media_types[] = { "text/x-shelf-broken-noentry", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.broken-noentry", "Broken: no entry symbol", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: the entry symbol is misspelt.",
    0, media_types, NULL, NULL, NULL, NULL, NULL
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entri(void)
{
    return &descriptor;
}
