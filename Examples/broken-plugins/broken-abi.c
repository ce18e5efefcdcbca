/* Test fixture: a plugin built for ABI major 99, which no host knows. The host must refuse it
 * with a clear line and keep loading the others. */
#include "common.h"

static const shelf_format_v1 format = {
    sizeof(shelf_format_v1), fine_probe, unsupported_open, no_manifest, no_resource, no_close
};

static const void *get_extension(const char *id)
{
    return (id && strcmp(id, SHELF_EXT_FORMAT) == 0) ? &format : NULL;
}

static const char *const media_types[] = { "text/x-shelf-broken-abi", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), 99, 0,
    "org.shelf.test.broken-abi", "Broken: ABI major 99", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: claims an ABI major that does not exist.",
    0, media_types, NULL, NULL, NULL, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
