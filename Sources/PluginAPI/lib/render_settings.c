/* libshelf-plugin: render settings (format.h, shelf.render/1) and the XHTML around a rendering.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

/* A setting is a wish: out of range is clamped, an unknown value keeps the default. */
static int clamp(const shelf_json_value *v, int low, int high, int fallback)
{
    double x = shelf_json_as_number(v, (double)fallback);
    if (x != x) return fallback;
    if (x < low) return low;
    if (x > high) return high;
    return (int)(x + 0.5);
}

static int is(const shelf_json_value *v, const char *word)
{
    const char *s = shelf_json_as_string(v, NULL);
    return s != NULL && strcmp(s, word) == 0;
}

shelf_status shelf_render_settings_parse(const char *json, shelf_render_settings *rs, shelf_error *err)
{
    shelf_json_doc *doc;
    const shelf_json_value *root, *theme, *font;
    rs->html = 0;
    rs->width = 72;
    rs->font_scale = 100;
    rs->sans = 0;
    rs->theme = SHELF_THEME_DAY;
    if (json == NULL) return SHELF_OK;
    doc = shelf_json_parse(json, "render settings", err);
    if (doc == NULL) return err ? err->status : SHELF_E_INVALID_ARGUMENT;
    root = shelf_json_root(doc);
    if (shelf_json_type_of(root) != SHELF_JSON_OBJECT) {
        shelf_json_free(doc);
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL,
                               "render settings must be a JSON object ({\"as\": \"html\", ...})");
    }
    rs->html = is(shelf_json_get(root, "as"), "html");
    rs->width = clamp(shelf_json_get(root, "width"), 10, 1000, 72);
    rs->font_scale = clamp(shelf_json_get(root, "fontScale"), 25, 800, 100);
    font = shelf_json_get(root, "font");
    rs->sans = is(font, "sans") || is(font, "sans-serif");
    theme = shelf_json_get(root, "theme");
    rs->theme = is(theme, "night") ? SHELF_THEME_NIGHT : is(theme, "sepia") ? SHELF_THEME_SEPIA : SHELF_THEME_DAY;
    shelf_json_free(doc);
    return SHELF_OK;
}

void shelf_xhtml_begin(shelf_out *out, const shelf_render_settings *rs, const char *title, const char *language)
{
    static const char *const backgrounds[] = { "#ffffff", "#000000", "#faf4e8" };
    static const char *const colors[] = { "#121212", "#fefefe", "#121212" };
    char scale[16];
    shelf_out_text(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
                        "<html xmlns=\"http://www.w3.org/1999/xhtml\"");
    if (language != NULL) {
        shelf_out_text(out, " xml:lang=\"");
        shelf_out_xml(out, language, strlen(language));
        shelf_out_text(out, "\" lang=\"");
        shelf_out_xml(out, language, strlen(language));
        shelf_out_text(out, "\"");
    }
    shelf_out_text(out, ">\n<head><meta charset=\"utf-8\"/><title>");
    if (title != NULL) shelf_out_xml(out, title, strlen(title));
    shelf_out_text(out, "</title></head>\n<body style=\"font-size:");
    snprintf(scale, sizeof scale, "%d%%", rs->font_scale);     /* an integer: no locale in it */
    shelf_out_text(out, scale);
    shelf_out_text(out, rs->sans ? ";font-family:sans-serif" : ";font-family:serif");
    shelf_out_text(out, ";background-color:");
    shelf_out_text(out, backgrounds[rs->theme]);
    shelf_out_text(out, ";color:");
    shelf_out_text(out, colors[rs->theme]);
    shelf_out_text(out, ";line-height:1.5;max-width:40em;margin:1em auto;padding:0 1em\">\n");
}

void shelf_xhtml_end(shelf_out *out)
{
    shelf_out_text(out, "</body>\n</html>\n");
}
