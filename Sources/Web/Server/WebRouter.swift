import Foundation

/// Routes by method and path pattern. A pattern's segments are literal, `{name}` (one segment, into
/// `request.parameters[name]`) or a final `{name...}` (the rest of the path). Each route says who may call it,
/// and the security guard checks that before the handler runs.
/// Unchecked Sendable: the routes are added and read under `lock`; a handler is Sendable.
public final class WebRouter: @unchecked Sendable {
    public typealias Handler = @Sendable (WebRequest) throws -> WebResponse

    /// Who may call a route.
    public enum Access: Sendable {
        /// The app's JSON API: the session cookie, our Host, and our Origin on every request.
        case api
        /// Pages, scripts and styles that hold no data, and the sign-in exchange: our Host only.
        case page
        /// Book resources under a per-session path: our Host only, no cookie, and a sandbox that reaches no API.
        case bookResource
    }

    struct Route {
        let method: String
        /// As given (`/api/book/{id}`), which is how the OpenAPI document names it.
        let pattern: String
        let segments: [Substring]
        let access: Access
        let handler: Handler
    }

    private let lock = NSLock()
    private var routes: [Route] = []

    public init() {}

    public func add(_ method: String, _ pattern: String, access: Access = .api, _ handler: @escaping Handler) {
        let route = Route(
            method: method.uppercased(), pattern: pattern, segments: pattern.split(separator: "/"), access: access,
            handler: handler)
        lock.withLock { routes.append(route) }
    }

    /// Every route as added: its method, its pattern and who may call it (the OpenAPI document is checked against it).
    public var table: [(method: String, pattern: String, access: Access)] {
        lock.withLock { routes.map { ($0.method, $0.pattern, $0.access) } }
    }

    enum Match {
        case found(Route, [String: String])
        /// The path exists with other methods (405, with Allow).
        case wrongMethod([String])
        case none
    }

    func match(_ method: String, _ path: String) -> Match {
        let parts = path.split(separator: "/")
        var allowed: [String] = []
        for route in lock.withLock({ routes }) {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route, parameters)
            }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .none : .wrongMethod(allowed)
    }

    private static func bind(_ pattern: [Substring], to parts: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in pattern.enumerated() {
            if segment.hasPrefix("{") && segment.hasSuffix("...}") {
                guard index < parts.count else { return nil }
                parameters[String(segment.dropFirst().dropLast(4))] = parts[index...].joined(separator: "/")
                return parameters
            }
            guard index < parts.count else { return nil }
            if segment.hasPrefix("{") && segment.hasSuffix("}") {
                parameters[String(segment.dropFirst().dropLast())] = String(parts[index])
            } else if segment != parts[index] {
                return nil
            }
        }
        return pattern.count == parts.count ? parameters : nil
    }
}
