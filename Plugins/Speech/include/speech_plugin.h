/* shelf's speech plugin exports only shelf_plugin_entry (plugin.h); this header is SwiftPM's public folder. */
#ifndef SHELF_SPEECH_PLUGIN_H
#define SHELF_SPEECH_PLUGIN_H
#endif
