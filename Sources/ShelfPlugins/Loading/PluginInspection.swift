import Foundation
import PluginAPI
import ShelfValues

/// How a loaded plugin is inspected (the value itself is `ShelfValues.PluginInspection`): its descriptor, each
/// known capability's vtable read for its size and filled slots, and each service asked to `describe` itself.
extension PluginInspection {
    public init(_ plugin: LoadedPlugin, runs: PluginRunPlace) {
        let d = plugin.descriptor
        let capabilities: [Capability] = KnownExtension.all.compactMap { known in
            guard let table = plugin.extensionTable(known.id, minimumSize: known.size) else { return nil }
            let slots = (known.size - 8) / MemoryLayout<UnsafeRawPointer>.size
            let filled = (0..<slots).filter { table.load(fromByteOffset: 8 + $0 * 8, as: UInt.self) != 0 }.count
            return Capability(id: known.id, structSize: Int(table.load(as: UInt32.self)), functions: filled)
        }
        let services: [Service] = d.services.map { service in
            do {
                return Service(
                    service: service, capabilities: try Connector(plugin: plugin, service: service).describe(),
                    error: nil)
            } catch {
                return Service(service: service, capabilities: nil, error: "\(error)")
            }
        }
        self.init(
            id: d.id, name: d.name, version: d.version, license: d.license, vendor: d.vendor, url: d.url,
            description: d.description, path: plugin.path, abi: "\(d.abiMajor).\(d.abiMinor)",
            descriptorSize: d.structSize, concurrentHandles: d.concurrentHandles, mediaTypes: d.mediaTypes,
            fileExtensions: d.fileExtensions, capabilities: capabilities, services: services, runs: runs,
            abiNote: ABIMinor.note(plugin))
    }
}
