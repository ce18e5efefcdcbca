/* libshelf-plugin: reading-list entries (readinglist.h, "Entry"), read and written.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

void shelf_entry_init(shelf_entry *entry)
{
    memset(entry, 0, sizeof *entry);
}

static shelf_status text(const shelf_json_value *object, const char *key, const char *name, const char **out,
                         shelf_error *err)
{
    const shelf_json_value *v = shelf_json_get(object, key);
    if (v == NULL || shelf_json_type_of(v) == SHELF_JSON_NULL) return SHELF_OK;
    if (shelf_json_type_of(v) != SHELF_JSON_STRING) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, name, "the entry's %s must be a string", name);
    }
    *out = shelf_json_as_string(v, NULL);
    return SHELF_OK;
}

shelf_status shelf_entry_read(const shelf_json_value *value, const char *service, shelf_entry *e, shelf_error *err)
{
    const shelf_json_value *ids = shelf_json_get(value, "identifiers"), *authors, *rating, *a;
    shelf_status status = SHELF_OK;
    size_t n = 0;
    shelf_entry_init(e);
    if (shelf_json_type_of(value) != SHELF_JSON_OBJECT) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "an entry must be a JSON object");
    }
    if (ids != NULL && shelf_json_type_of(ids) != SHELF_JSON_OBJECT) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "identifiers", "the entry's identifiers must be an object");
    }
    if (status == SHELF_OK) status = text(ids, "isbn13", "identifiers.isbn13", &e->isbn13, err);
    if (status == SHELF_OK) status = text(ids, "isbn10", "identifiers.isbn10", &e->isbn10, err);
    if (status == SHELF_OK && service != NULL) status = text(ids, service, "identifiers", &e->service_id, err);
    if (status == SHELF_OK) status = text(value, "title", "title", &e->title, err);
    if (status == SHELF_OK) status = text(value, "shelf", "shelf", &e->shelf, err);
    if (status == SHELF_OK) status = text(value, "dateAdded", "dateAdded", &e->date_added, err);
    if (status == SHELF_OK) status = text(value, "dateRead", "dateRead", &e->date_read, err);
    if (status != SHELF_OK) return status;
    authors = shelf_json_get(value, "authors");
    if (authors != NULL && shelf_json_type_of(authors) != SHELF_JSON_ARRAY) {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "authors", "the entry's authors must be an array of strings");
    }
    for (a = shelf_json_first(authors); a != NULL && n < SHELF_ENTRY_MAX_AUTHORS; a = shelf_json_next(a)) {
        if (shelf_json_type_of(a) != SHELF_JSON_STRING) {
            return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "authors", "the entry's authors must be an array of strings");
        }
        e->authors[n++] = shelf_json_as_string(a, NULL);
    }
    e->authors[n] = NULL;
    rating = shelf_json_get(value, "rating");
    if (rating != NULL && shelf_json_type_of(rating) != SHELF_JSON_NULL) {
        double r = shelf_json_as_number(rating, -1);
        if (r < 1 || r > 5) {
            return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, "rating", "the entry's rating must be a number from 1 to 5");
        }
        e->rating = r;
    }
    return SHELF_OK;
}

void shelf_json_entry(shelf_out *out, const shelf_entry *e, const char *service)
{
    size_t i;
    shelf_json_begin_object(out);
    shelf_json_key(out, "identifiers");
    shelf_json_begin_object(out);
    shelf_json_member_string_opt(out, "isbn13", e->isbn13);
    shelf_json_member_string_opt(out, "isbn10", e->isbn10);
    if (service != NULL) shelf_json_member_string_opt(out, service, e->service_id);
    shelf_json_end_object(out);
    shelf_json_member_string_opt(out, "title", e->title);
    shelf_json_key(out, "authors");
    shelf_json_begin_array(out);
    for (i = 0; i < SHELF_ENTRY_MAX_AUTHORS && e->authors[i] != NULL; i++) shelf_json_string(out, e->authors[i]);
    shelf_json_end_array(out);
    shelf_json_member_string_opt(out, "shelf", e->shelf);
    if (e->shelf != NULL) {
        shelf_json_key(out, "shelves");
        shelf_json_begin_array(out);
        shelf_json_string(out, e->shelf);
        shelf_json_end_array(out);
    }
    shelf_json_member_string_opt(out, "dateAdded", e->date_added);
    shelf_json_member_string_opt(out, "dateRead", e->date_read);
    if (e->rating >= 1) {
        shelf_json_key(out, "rating");
        shelf_json_number(out, e->rating);
    }
    shelf_json_end_object(out);
}
