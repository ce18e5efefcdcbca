import Foundation
import Glibc

/// What shelf learnt about each plugin file the last time it opened it — the descriptor and the
/// capabilities — so that the next command can route by media type without loading every plugin
/// (GStreamer keeps a registry for the same reason). An entry counts only while the file is the
/// same file (`FileIdentity`); anything else reloads it.
struct PluginRegistryCache {
    struct Entry: Codable {
        var key: FileIdentity
        var descriptor: PluginDescriptor
        var capabilities: [String]
    }

    struct Contents: Codable {
        var host: String
        var entries: [String: Entry]
    }

    /// A new shelf may know more extensions: what an older one recorded is not trusted.
    static let hostTag = "shelf \(ShelfVersion.string), ABI \(KnownExtension.all.map(\.id).joined(separator: " "))"

    let file: URL?
    private var previous: [String: Entry] = [:]
    private(set) var current: [String: Entry] = [:]

    init(directories: ShelfDirectories?) {
        file = directories.map { $0.cache.appendingPathComponent("plugin-registry.json") }
        if let file, let data = try? Data(contentsOf: file),
           let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.host == Self.hostTag {
            previous = contents.entries
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
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        guard let data = try? JSONEncoder().encode(Contents(host: Self.hostTag, entries: current)) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
