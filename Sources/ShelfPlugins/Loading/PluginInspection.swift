import Foundation
import PluginAPI

/// `shelf plugins --inspect ID` (as gst-inspect does for GStreamer elements): everything the host read from a
/// plugin's descriptor, each capability it offers with its vtable's size and filled slots, and each service's
/// `describe` answer.
public struct PluginInspection: Encodable {
    public struct Capability: Encodable {
        public let id: String
        public let structSize: Int
        public let functions: Int
    }

    public struct Service: Encodable {
        public let service: String
        public let capabilities: ConnectorDescription?
        public let error: String?
    }

    public let id, name, version: String
    public let license, vendor, url, description: String?
    public let path: String
    public let abi: String
    public let descriptorSize: Int
    public let concurrentHandles: Bool
    public let mediaTypes, fileExtensions: [String]
    public let capabilities: [Capability]
    public let services: [Service]

    public init(_ plugin: LoadedPlugin) {
        let d = plugin.descriptor
        id = d.id
        name = d.name
        version = d.version
        license = d.license
        vendor = d.vendor
        url = d.url
        description = d.description
        path = plugin.path
        abi = "\(d.abiMajor).\(d.abiMinor)"
        descriptorSize = d.structSize
        concurrentHandles = d.concurrentHandles
        mediaTypes = d.mediaTypes
        fileExtensions = d.fileExtensions
        capabilities = KnownExtension.all.compactMap { known in
            guard let table = plugin.extensionTable(known.id, minimumSize: known.size) else { return nil }
            let slots = (known.size - 8) / MemoryLayout<UnsafeRawPointer>.size
            let filled = (0..<slots).filter { table.load(fromByteOffset: 8 + $0 * 8, as: UInt.self) != 0 }.count
            return Capability(id: known.id, structSize: Int(table.load(as: UInt32.self)), functions: filled)
        }
        services = d.services.map { service in
            do {
                return Service(service: service, capabilities: try Connector(plugin: plugin, service: service).describe(), error: nil)
            } catch {
                return Service(service: service, capabilities: nil, error: "\(error)")
            }
        }
    }
}
