import Foundation
import PluginAPI

/// Turns a Swift `ShelfPlugin` type into the C descriptor and vtables of plugin.h.
///
/// A plugin exports its entry symbol in a file of its own:
///
///     @_cdecl("shelf_plugin_entry")
///     public func shelfPluginEntry() -> UnsafeRawPointer { PluginExport.entry(MyPlugin.self) }
///
/// PluginKit is linked statically into each plugin, so each plugin has its own copy of this state.
public enum PluginExport {
    public static func entry(_ type: ShelfPlugin.Type) -> UnsafeRawPointer {
        lock.lock()
        defer { lock.unlock() }
        if let descriptor { return UnsafeRawPointer(descriptor) }
        pluginType = type
        let made = makeDescriptor(type.info)
        descriptor = made
        return UnsafeRawPointer(made)
    }

    static let lock = NSLock()
    static var descriptor: UnsafeMutablePointer<shelf_plugin_descriptor>?
    static var pluginType: ShelfPlugin.Type?
    static var instance: ShelfPlugin?
    static var hostServices: PluginHost?

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
                guard let type = PluginExport.pluginType else { throw PluginFailure(SHELF_E_INTERNAL, "no plugin type") }
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
                  PluginExport.pluginType?.info.capabilities.contains(capability) == true else { return nil }
            return Extensions.table(for: capability)
        }
        return d
    }
}
