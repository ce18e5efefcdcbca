/* libshelf-plugin: a Readium Web Publication Manifest with the metadata shelf reads (format.h).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

void shelf_link_init(shelf_link *link)
{
    memset(link, 0, sizeof *link);
    link->duration = -1;
}

void shelf_manifest_begin(shelf_out *out, const shelf_metadata *m)
{
    shelf_json_begin_object(out);
    shelf_json_member_string(out, "@context", "https://readium.org/webpub-manifest/context.jsonld");
    shelf_json_key(out, "metadata");
    shelf_json_begin_object(out);
    shelf_json_member_string(out, "title", m->title ? m->title : "");
    if (m->authors != NULL && m->authors[0] != NULL) {
        size_t i;
        shelf_json_key(out, "author");
        shelf_json_begin_array(out);
        for (i = 0; m->authors[i] != NULL; i++) {
            shelf_json_begin_object(out);
            shelf_json_member_string(out, "name", m->authors[i]);
            shelf_json_end_object(out);
        }
        shelf_json_end_array(out);
    }
    shelf_json_member_string_opt(out, "language", m->language);
    shelf_json_member_string_opt(out, "identifier", m->identifier);
    shelf_json_member_number_opt(out, "duration", m->duration);
    if (m->number_of_pages > 0) shelf_json_member_int(out, "numberOfPages", m->number_of_pages);
    shelf_json_end_object(out);
    shelf_json_key(out, "links");
    shelf_json_begin_array(out);
    shelf_json_end_array(out);
}

void shelf_manifest_list(shelf_out *out, const char *name)
{
    shelf_json_key(out, name);
    shelf_json_begin_array(out);
}

void shelf_json_link(shelf_out *out, const shelf_link *link)
{
    shelf_json_begin_object(out);
    shelf_json_member_string(out, "href", link->href ? link->href : "");
    shelf_json_member_string_opt(out, "type", link->type);
    shelf_json_member_string_opt(out, "title", link->title);
    shelf_json_member_string_opt(out, "rel", link->rel);
    shelf_json_member_number_opt(out, "duration", link->duration);
    shelf_json_end_object(out);
}

void shelf_manifest_list_end(shelf_out *out)
{
    shelf_json_end_array(out);
}

void shelf_manifest_end(shelf_out *out)
{
    shelf_json_end_object(out);
}
