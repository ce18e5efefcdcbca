/* libshelf-plugin: Readium Locators, written and read (format.h, "Locator").
 * SPDX-License-Identifier: MIT */
#include "internal.h"

void shelf_locator_init(shelf_locator *locator)
{
    memset(locator, 0, sizeof *locator);
    locator->progression = -1;
    locator->total_progression = -1;
}

double shelf_total_progression(uint64_t position, uint64_t count)
{
    if (count == 0 || position == 0) return 0;
    if (position > count) return 1;
    return (double)(position - 1) / (double)count;
}

void shelf_json_locator(shelf_out *out, const shelf_locator *l)
{
    shelf_json_begin_object(out);
    shelf_json_member_string(out, "href", l->href ? l->href : "");
    shelf_json_member_string(out, "type", l->type ? l->type : "");          /* required, like href */
    shelf_json_member_string_opt(out, "title", l->title);
    shelf_json_key(out, "locations");
    shelf_json_begin_object(out);
    if (l->position > 0) shelf_json_member_int(out, "position", l->position);
    shelf_json_member_number_opt(out, "progression", l->progression > 1 ? 1 : l->progression);
    shelf_json_member_number_opt(out, "totalProgression", l->total_progression > 1 ? 1 : l->total_progression);
    if (l->fragment != NULL) {
        shelf_json_key(out, "fragments");
        shelf_json_begin_array(out);
        shelf_json_string(out, l->fragment);
        shelf_json_end_array(out);
    }
    shelf_json_end_object(out);
    if (l->before != NULL || l->highlight != NULL || l->after != NULL) {
        shelf_json_key(out, "text");
        shelf_json_begin_object(out);
        shelf_json_member_string_opt(out, "before", l->before);
        shelf_json_member_string_opt(out, "highlight", l->highlight);
        shelf_json_member_string_opt(out, "after", l->after);
        shelf_json_end_object(out);
    }
    shelf_json_end_object(out);
}

static shelf_status wrong(shelf_error *err, const char *key, const char *should)
{
    return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, key, "the locator's %s must be %s", key, should);
}

static shelf_status read_string(const shelf_json_value *v, const char *key, const char **out, shelf_error *err)
{
    if (v == NULL) return SHELF_OK;
    if (shelf_json_type_of(v) != SHELF_JSON_STRING) return wrong(err, key, "a string");
    *out = shelf_json_as_string(v, NULL);
    return SHELF_OK;
}

static shelf_status read_fraction(const shelf_json_value *v, const char *key, double *out, shelf_error *err)
{
    double x;
    if (v == NULL) return SHELF_OK;
    x = shelf_json_as_number(v, -1);
    if (shelf_json_type_of(v) != SHELF_JSON_NUMBER || x < 0 || x > 1) return wrong(err, key, "a number from 0 to 1");
    *out = x;
    return SHELF_OK;
}

shelf_status shelf_locator_parse(const char *json, shelf_json_doc **doc, shelf_locator *l, shelf_error *err)
{
    const shelf_json_value *root, *locations, *position, *fragments, *text;
    shelf_status status = SHELF_OK;
    shelf_locator_init(l);
    *doc = shelf_json_parse(json, "locator", err);
    if (*doc == NULL) return err ? err->status : SHELF_E_INVALID_ARGUMENT;
    root = shelf_json_root(*doc);
    locations = shelf_json_get(root, "locations");
    position = shelf_json_get(locations, "position");
    fragments = shelf_json_get(locations, "fragments");
    text = shelf_json_get(root, "text");
    if (shelf_json_type_of(root) != SHELF_JSON_OBJECT) {
        status = shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "a locator must be a JSON object ({\"href\": ...})");
    } else if (locations != NULL && shelf_json_type_of(locations) != SHELF_JSON_OBJECT) {
        status = wrong(err, "locations", "an object");
    } else if (text != NULL && shelf_json_type_of(text) != SHELF_JSON_OBJECT) {
        status = wrong(err, "text", "an object");
    } else if (position != NULL && (!shelf_json_as_whole(position, &l->position) || l->position < 1)) {
        l->position = 0;
        status = wrong(err, "locations.position", "a whole number from 1");
    } else if (fragments != NULL && shelf_json_type_of(fragments) != SHELF_JSON_ARRAY) {
        status = wrong(err, "locations.fragments", "an array of strings");
    }
    if (status == SHELF_OK) status = read_string(shelf_json_get(root, "href"), "href", &l->href, err);
    if (status == SHELF_OK) status = read_string(shelf_json_get(root, "type"), "type", &l->type, err);
    if (status == SHELF_OK) status = read_string(shelf_json_get(root, "title"), "title", &l->title, err);
    if (status == SHELF_OK) status = read_fraction(shelf_json_get(locations, "progression"), "locations.progression", &l->progression, err);
    if (status == SHELF_OK) status = read_fraction(shelf_json_get(locations, "totalProgression"), "locations.totalProgression", &l->total_progression, err);
    if (status == SHELF_OK) status = read_string(shelf_json_first(fragments), "locations.fragments", &l->fragment, err);
    if (status == SHELF_OK) status = read_string(shelf_json_get(text, "before"), "text.before", &l->before, err);
    if (status == SHELF_OK) status = read_string(shelf_json_get(text, "highlight"), "text.highlight", &l->highlight, err);
    if (status == SHELF_OK) status = read_string(shelf_json_get(text, "after"), "text.after", &l->after, err);
    if (status != SHELF_OK) {
        shelf_json_free(*doc);
        *doc = NULL;
        shelf_locator_init(l);
    }
    return status;
}
