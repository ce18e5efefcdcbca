import ShelfCore
import Foundation
import Glibc
import PluginAPI

/// One plugin library, opened with dlopen, its descriptor checked, initialised with its host
/// services. Every call into it goes through here, serialised unless the plugin allows
/// concurrent handles.
///
/// A plugin the registry already knows (its file unchanged since it was last read, see
/// `PluginRegistryCache`) is not opened until something needs its code: a command that reads an
/// EPUB never loads the audiobook plugin and the hundred libraries FFmpeg brings.
/// Unchecked Sendable: the C descriptor is loaded once under `loadLock` and every call into the plugin is made under `callLock` (plugin.h: one thread at a time), the rest is constant.
public final class LoadedPlugin: @unchecked Sendable {
    public let path: String
    public let descriptor: PluginDescriptor
    /// Set when the plugin runs in a sandboxed child process (PluginPlacement): every call goes there.
    let remote: RemotePlugin?
    public var isOutOfProcess: Bool { remote != nil }
    /// Which of its log lines are shown (SHELF_LOG of the `Shelf` that loaded it), and where its secrets are kept
    /// (that Shelf's credential store; nil: `ConnectorServices`' own).
    let logFilter: PluginLogFilter
    let credentials: CredentialStore?
    private let callLock = NSRecursiveLock()
    private let loadLock = NSLock()
    private var loaded: UnsafePointer<shelf_plugin_descriptor>?
    private var deferredDirectories: ShelfDirectories??
    private let knownCapabilities: [String]?
    /// Why a deferred plugin could not be opened when first used.
    private(set) var loadFailure: String?

    public struct LoadFailure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Opens the library and reads its descriptor; does not call init. Out of process (with the placement's
    /// settings), a child reads it. `logFilter` says which of its log lines are shown.
    public init(
        path: String, outOfProcess: PluginPlacement? = nil, logFilter: PluginLogFilter = PluginLogFilter(nil),
        credentials: CredentialStore? = nil
    ) throws {
        self.path = path
        self.logFilter = logFilter
        self.credentials = credentials
        let remote = outOfProcess.map { RemotePlugin(path: path, placement: $0, logFilter: logFilter) }
        let (raw, descriptor) = try Self.open(path, remote: remote)
        self.remote = remote
        self.descriptor = descriptor
        self.loaded = raw
        self.knownCapabilities = nil
    }

    /// A plugin known from the registry cache: opened on first use (out of process: its child started then).
    init(
        deferred path: String, descriptor: PluginDescriptor, capabilities: [String],
        outOfProcess: PluginPlacement? = nil,
        logFilter: PluginLogFilter, credentials: CredentialStore?
    ) {
        self.path = path
        self.descriptor = descriptor
        self.knownCapabilities = capabilities
        self.logFilter = logFilter
        self.credentials = credentials
        remote = outOfProcess.map { RemotePlugin(path: path, placement: $0, logFilter: logFilter) }
        if let remote { loaded = remote.descriptor(known: descriptor, capabilities: capabilities) }
    }

    /// The same library placed the other way (the registry's setting named its id, read only now).
    func moved(_ placement: PluginPlacement) throws -> LoadedPlugin {
        try LoadedPlugin(
            path: path, outOfProcess: remote == nil ? placement : nil, logFilter: logFilter, credentials: credentials)
    }

    private static func open(_ path: String, remote: RemotePlugin? = nil) throws -> (
        UnsafePointer<shelf_plugin_descriptor>, PluginDescriptor
    ) {
        if let remote {
            let raw = try remote.describe()
            do {
                return (raw, try PluginDescriptor.read(raw))
            } catch {
                throw LoadFailure(path: path, reason: "\(error)")
            }
        }
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
            return (raw, try PluginDescriptor.read(raw))
        } catch {
            dlclose(library)
            throw LoadFailure(path: path, reason: "\(error)")
        }
    }

    /// The plugin's descriptor, opening the library first if it was deferred. A library that no
    /// longer loads as it did is logged and answers no extension, so it fails like a plugin that
    /// cannot do what was asked, never by crashing shelf.
    var raw: UnsafePointer<shelf_plugin_descriptor> {
        loadLock.lock()
        defer { loadLock.unlock() }
        if let loaded { return loaded }
        do {
            let (raw, fresh) = try Self.open(path, remote: remote)
            guard fresh.id == descriptor.id else {
                throw LoadFailure(
                    path: path, reason: "changed since shelf last read it (now \(fresh.id)); run `shelf plugins`")
            }
            loaded = raw
            if let directories = deferredDirectories {
                try Self.callInit(
                    raw, descriptor: descriptor, path: path, directories: directories, logFilter: logFilter,
                    credentials: credentials)
            }
        } catch {
            loadFailure = (error as? LoadFailure)?.reason ?? "\(error)"
            HostServices.log(descriptor.id, SHELF_LOG_ERROR, "\(error)", filter: logFilter)
            loaded = UnusablePlugin.descriptor
        }
        return loaded!
    }

    /// Whether the library has been opened in this process.
    public var isLoaded: Bool {
        loadLock.lock()
        defer { loadLock.unlock() }
        return loaded != nil
    }

    /// Calls the plugin's init with its own host services (now, or on first use when deferred).
    public func initialise(directories: ShelfDirectories?) throws {
        loadLock.lock()
        let raw = loaded
        if raw == nil { deferredDirectories = .some(directories) }
        loadLock.unlock()
        guard let raw else { return }
        if let remote {
            try remote.during {
                try Self.callInit(
                    raw, descriptor: descriptor, path: path, directories: directories, logFilter: logFilter,
                    credentials: credentials)
            }
        } else {
            try Self.callInit(
                raw, descriptor: descriptor, path: path, directories: directories, logFilter: logFilter,
                credentials: credentials)
        }
    }

    private static func callInit(
        _ raw: UnsafePointer<shelf_plugin_descriptor>, descriptor: PluginDescriptor,
        path: String, directories: ShelfDirectories?, logFilter: PluginLogFilter,
        credentials: CredentialStore?
    ) throws {
        // Without shelf's folders (no HOME) a plugin keeps its files in the temporary folder. With them, a folder that
        // cannot be made does the same, said: what the plugin keeps there (a sign-in, what it pushed) does not last.
        func folder(_ kind: String, _ make: (ShelfDirectories) throws -> URL) -> String {
            guard let directories else { return NSTemporaryDirectory() }
            do {
                return try make(directories).path
            } catch {
                HostServices.warn(
                    "the \(kind) folder of plugin \(descriptor.id) cannot be made (\(error)); "
                        + "it keeps its files in \(NSTemporaryDirectory()), where they do not last")
                return NSTemporaryDirectory()
            }
        }
        let data = folder("data") { try $0.pluginData(for: descriptor.id) }
        let cache = folder("cache") { try $0.pluginCache(for: descriptor.id) }
        let host = HostServices.make(
            pluginID: descriptor.id, pluginPath: path, dataDirectory: data, cacheDirectory: cache,
            logFilter: logFilter, credentials: credentials,
            forbidden: CompanionFiles.Forbidden(directories: directories))
        guard let initialise = raw.pointee.`init` else { return }
        var error = PluginCall.newError()
        let status = initialise(host, &error)
        guard status == SHELF_OK else {
            let message = PluginCall.message(of: &error)
            throw LoadFailure(
                path: path, reason: "init failed: \(message.isEmpty ? PluginCallError.name(of: status) : message)")
        }
    }

    /// The vtable for an extension id, or nil; checked for a plausible struct_size.
    public func extensionTable(_ id: String, minimumSize: Int) -> UnsafeRawPointer? {
        if let remote {
            // The proxy tables are shared by every out-of-process plugin: what this one offers is the child's answer.
            _ = raw
            guard let size = remote.offered[id], size >= minimumSize else { return nil }
            return RemoteTables.table(id)
        }
        guard let table = raw.pointee.get_extension?(id) else { return nil }
        let size = table.load(as: UInt32.self)
        return Int(size) >= minimumSize ? table : nil
    }

    /// The capabilities this plugin offers, by id, among those this host knows.
    public var capabilities: [String] {
        if let knownCapabilities, !isLoaded { return knownCapabilities }
        return KnownExtension.all.filter { extensionTable($0.id, minimumSize: $0.size) != nil }.map(\.id)
    }

    public var isFormatPlugin: Bool { capabilities.contains(SHELF_EXT_FORMAT) }

    package var format: UnsafePointer<shelf_format_v1>? {
        extensionTable(SHELF_EXT_FORMAT, minimumSize: MemoryLayout<shelf_format_v1>.size)?.assumingMemoryBound(
            to: shelf_format_v1.self)
    }

    /// The probe that can say why (shelf.probe/1, ABI 1.1), when the plugin offers it beside its format.
    package var probeWithError:
        (
            @convention(c) (
                UnsafePointer<shelf_input>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<shelf_error>?
            ) -> shelf_status
        )?
    {
        guard format != nil else { return nil }
        return extensionTable(SHELF_EXT_PROBE, minimumSize: MemoryLayout<shelf_probe_v1>.size)?
            .assumingMemoryBound(to: shelf_probe_v1.self).pointee.probe
    }

    /// Serialises calls for plugins that do not allow concurrent handles (plugin.h, "Threading").
    package func call<T>(_ body: () throws -> T) rethrows -> T {
        // Out of process, the calls without a handle (probe, open, connect) find their plugin through the thread.
        if let remote { return try remote.during(body) }
        if descriptor.concurrentHandles { return try body() }
        callLock.lock()
        defer { callLock.unlock() }
        return try body()
    }
}

/// The extension ids this host understands, with their vtable sizes and the minor of ABI 1 that added them.
public struct KnownExtension: Sendable {
    public let id: String
    public let size: Int
    public let minor: Int

    init(id: String, size: Int, minor: Int = 0) {
        self.id = id
        self.size = size
        self.minor = minor
    }

    public static let all: [KnownExtension] = [
        KnownExtension(id: SHELF_EXT_FORMAT, size: MemoryLayout<shelf_format_v1>.size),
        KnownExtension(id: SHELF_EXT_PROBE, size: MemoryLayout<shelf_probe_v1>.size, minor: 1),
        KnownExtension(id: SHELF_EXT_RENDER, size: MemoryLayout<shelf_render_v1>.size),
        KnownExtension(id: SHELF_EXT_POSITIONS, size: MemoryLayout<shelf_positions_v1>.size),
        KnownExtension(id: SHELF_EXT_SEARCH, size: MemoryLayout<shelf_search_v1>.size),
        KnownExtension(id: SHELF_EXT_AUDIO, size: MemoryLayout<shelf_audio_v1>.size),
        KnownExtension(id: SHELF_EXT_READINGLIST, size: MemoryLayout<shelf_readinglist_v1>.size),
        KnownExtension(id: SHELF_EXT_SPEECH, size: MemoryLayout<shelf_speech_v1>.size)
    ]
}

/// What a deferred plugin becomes when its library no longer loads: a descriptor that offers
/// nothing, so every use fails with "cannot", as for a plugin without that capability.
enum UnusablePlugin {
    // C tables made once and only read afterwards, so sharing the pointers between threads is safe (Swift cannot
    // know that of a C pointer).
    nonisolated(unsafe) static let descriptor: UnsafePointer<shelf_plugin_descriptor> = {
        let d = UnsafeMutablePointer<shelf_plugin_descriptor>.allocate(capacity: 1)
        d.initialize(to: shelf_plugin_descriptor())
        d.pointee.struct_size = UInt32(MemoryLayout<shelf_plugin_descriptor>.size)
        d.pointee.abi_major = UInt16(SHELF_ABI_MAJOR)
        d.pointee.get_extension = { _ in nil }
        return UnsafePointer(d)
    }()
}
