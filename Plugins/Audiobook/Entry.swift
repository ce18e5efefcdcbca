import PluginKit

@_cdecl("shelf_plugin_entry")
public func shelfPluginEntry() -> UnsafeRawPointer { PluginExport.entry(AudiobookPlugin.self) }
