import PluginAPI

/// The host's services as a Swift plugin sees them (wraps `shelf_host`). A detached host, with
/// no C host behind it, lets tests and benchmarks call a plugin's Swift types directly.
/// Unchecked Sendable: it holds only the C host pointer and two paths, all constant; the host's functions may be called from any thread (plugin.h).
public final class PluginHost: @unchecked Sendable {
    public enum Level: Int32 { case debug = 0, info, warning, error }

    private let raw: UnsafePointer<shelf_host>?
    private let directories: (data: String, cache: String)

    init(_ raw: UnsafePointer<shelf_host>) {
        self.raw = raw
        directories = (
            raw.pointee.data_dir.map { String(cString: $0) } ?? "",
            raw.pointee.cache_dir.map { String(cString: $0) } ?? ""
        )
    }

    private init(dataDirectory: String, cacheDirectory: String) {
        raw = nil
        directories = (dataDirectory, cacheDirectory)
    }

    /// Services for calling a plugin without a host: logs go nowhere, nothing is ever cancelled.
    public static func detached(dataDirectory: String = "/tmp", cacheDirectory: String = "/tmp") -> PluginHost {
        PluginHost(dataDirectory: dataDirectory, cacheDirectory: cacheDirectory)
    }

    /// The C host, for the service clients (HostServiceClients.swift); nil when detached.
    var hostPointer: UnsafePointer<shelf_host>? { raw }

    public var dataDirectory: String { directories.data }
    public var cacheDirectory: String { directories.cache }

    public func log(_ level: Level, _ message: String) {
        guard let raw else { return }
        raw.pointee.log?(raw, level.rawValue, message)
    }

    /// Reports progress; throws `PluginFailure.cancelled` when the patron cancelled.
    public func progress(_ fraction: Double, _ label: String? = nil) throws {
        guard let raw, let report = raw.pointee.progress else { return }
        let status = label.map { l in l.withCString { report(raw, fraction, $0) } } ?? report(raw, fraction, nil)
        if status == SHELF_E_CANCELLED { throw PluginFailure.cancelled }
    }

    public var isCancelled: Bool {
        guard let raw else { return false }
        return (raw.pointee.is_cancelled?(raw) ?? 0) != 0
    }
}
