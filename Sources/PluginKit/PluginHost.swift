import PluginAPI

/// The host's services as a Swift plugin sees them (wraps `shelf_host`).
public final class PluginHost: @unchecked Sendable {
    public enum Level: Int32 { case debug = 0, info, warning, error }

    private let raw: UnsafePointer<shelf_host>

    init(_ raw: UnsafePointer<shelf_host>) { self.raw = raw }

    public var dataDirectory: String { raw.pointee.data_dir.map { String(cString: $0) } ?? "" }
    public var cacheDirectory: String { raw.pointee.cache_dir.map { String(cString: $0) } ?? "" }

    public func log(_ level: Level, _ message: String) {
        raw.pointee.log?(raw, level.rawValue, message)
    }

    /// Reports progress; throws `PluginFailure.cancelled` when the patron cancelled.
    public func progress(_ fraction: Double, _ label: String? = nil) throws {
        guard let report = raw.pointee.progress else { return }
        let status = label.map { l in l.withCString { report(raw, fraction, $0) } } ?? report(raw, fraction, nil)
        if status == SHELF_E_CANCELLED { throw PluginFailure.cancelled }
    }

    public var isCancelled: Bool { (raw.pointee.is_cancelled?(raw) ?? 0) != 0 }
}
