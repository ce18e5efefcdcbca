import Foundation
import PluginAPI
import ShelfCore
import Synchronization

/// The `shelf_host` each plugin receives at init: its own directories, a log that names it,
/// progress, and cancellation. Allocated once per loaded plugin and kept for the process's life
/// (plugin.h promises it outlives `deinit`).
public enum HostServices {
    /// Ctrl-C was pressed: every call in flight is asked to stop (the core's `Interrupt`, which HTTP transfers
    /// read too). Setting it by hand asks the same of every call (or clears it). One call alone is cancelled with
    /// its `CallCancellation`.
    public static var cancelRequested: Bool {
        get { Interrupt.requested }
        set { Interrupt.requested = newValue }
    }

    /// Installs the Ctrl-C handler: the first asks every call in flight to stop, a second ends shelf (exit 130).
    public static func installInterruptHandler() { Interrupt.install() }

    public typealias LogSink = @Sendable (_ pluginID: String, _ level: Int32, _ message: String) -> Void
    public typealias ProgressSink = @Sendable (_ pluginID: String, _ fraction: Double, _ label: String?) -> Void

    /// The sinks, read by plugin callbacks on any thread and replaced by a front end: under a mutex.
    /// A plugin's lines arrive here already filtered by SHELF_LOG (`log(_:_:_:filter:)`).
    private static let sinks = Mutex<(log: LogSink, progress: ProgressSink?)>(
        (
            log: { id, level, message in
                let name = ["debug", "info", "warning", "error"][Int(min(max(level, 0), 3))]
                // The host's own lines (`warn`) are not named twice: "shelf: warning: ...", as its errors are "shelf: ...".
                let source = id == "shelf" ? "" : "\(id): "
                FileHandle.standardError.write(Data("shelf: \(source)\(name): \(message)\n".utf8))
            }, progress: nil
        ))

    /// Where plugin log lines go; the CLI may replace it to honour --quiet or a TTY.
    public static var logSink: LogSink {
        get { sinks.withLock { $0.log } }
        set { sinks.withLock { $0.log = newValue } }
    }

    /// A line from or about plugin `pluginID`, to `logSink` when `filter` (the SHELF_LOG of the `Shelf` that
    /// loaded the plugin) shows it: one line, made safe for a terminal, within the plugin's rate (PluginLogLimiter).
    static func log(_ pluginID: String, _ level: Int32, _ message: String, filter: PluginLogFilter) {
        guard filter.shows(level, from: pluginID) else { return }
        let (show, dropped) = PluginLogLimiter.admit(pluginID)
        guard show else { return }
        if dropped > 0 {
            logSink(
                pluginID, SHELF_LOG_WARNING,
                "\(dropped) more line\(dropped == 1 ? "" : "s") of this plugin not shown "
                    + "(more than \(Int(PluginLogLimiter.perSecond)) a second)")
        }
        logSink(pluginID, level, PluginLogLimiter.safe(message))
    }

    /// A warning from the host itself, said as a plugin's are (through `logSink`, as "shelf"): what the patron
    /// must know though the command went on, such as a sync whose notifications could not be stored.
    public static func warn(_ message: String) { logSink("shelf", SHELF_LOG_WARNING, message) }

    /// Where plugin progress goes (nowhere by default).
    public static var progressSink: ProgressSink? {
        get { sinks.withLock { $0.progress } }
        set { sinks.withLock { $0.progress = newValue } }
    }

    final class Context {
        let pluginID: String
        let logFilter: PluginLogFilter
        let credentials: CredentialStore?
        /// What the companion files service never hands this plugin (CompanionFiles).
        let forbidden: CompanionFiles.Forbidden
        init(
            pluginID: String, logFilter: PluginLogFilter, credentials: CredentialStore?,
            forbidden: CompanionFiles.Forbidden
        ) {
            self.pluginID = pluginID
            self.logFilter = logFilter
            self.credentials = credentials
            self.forbidden = forbidden
        }
    }

    /// `logFilter` decides which of the plugin's log lines reach `logSink`; `credentials` is where its secrets are
    /// kept (the store of the `Shelf` that loaded it; nil: `ConnectorServices`' own). `pluginPath` is the plugin's
    /// own file (ABI 1.1's `plugin_path`), made absolute here.
    static func make(
        pluginID: String, pluginPath: String? = nil, dataDirectory: String, cacheDirectory: String,
        logFilter: PluginLogFilter = PluginLogFilter(nil), credentials: CredentialStore? = nil,
        forbidden: CompanionFiles.Forbidden = CompanionFiles.Forbidden(directories: nil)
    ) -> UnsafeMutablePointer<shelf_host> {
        let host = UnsafeMutablePointer<shelf_host>.allocate(capacity: 1)
        host.initialize(to: shelf_host())
        host.pointee.struct_size = UInt32(MemoryLayout<shelf_host>.size)
        host.pointee.abi_major = UInt16(SHELF_ABI_MAJOR)
        host.pointee.abi_minor = UInt16(SHELF_ABI_MINOR)
        host.pointee.host_name = UnsafePointer(strdup("shelf"))
        host.pointee.host_version = UnsafePointer(strdup(ShelfVersion.string))
        host.pointee.context = Unmanaged.passRetained(
            Context(pluginID: pluginID, logFilter: logFilter, credentials: credentials, forbidden: forbidden)
        ).toOpaque()
        host.pointee.data_dir = UnsafePointer(strdup(dataDirectory))
        host.pointee.cache_dir = UnsafePointer(strdup(cacheDirectory))
        // nil only for the hosts tests make without a library
        host.pointee.plugin_path = pluginPath.map {
            UnsafePointer(strdup(URL(fileURLWithPath: $0).standardizedFileURL.path))
        }
        host.pointee.log = { host, level, message in
            guard let host, let message else { return }
            let context = HostServices.context(host)
            HostServices.log(context.pluginID, level, String(cString: message), filter: context.logFilter)
        }
        host.pointee.progress = { host, fraction, label in
            guard let host else { return SHELF_E_INVALID_ARGUMENT }
            HostServices.progressSink?(HostServices.context(host).pluginID, fraction, label.map { String(cString: $0) })
            return CallCancellation.isCurrentCallCancelled ? SHELF_E_CANCELLED : SHELF_OK
        }
        host.pointee.is_cancelled = { _ in CallCancellation.isCurrentCallCancelled ? 1 : 0 }
        // Optional services by id (readinglist.h): "shelf.host.http/1", "shelf.host.credentials/1"; files.h:
        // "shelf.host.files/1".
        host.pointee.get_service = { host, id in
            guard host != nil, let id else { return nil }
            if String(cString: id) == SHELF_HOST_FILES { return UnsafeRawPointer(CompanionFiles.table) }
            return ConnectorServices.service(String(cString: id))
        }
        return host
    }

    /// The id of the plugin a `shelf_host` was made for, or nil for a pointer this host did not make.
    static func pluginID(of host: UnsafePointer<shelf_host>) -> String? { madeHere(host)?.pluginID }

    /// What the companion files service refuses the plugin a `shelf_host` was made for (nothing known: no folders).
    static func forbidden(of host: UnsafePointer<shelf_host>) -> CompanionFiles.Forbidden {
        madeHere(host)?.forbidden ?? CompanionFiles.Forbidden(directories: nil)
    }

    /// Where the plugin a `shelf_host` was made for keeps its secrets, when the registry that loaded it said.
    static func credentials(of host: UnsafePointer<shelf_host>) -> CredentialStore? { madeHere(host)?.credentials }

    private static func madeHere(_ host: UnsafePointer<shelf_host>) -> Context? {
        guard host.pointee.struct_size >= UInt32(MemoryLayout<shelf_host>.size), host.pointee.context != nil,
            let name = host.pointee.host_name, String(cString: name) == "shelf"
        else { return nil }
        return context(host)
    }

    private static func context(_ host: UnsafePointer<shelf_host>) -> Context {
        Unmanaged<Context>.fromOpaque(host.pointee.context!).takeUnretainedValue()
    }
}

public enum ShelfVersion {
    public static let string = "0.1.0"
}
