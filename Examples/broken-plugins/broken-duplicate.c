/* Test fixture: a well-formed plugin that reuses the id of the text example,
 * "org.shelf.example.text". Loaded beside it, the host must refuse one of the two by id. */
#include "common.h"

static const shelf_format_v1 format = {
    sizeof(shelf_format_v1), fine_probe, unsupported_open, no_manifest, no_resource, no_close
};

static const void *get_extension(const char *id)
{
    return (id && strcmp(id, SHELF_EXT_FORMAT) == 0) ? &format : NULL;
}

static const char *const media_types[] = { "text/plain", NULL };

static const shelf_plugin_descriptor descriptor = {
    sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR,
    "org.shelf.example.text", "Broken: duplicate id", "1.0.0", "MIT", "shelf tests", NULL,
    "Test fixture: reuses the id of the text example plugin.",
    0, media_types, NULL, NULL, NULL, NULL, get_extension
};

SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void)
{
    return &descriptor;
}
