import ShelfCore
import Foundation
import Glibc

/// What shelf learnt about each plugin file the last time it opened it — the descriptor and the
/// capabilities — so that the next command can route by media type without loading every plugin
/// (GStreamer keeps a registry for the same reason). An entry counts only while the file is the
/// same file (`FileIdentity`); anything else reloads it.
struct PluginRegistryCache {
    struct Entry {
        var key: FileIdentity
        var descriptor: PluginDescriptor
        var capabilities: [String]
    }

    /// A new shelf may know more extensions: what an older one recorded is not trusted.
    static let hostTag = "shelf \(ShelfVersion.string), ABI \(KnownExtension.all.map(\.id).joined(separator: " "))"

    let file: URL?
    private var previous: [String: Entry] = [:]
    private(set) var current: [String: Entry] = [:]

    init(directories: ShelfDirectories?) {
        file = directories.map { $0.cache.appendingPathComponent("plugin-registry") }
        // A cache: missing or unreadable, every plugin is looked at anew (and the file rewritten by `save`).
        if let file, let data = try? Data(contentsOf: file), let entries = try? Self.decode(data) {
            previous = entries
        }
    }

    /// The recorded entry for `path`, if the file is unchanged.
    mutating func entry(for path: String, key: FileIdentity) -> Entry? {
        guard let entry = previous[path], entry.key == key else { return nil }
        current[path] = entry
        return entry
    }

    mutating func record(_ path: String, key: FileIdentity, plugin: LoadedPlugin) {
        current[path] = Entry(key: key, descriptor: plugin.descriptor, capabilities: plugin.capabilities)
    }

    /// Writes the file when it changed (atomically: a reader never sees half of it). A cache that
    /// cannot be written only costs speed, so failures are ignored.
    func save() {
        guard let file else { return }
        let unchanged = previous.count == current.count && current.allSatisfy { previous[$0.key]?.key == $0.value.key }
        guard !unchanged else { return }
        // As the comment above says: only speed is lost.
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        AtomicFile.replace(file.path, with: Self.encode(current))
    }

    // Every command reads this file before anything else, so it is in the compact binary form
    // (BinaryCoding.swift): JSONDecoder cost a short command about a millisecond.
    private static let magic = Array("shelf plugin registry 1\n".utf8)

    static func encode(_ entries: [String: Entry]) -> [UInt8] {
        var w = ByteWriter()
        w.bytes += magic
        w.string(hostTag)
        w.u32(UInt32(entries.count))
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let d = entry.descriptor
            w.string(path)
            w.identity(entry.key)
            w.string(d.id); w.string(d.name); w.string(d.version)
            w.optionalString(d.license); w.optionalString(d.vendor); w.optionalString(d.url);
            w.optionalString(d.description)
            w.u64(UInt64(bitPattern: Int64(d.abiMajor))); w.u64(UInt64(bitPattern: Int64(d.abiMinor)))
            w.u64(UInt64(bitPattern: Int64(d.structSize)))
            w.bytes.append(d.concurrentHandles ? 1 : 0)
            w.strings(d.mediaTypes); w.strings(d.fileExtensions); w.strings(d.services)
            w.strings(entry.capabilities)
        }
        return w.bytes
    }

    /// The entries of a file this very shelf wrote; anything else (older shelf, damage) throws.
    static func decode(_ data: Data) throws -> [String: Entry] {
        var r = ByteReader(data)
        guard try r.take(magic.count).elementsEqual(magic), try r.string() == hostTag else {
            throw ByteReader.Malformed()
        }
        var entries: [String: Entry] = [:]
        for _ in 0..<(try r.count(minimumBytesEach: 64)) {
            let path = try r.string()
            let key = try r.identity()
            let descriptor = PluginDescriptor(
                id: try r.string(), name: try r.string(), version: try r.string(),
                license: try r.optionalString(), vendor: try r.optionalString(), url: try r.optionalString(),
                description: try r.optionalString(),
                abiMajor: Int(Int64(bitPattern: try r.u64())), abiMinor: Int(Int64(bitPattern: try r.u64())),
                structSize: Int(Int64(bitPattern: try r.u64())), concurrentHandles: try r.take(1).first == 1,
                mediaTypes: try r.strings(), fileExtensions: try r.strings(), services: try r.strings())
            entries[path] = Entry(key: key, descriptor: descriptor, capabilities: try r.strings())
        }
        guard r.isAtEnd else { throw ByteReader.Malformed() }
        return entries
    }
}
