import Foundation
import PluginAPI

/// Turns a Swift `ShelfPlugin` type into the C descriptor and vtables of plugin.h.
///
/// A plugin exports its entry symbol in a file of its own, with the descriptor made when the
/// library is loaded, so that the entry allocates nothing and takes no lock (plugin.h):
///
///     @used @section(".init_array") let makeDescriptor: @convention(c) () -> Void = { PluginExport.prepare(MyPlugin.self) }
///     @_cdecl("shelf_plugin_entry")
///     public func shelfPluginEntry() -> UnsafeRawPointer? { PluginExport.entry }
///
/// PluginKit is linked statically into each plugin, so each plugin has its own copy of this state.
public enum PluginExport {
    /// Makes the descriptor; called once, by the library's constructor (dlopen runs it on one thread,
    /// before the host can look the entry up, so later readers need no lock).
    public static func prepare(_ type: ShelfPlugin.Type) {
        guard descriptor == nil else { return }
        pluginType = type
        descriptor = makeDescriptor(type.info)
    }

    /// The descriptor `prepare` made: what `shelf_plugin_entry` returns (nil, and the host refuses
    /// the plugin, if it was never prepared).
    public static var entry: UnsafeRawPointer? { descriptor.map { UnsafeRawPointer($0) } }

    nonisolated(unsafe) static var descriptor: UnsafeMutablePointer<shelf_plugin_descriptor>?
    nonisolated(unsafe) static var pluginType: ShelfPlugin.Type?
    // Set by `init` and cleared by `deinit`, which plugin.h orders before and after every other call of the
    // plugin's, so no call reads them while they change.
    nonisolated(unsafe) static var instance: ShelfPlugin?
    nonisolated(unsafe) static var hostServices: PluginHost?

    // Static C strings: the descriptor lives as long as the library (plugin.h, "Ownership").
    private static func cString(_ s: String?) -> UnsafePointer<CChar>? {
        s.map { UnsafePointer(strdup($0)!) }
    }

    private static func cList(_ items: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
        let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: items.count + 1)
        for (i, item) in items.enumerated() { list[i] = cString(item) }
        list[items.count] = nil
        return UnsafePointer(list)
    }

    private static func makeDescriptor(_ info: PluginInfo) -> UnsafeMutablePointer<shelf_plugin_descriptor> {
        let d = UnsafeMutablePointer<shelf_plugin_descriptor>.allocate(capacity: 1)
        d.initialize(to: shelf_plugin_descriptor())
        d.pointee.struct_size = UInt32(MemoryLayout<shelf_plugin_descriptor>.size)
        d.pointee.abi_major = UInt16(SHELF_ABI_MAJOR)
        d.pointee.abi_minor = UInt16(SHELF_ABI_MINOR)
        d.pointee.id = cString(info.id)
        d.pointee.name = cString(info.name)
        d.pointee.version = cString(info.version)
        d.pointee.license = cString(info.license)
        d.pointee.vendor = cString(info.vendor)
        d.pointee.url = cString(info.url)
        d.pointee.description = cString(info.description)
        d.pointee.flags = info.concurrentHandles ? UInt64(1) << 0 : 0
        d.pointee.media_types = cList(info.mediaTypes)
        d.pointee.file_extensions = cList(info.fileExtensions)
        d.pointee.services = cList(info.services)
        d.pointee.`init` = { host, err in
            CBridge.guarded(err) {
                guard let host else { throw PluginFailure.invalidArgument("init without host services") }
                guard let type = PluginExport.pluginType else {
                    throw PluginFailure(SHELF_E_INTERNAL, "no plugin type")
                }
                let services = PluginHost(host)
                PluginExport.hostServices = services
                PluginExport.instance = try type.init(host: services)
            }
        }
        d.pointee.deinit = {
            PluginExport.instance = nil
            PluginExport.hostServices = nil
        }
        d.pointee.get_extension = { id in
            guard let id, let capability = PluginInfo.Capability(rawValue: String(cString: id)),
                PluginExport.pluginType?.info.capabilities.contains(capability) == true
            else { return nil }
            return Extensions.table(for: capability)
        }
        return d
    }
}
