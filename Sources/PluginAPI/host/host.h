/* shelf-plugin-host: runs a shelf plugin without shelf, calling each capability on samples and
 * printing what came back. SPDX-License-Identifier: MIT */
#ifndef SHELF_PLUGIN_HOST_H
#define SHELF_PLUGIN_HOST_H

#include <shelf/shelf.h>
#include <shelf/helper.h>

/* What the run found: every breach of the contract is counted and printed. */
extern int breaches;
void say(const char *what, const char *format, ...);
void breach(const char *call, const char *format, ...);
shelf_error fresh_error(void);
/* The first `limit` bytes of text, on one line, for printing. */
const char *excerpt(const char *text, size_t limit);

/* The host's side: the shelf_host handed to init (log, directories, progress, services). */
const shelf_host *host_services(const char *scratch, const char *plugin_path);
/* "KEY=VALUE" settings given with --set, as a JSON object ("{}" when none). */
void settings_add(const char *assignment);
const char *settings_json(void);

void run_format(const shelf_plugin_descriptor *d, const char *sample);
void run_connector(const shelf_plugin_descriptor *d);

#endif
