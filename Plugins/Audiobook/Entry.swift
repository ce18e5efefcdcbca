import PluginKit

// The descriptor is made when the library is loaded (an ELF constructor), so that the entry below
// only returns it: plugin.h says shelf_plugin_entry must not allocate, do I/O or fail.
@used @section(".init_array") let makeDescriptor: @convention(c) () -> Void = {
    PluginExport.prepare(AudiobookPlugin.self)
}

@_cdecl("shelf_plugin_entry")
public func shelfPluginEntry() -> UnsafeRawPointer? { PluginExport.entry }
