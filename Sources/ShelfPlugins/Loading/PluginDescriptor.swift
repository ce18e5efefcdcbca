import Foundation
import PluginAPI

/// A plugin's descriptor read into Swift values, checked against plugin.h's rules. Reading is
/// defensive: the library may be hostile, so strings and lists are bounded.
public struct PluginDescriptor: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var version: String
    public var license: String?
    public var vendor: String?
    public var url: String?
    public var description: String?
    public var abiMajor: Int
    public var abiMinor: Int
    public var structSize: Int
    public var concurrentHandles: Bool
    public var mediaTypes: [String]
    public var fileExtensions: [String]
    public var services: [String]

    /// Smallest descriptor a 1.0 plugin can have: everything up to and including get_extension.
    static let minimumSize =
        MemoryLayout<shelf_plugin_descriptor>.offset(of: \shelf_plugin_descriptor.get_extension)!
        + MemoryLayout<UnsafeRawPointer>.size

    static let maxString = 4096
    static let maxListItems = 256

    public struct Problem: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads and validates; throws the first rule broken, worded for the plugin's author.
    static func read(_ raw: UnsafePointer<shelf_plugin_descriptor>) throws -> PluginDescriptor {
        let size = Int(raw.pointee.struct_size)
        guard raw.pointee.abi_major == SHELF_ABI_MAJOR else {
            throw Problem(
                message:
                    "built for plugin ABI \(raw.pointee.abi_major).\(raw.pointee.abi_minor), but this shelf speaks ABI \(SHELF_ABI_MAJOR).x; rebuild the plugin against shelf's headers"
            )
        }
        guard size >= minimumSize else {
            throw Problem(
                message:
                    "descriptor is \(size) bytes, smaller than the \(minimumSize) bytes of ABI 1.0 (struct_size not set?)"
            )
        }
        guard let id = string(raw.pointee.id), !id.isEmpty else { throw Problem(message: "descriptor has no id") }
        guard isValidID(id) else {
            throw Problem(message: "id \"\(id)\" is not lowercase reverse-DNS (letters, digits, '.', '-', '_')")
        }
        guard let name = string(raw.pointee.name), !name.isEmpty else {
            throw Problem(message: "\(id): descriptor has no name")
        }
        guard let version = string(raw.pointee.version), !version.isEmpty else {
            throw Problem(message: "\(id): descriptor has no version")
        }
        guard raw.pointee.get_extension != nil else { throw Problem(message: "\(id): descriptor has no get_extension") }
        let mediaTypes = try list(raw.pointee.media_types, "media type")
        for type in mediaTypes where !isValidMediaType(type) {
            throw Problem(
                message:
                    "\(id): media type \"\(type)\" is malformed (expected lowercase type/subtype without parameters)")
        }
        let extensions = try list(raw.pointee.file_extensions, "file extension")
        for ext in extensions where ext.isEmpty || ext.hasPrefix(".") || ext != ext.lowercased() || ext.contains("/") {
            throw Problem(message: "\(id): file extension \"\(ext)\" must be lowercase, without a dot")
        }
        let services = try list(raw.pointee.services, "service")
        for service in services where !isValidID(service) {
            throw Problem(
                message: "\(id): service id \"\(service)\" must be lowercase letters, digits, '.', '-' or '_'")
        }
        return PluginDescriptor(
            id: id, name: name, version: version,
            license: string(raw.pointee.license), vendor: string(raw.pointee.vendor),
            url: string(raw.pointee.url), description: string(raw.pointee.description),
            abiMajor: Int(raw.pointee.abi_major), abiMinor: Int(raw.pointee.abi_minor), structSize: size,
            concurrentHandles: raw.pointee.flags & UInt64(1) != 0,
            mediaTypes: mediaTypes, fileExtensions: extensions, services: services)
    }

    static func string(_ p: UnsafePointer<CChar>?) -> String? {
        guard let p else { return nil }
        let length = strnlen(p, maxString)
        let bytes = UnsafeRawBufferPointer(start: p, count: length)
        return String(validating: bytes, as: UTF8.self)
    }

    static func list(_ p: UnsafePointer<UnsafePointer<CChar>?>?, _ what: String) throws -> [String] {
        guard let p else { return [] }
        var items: [String] = []
        var i = 0
        while let item = p[i] {
            guard i < maxListItems else {
                throw Problem(
                    message: "more than \(maxListItems) entries in the \(what) list (missing NULL terminator?)")
            }
            guard let s = string(item) else { throw Problem(message: "a \(what) is not valid UTF-8") }
            items.append(s)
            i += 1
        }
        return items
    }

    static func isValidID(_ id: String) -> Bool {
        guard (1...128).contains(id.utf8.count), let first = id.utf8.first,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return false }
        return id.utf8.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
        }
    }

    /// RFC 6838 restricted names, lowercase, no parameters.
    public static func isValidMediaType(_ type: String) -> Bool {
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-".utf8)
        return parts.allSatisfy { part in
            guard (1...127).contains(part.utf8.count), let first = part.first else { return false }
            return (first.isLetter || first.isNumber) && part.utf8.allSatisfy(allowed.contains)
        }
    }
}

/// What each minor version of ABI 1 added (plugin.h, "Minor versions"), so the host can say what a plugin built for
/// an older minor lacks (the calls added after it that it does not offer), or, for a plugin built for a minor newer
/// than this host's, that only this host's calls are made.
public enum ABIMinor {
    /// This host's minor.
    public static let host = Int(SHELF_ABI_MINOR)

    /// The calls this host would make that the plugin, built for an older minor, does not offer, each with the minor
    /// that added it: "shelf.probe/1 (1.1)". A call a format plugin would offer is lacking only from a format plugin.
    public static func lacking(_ plugin: LoadedPlugin) -> [String] {
        guard plugin.descriptor.abiMinor < host, plugin.isFormatPlugin else { return [] }
        let offered = plugin.capabilities
        return KnownExtension.all.filter {
            $0.minor > plugin.descriptor.abiMinor && $0.id == SHELF_EXT_PROBE && !offered.contains($0.id)
        }
        .map { "\($0.id) (1.\($0.minor))" }
    }

    /// One sentence when the plugin's minor is not this host's and that matters; nil otherwise.
    public static func note(_ plugin: LoadedPlugin) -> String? {
        let minor = plugin.descriptor.abiMinor
        if minor > host {
            return
                "built for ABI 1.\(minor), newer than this shelf's 1.\(host): shelf makes only the calls of 1.\(host), "
                + "and a call added after 1.\(host) is never made"
        }
        let lacks = lacking(plugin)
        guard !lacks.isEmpty else { return nil }
        return
            "built for ABI 1.\(minor): it lacks \(lacks.joined(separator: ", ")), so shelf cannot say why it refuses a file"
    }
}
