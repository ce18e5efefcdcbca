/* Test fixture: declares the malformed media type "Not A Type" (upper case, spaces, no slash).
 * The host must refuse the plugin and name the bad value. */
#include "common.h"

static const shelf_format_v1 format = {
    sizeof(shelf_format_v1), fine_probe, unsupported_open, no_manifest, no_resource, no_close
};

static const void *get_extension(const char *id)
{
    return (id && strcmp(id, SHELF_EXT_FORMAT) == 0) ? &format : NULL;
}

static const char *const media_types[] = { "Not A Type", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.test.broken-mediatype", "Broken: malformed media type", "1.0.0", "MIT",
    "shelf tests", NULL, "Test fixture: its media type is not type/subtype.",
    0, media_types, NULL, NULL, NULL, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
