import Foundation
import Glibc
import PluginAPI

/// One plugin library, opened with dlopen, its descriptor checked, initialised with its host
/// services. Every call into it goes through here, serialised unless the plugin allows
/// concurrent handles.
public final class LoadedPlugin: @unchecked Sendable {
    public let path: String
    public let descriptor: PluginDescriptor
    let raw: UnsafePointer<shelf_plugin_descriptor>
    private let library: UnsafeMutableRawPointer
    private let callLock = NSRecursiveLock()

    public struct LoadFailure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Opens the library and reads its descriptor; does not call init.
    public init(path: String) throws {
        self.path = path
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw LoadFailure(path: path, reason: "cannot be loaded (\(reason))")
        }
        guard let symbol = dlsym(library, SHELF_PLUGIN_ENTRY_SYMBOL) else {
            dlclose(library)
            throw LoadFailure(path: path, reason: "is not a shelf plugin: it exports no \(SHELF_PLUGIN_ENTRY_SYMBOL)")
        }
        let entry = unsafeBitCast(symbol, to: shelf_plugin_entry_fn.self)
        guard let raw = entry() else {
            dlclose(library)
            throw LoadFailure(path: path, reason: "\(SHELF_PLUGIN_ENTRY_SYMBOL) returned no descriptor")
        }
        do {
            descriptor = try PluginDescriptor.read(raw)
        } catch {
            dlclose(library)
            throw LoadFailure(path: path, reason: "refused: \(error)")
        }
        self.raw = raw
        self.library = library
    }

    /// Calls the plugin's init with its own host services.
    public func initialise(directories: ShelfDirectories?) throws {
        let data = (try? directories?.pluginData(for: descriptor.id).path) ?? NSTemporaryDirectory()
        let cache = (try? directories?.pluginCache(for: descriptor.id).path) ?? NSTemporaryDirectory()
        let host = HostServices.make(pluginID: descriptor.id, dataDirectory: data, cacheDirectory: cache)
        guard let initialise = raw.pointee.`init` else { return }
        var error = PluginCall.newError()
        let status = initialise(host, &error)
        guard status == SHELF_OK else {
            let message = PluginCall.message(of: &error)
            throw LoadFailure(path: path, reason: "refused: init failed: \(message.isEmpty ? PluginCallError.name(of: status) : message)")
        }
    }

    /// The vtable for an extension id, or nil; checked for a plausible struct_size.
    public func extensionTable(_ id: String, minimumSize: Int) -> UnsafeRawPointer? {
        guard let table = raw.pointee.get_extension?(id) else { return nil }
        let size = table.load(as: UInt32.self)
        return Int(size) >= minimumSize ? table : nil
    }

    /// The capabilities this plugin offers, by id, among those this host knows.
    public var capabilities: [String] {
        KnownExtension.all.filter { extensionTable($0.id, minimumSize: $0.size) != nil }.map(\.id)
    }

    public var isFormatPlugin: Bool { format != nil }

    var format: UnsafePointer<shelf_format_v1>? {
        extensionTable(SHELF_EXT_FORMAT, minimumSize: MemoryLayout<shelf_format_v1>.size)?.assumingMemoryBound(to: shelf_format_v1.self)
    }

    /// Serialises calls for plugins that do not allow concurrent handles (plugin.h, "Threading").
    func call<T>(_ body: () throws -> T) rethrows -> T {
        if descriptor.concurrentHandles { return try body() }
        callLock.lock()
        defer { callLock.unlock() }
        return try body()
    }
}

/// The extension ids this host understands, with their 1.0 vtable sizes.
public struct KnownExtension: Sendable {
    public let id: String
    public let size: Int

    public static let all: [KnownExtension] = [
        KnownExtension(id: SHELF_EXT_FORMAT, size: MemoryLayout<shelf_format_v1>.size),
        KnownExtension(id: SHELF_EXT_RENDER, size: MemoryLayout<shelf_render_v1>.size),
        KnownExtension(id: SHELF_EXT_POSITIONS, size: MemoryLayout<shelf_positions_v1>.size),
        KnownExtension(id: SHELF_EXT_SEARCH, size: MemoryLayout<shelf_search_v1>.size),
        KnownExtension(id: SHELF_EXT_AUDIO, size: MemoryLayout<shelf_audio_v1>.size),
        KnownExtension(id: SHELF_EXT_READINGLIST, size: MemoryLayout<shelf_readinglist_v1>.size),
    ]
}
