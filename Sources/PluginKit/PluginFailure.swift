import PluginAPI

/// The error a plugin throws; PluginKit copies it into the caller's `shelf_error`.
public struct PluginFailure: Error, CustomStringConvertible {
    public var status: shelf_status
    public var message: String
    public var location: String?

    public init(_ status: shelf_status, _ message: String, at location: String? = nil) {
        self.status = status
        self.message = message
        self.location = location
    }

    public var description: String { location.map { "\(message) (at \($0))" } ?? message }

    public static func unsupported(_ m: String) -> Self { .init(SHELF_E_UNSUPPORTED, m) }
    public static func invalidArgument(_ m: String) -> Self { .init(SHELF_E_INVALID_ARGUMENT, m) }
    public static func notFound(_ m: String, at l: String? = nil) -> Self { .init(SHELF_E_NOT_FOUND, m, at: l) }
    public static func badData(_ m: String, at l: String? = nil) -> Self { .init(SHELF_E_BAD_DATA, m, at: l) }
    public static func protected(_ m: String, at l: String? = nil) -> Self { .init(SHELF_E_PROTECTED, m, at: l) }
    public static func io(_ m: String, at l: String? = nil) -> Self { .init(SHELF_E_IO, m, at: l) }
    public static func limit(_ m: String, at l: String? = nil) -> Self { .init(SHELF_E_LIMIT, m, at: l) }
    public static let cancelled = PluginFailure(SHELF_E_CANCELLED, "cancelled")
}
