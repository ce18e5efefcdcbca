import Foundation

/// Who may talk to the server. A browser proves it was opened by shelf with the launch secret (in the URL that
/// `shelf serve` prints and opens), which `/open` exchanges for an HttpOnly, SameSite=Strict session cookie and
/// takes out of the address bar. Every request must name one of our hosts in `Host` (a page on another site that
/// points a name of its own at 127.0.0.1 gets nothing: no DNS rebinding); API requests also need the cookie and,
/// when the browser says where they come from, our origin (no cross-site writes). With `--listen`, a password
/// takes the place of the secret for browsers on other machines.
public final class RequestGuard: @unchecked Sendable {
    public static let cookieName = "shelf_session"

    /// The secret in the URL that `shelf serve` opens.
    public let secret: String
    private let password: String?
    private let lock = NSLock()
    private var sessions: Set<String> = []
    private var hosts: Set<String> = []

    public init(secret: String? = nil, password: String? = nil) {
        self.secret = secret ?? RandomToken.make()
        self.password = password
    }

    /// The names browsers may use for this server: the loopback names, and the `--listen` address if any.
    public func allow(port: UInt16, listen: String?) {
        var names = ["127.0.0.1", "localhost", "[::1]"]
        if let listen { names.append(listen.contains(":") && !listen.hasPrefix("[") ? "[\(listen)]" : listen) }
        lock.withLock { hosts = Set(names.map { "\($0):\(port)" }) }
    }

    public var allowedOrigins: Set<String> { lock.withLock { Set(hosts.map { "http://\($0)" }) } }

    /// Refuses the request unless `access` allows it; the error says what was wrong.
    public func check(_ request: WebRequest, access: WebRouter.Access) throws {
        guard let host = request.header("host"), lock.withLock({ hosts.contains(host.lowercased()) }) else {
            throw WebError(403, "This server answers only to its own address", hint: "Open the address `shelf serve` printed.", kind: "refused-host")
        }
        guard access == .api else { return }
        // Sec-Fetch-Site comes from the browser itself; a script cannot set it.
        if let site = request.header("sec-fetch-site"), site != "same-origin", site != "none" {
            throw WebError(403, "Requests from other sites are refused", kind: "refused-origin")
        }
        // The app's pages call the API with fetch and EventSource only; an image, style sheet, frame or link in a
        // book's page (which shares our origin so the reader can lay it out) must not reach it.
        if let destination = request.header("sec-fetch-dest"), destination != "empty" {
            throw WebError(403, "The API answers the app's own calls only", kind: "refused-origin")
        }
        if let origin = request.header("origin") {
            guard allowedOrigins.contains(origin.lowercased()) else {
                throw WebError(403, "Requests from other sites are refused", hint: "Origin \(origin) is not this server.", kind: "refused-origin")
            }
        } else if !["GET", "HEAD"].contains(request.method) {
            throw WebError(403, "A change needs the page's Origin", hint: "Browsers send it; other clients must send Origin: http://HOST:PORT.", kind: "refused-origin")
        }
        guard let token = request.cookies[Self.cookieName], hasSession(token) else {
            throw WebError(401, "This browser has not been let in", hint: "Open the address that `shelf serve --open` prints, with its key.", kind: "no-session")
        }
    }

    private func hasSession(_ token: String) -> Bool {
        lock.withLock { sessions.contains { RandomToken.equal($0, token) } }
    }

    /// A new session for a browser that showed the secret or the password; nil when it showed neither.
    public func admit(secret offered: String?, password offeredPassword: String? = nil) -> String? {
        let byKey = offered.map { RandomToken.equal($0, secret) } ?? false
        let byPassword = zip(password, offeredPassword).map { RandomToken.equal($0, $1) } ?? false
        guard byKey || byPassword else { return nil }
        let token = RandomToken.make()
        lock.withLock { _ = sessions.insert(token) }
        return token
    }

    /// The header that gives a browser its session. No Max-Age: it ends when the browser closes.
    public static func cookieHeader(_ token: String) -> (String, String) {
        ("Set-Cookie", "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
    }
}

private func zip(_ a: String?, _ b: String?) -> (String, String)? {
    guard let a, let b else { return nil }
    return (a, b)
}
