/*
 * shelf plugin ABI — the companion files service (host service "shelf.host.files/1").
 *
 * A plugin shelf does not ship runs confined (shelf-plugin(7), WHERE A PLUGIN RUNS): it may read the book file it
 * was handed, its own folders and its libraries, and nothing else, not even the other files of the book's folder.
 * A format made of several files (an audiobook manifest beside its tracks, a comic's folder of pages) asks the
 * host for each companion file through this service, by a path relative to the book's folder; the host opens it,
 * when it may, and hands the plugin a read-only descriptor. A plugin running in shelf's own process gets the same
 * service, with the same answers, so one code path serves both.
 *
 * The host opens a companion only when it lies inside the book's folder (or below it, symbolic links resolved),
 * names no hidden file or folder (a part beginning with "."), is a regular file, and is none of shelf's own files
 * (its configuration, its library database, the folders of plugins). Anything else is SHELF_E_IO with a message
 * naming it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SHELF_FILES_H
#define SHELF_FILES_H

#include "plugin.h"

#define SHELF_HOST_FILES "shelf.host.files/1"

typedef struct shelf_host_files_v1 {
    uint32_t struct_size;

    /* Opens `relative` (a path relative to the folder of `book_path`, the path of the input being opened, as the
     * host gave it in shelf_input.path) for reading. On SHELF_OK, *fd is a descriptor the plugin owns and closes;
     * on failure *fd is -1 and err says why. Called during a call of the host, on its thread, like every service. */
    shelf_status (*open_companion)(const shelf_host *host, const char *book_path, const char *relative, int *fd,
                                   shelf_error *err);
} shelf_host_files_v1;

#endif
