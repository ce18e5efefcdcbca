import Foundation
import Host

/// Who may talk to the server.
///
/// The app has an origin of its own, `http://shelf.localhost:PORT` (browsers resolve every `*.localhost` name to
/// loopback), and each book another (`BookOrigins`). A browser proves it was opened by shelf with a launch key (in
/// the address `shelf serve` prints and opens), good once: `/open` exchanges it for a session token, which the app's
/// page keeps in its origin's storage and sends in the `X-Shelf-Session` header. No cookie: a cookie is sent to
/// every port of its host, so another local service the browser visits would receive it; the origin's storage is
/// the app's alone (scheme, host and port). Every request must name one of our hosts in `Host` (no DNS rebinding);
/// API requests also need the token and, when the browser says where they come from, our origin and
/// `Sec-Fetch-Site: same-origin` (a book's origin is another site). With `--listen`, a password takes the place of
/// the launch key for browsers on other machines.
/// Unchecked Sendable: sessions, launch keys, hosts and the home address are read and written under `lock`; the secret and password are constant.
public final class RequestGuard: @unchecked Sendable {
    /// The header that carries the session token (`session` in the query for `EventSource`, which sets no header).
    public static let sessionHeader = "x-shelf-session"
    /// The header `shelf serve --open` shows the running server's secret in to get a new launch key.
    public static let secretHeader = "x-shelf-secret"
    /// The app's host name; `BookOrigins` gives each book another under `localhost`.
    public static let appName = "shelf.localhost"

    /// The running server's own secret: in `serve.json` (readable by the patron alone) and never in an address; it
    /// asks for launch keys (`mintLaunchKey`).
    public let secret: String
    private let password: String?
    private let lock = NSLock()
    private var sessions: Set<String> = []
    private var launchKeys: Set<String> = []
    private var hosts: Set<String> = []
    /// The app's address, `http://shelf.localhost:PORT/` (the `--listen` address's with one), once it listens.
    private var homeAddress: String?

    public init(secret: String? = nil, password: String? = nil) {
        self.secret = secret ?? RandomToken.make()
        self.password = password
    }

    /// The names browsers may use for the app: `shelf.localhost`, the loopback names, and the `--listen` address if
    /// any. The first is the one addresses are made with.
    public func allow(port: UInt16, listen: String?) {
        var names = [Self.appName, "127.0.0.1", "localhost", "[::1]"]
        let listening = listen.map { $0.contains(":") && !$0.hasPrefix("[") ? "[\($0)]" : $0 }
        if let listening { names.append(listening) }
        lock.withLock {
            hosts = Set(names.map { "\($0):\(port)" })
            homeAddress = "http://\(listening ?? Self.appName):\(port)/"
        }
    }

    /// Where a browser that used another name is sent: the address `shelf serve` printed.
    private var home: String? { lock.withLock { homeAddress } }

    public var allowedOrigins: Set<String> { lock.withLock { Set(hosts.map { "http://\($0)" }) } }

    /// True when `host` (a Host header) is one of the app's.
    public func isAppHost(_ host: String?) -> Bool {
        guard let host else { return false }
        return lock.withLock { hosts.contains(host.lowercased()) }
    }

    /// Refuses the request unless `access` allows it; the error says what was wrong.
    public func check(_ request: WebRequest, access: WebRouter.Access) throws {
        guard isAppHost(request.header("host")) else {
            throw WebError(403, SecurityRefusal.foreignHost(home: home), kind: "refused-host")
        }
        guard access == .api else { return }
        // Sec-Fetch-Site comes from the browser itself; a script cannot set it. A book's origin is another site.
        if let site = request.header("sec-fetch-site"), site != "same-origin", site != "none" {
            throw WebError(403, SecurityRefusal.otherSite, kind: "refused-origin")
        }
        // The app's pages call the API with fetch and EventSource only; an image, style sheet, frame or form
        // elsewhere must not reach it.
        if let destination = request.header("sec-fetch-dest"), destination != "empty" {
            throw WebError(403, SecurityRefusal.notTheAppsCall, kind: "refused-origin")
        }
        if let origin = request.header("origin") {
            guard allowedOrigins.contains(origin.lowercased()) else {
                throw WebError(403, SecurityRefusal.foreignOrigin(origin: origin), kind: "refused-origin")
            }
        } else if !["GET", "HEAD"].contains(request.method) {
            throw WebError(403, SecurityRefusal.changeWithoutOrigin, kind: "refused-origin")
        }
        let offered = request.header(Self.sessionHeader) ?? (request.method == "GET" ? request.query["session"] : nil)
        guard let offered, hasSession(offered) else {
            throw WebError(401, SecurityRefusal.noSession, kind: "no-session")
        }
    }

    private func hasSession(_ token: String) -> Bool {
        lock.withLock { sessions.contains { RandomToken.equal($0, token) } }
    }

    /// A new launch key: it lets one browser in, once.
    public func mintLaunchKey() -> String {
        let key = RandomToken.make()
        lock.withLock { _ = launchKeys.insert(key) }
        return key
    }

    /// True when `offered` is the server's secret (a `shelf serve --open` of the patron's, which read `serve.json`).
    public func isSecret(_ offered: String?) -> Bool {
        offered.map { RandomToken.equal($0, secret) } ?? false
    }

    /// A new session for a browser that showed a launch key (used up here) or the password; nil when it showed
    /// neither.
    public func admit(key offered: String?, password offeredPassword: String? = nil) -> String? {
        let byPassword = zip(password, offeredPassword).map { RandomToken.equal($0, $1) } ?? false
        return lock.withLock {
            let key = offered.flatMap { offered in launchKeys.first { RandomToken.equal($0, offered) } }
            guard key != nil || byPassword else { return nil }
            if let key { launchKeys.remove(key) }
            let token = RandomToken.make()
            sessions.insert(token)
            return token
        }
    }
}

private func zip(_ a: String?, _ b: String?) -> (String, String)? {
    guard let a, let b else { return nil }
    return (a, b)
}
