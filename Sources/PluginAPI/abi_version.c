/* SwiftPM wants one source file in a C target. This one earns its place: it pins the layout of the
 * released ABI 1.0 and 1.1 structs on LP64 platforms, so an accidental change to a released struct
 * breaks the build instead of every plugin already out there. A minor version only appends: the
 * 1.0 offsets stay pinned beside the new sizes. */
#include "shelf/shelf.h"

#if UINTPTR_MAX == 0xffffffffffffffffu
#define SHELF_PIN(name, expr) typedef char shelf_layout_##name[(expr) ? 1 : -1]
SHELF_PIN(error, sizeof(shelf_error) == 8 + SHELF_ERROR_MESSAGE_MAX + SHELF_ERROR_LOCATION_MAX);
SHELF_PIN(writer, sizeof(shelf_writer) == 16);
SHELF_PIN(host, sizeof(shelf_host) == 88);
SHELF_PIN(host_1_0, offsetof(shelf_host, get_service) == 72);
SHELF_PIN(host_plugin_path, offsetof(shelf_host, plugin_path) == 80);
SHELF_PIN(descriptor, sizeof(shelf_plugin_descriptor) == 120);
SHELF_PIN(input, sizeof(shelf_input) == 56);
SHELF_PIN(format, sizeof(shelf_format_v1) == 48);
SHELF_PIN(probe, sizeof(shelf_probe_v1) == 16);
SHELF_PIN(descriptor_init, offsetof(shelf_plugin_descriptor, init) == 96);
#endif
