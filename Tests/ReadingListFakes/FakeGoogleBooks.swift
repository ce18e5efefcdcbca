import Foundation
import TestSupport

/// A loopback Google Books v1 and OAuth 2.0 server, speaking the wire formats of the Discovery document in the
/// corpus (books#bookshelves, books#volumes, addVolume/removeVolume with empty answers) and of Google's OAuth
/// for installed apps (code + PKCE S256, refresh tokens). Volumes come from the corpus answers where present.
public final class FakeGoogleBooks: @unchecked Sendable {
    public let server: LoopbackHTTPServer
    public let lock = NSLock()
    public var volumes: [String: [String: Any]] = [:]
    var shelves: [Int: (title: String, ids: [String])] = [
        0: ("Favorites", []), 2: ("To read", []), 3: ("Reading now", []), 4: ("Have read", []), 7: ("My eBooks", [])
    ]
    var challenges: [String: String] = [:]
    var validTokens: Set<String> = []
    var refreshTokens: Set<String> = ["rt-1"]
    public var issued = 0
    public var verifiedPKCE = 0
    var refreshes = 0
    var throttleOnce: Set<Int> = []
    var apiKey = "AIza-test-key"
    var publicUser = "1234567890"
    var addVolumeCalls: [(Int, String)] = []
    /// The next sign-in is declined on Google's page (the patron pressed Cancel): error=access_denied.
    public var declineNext = false

    public var base: String { server.url("/books/v1").absoluteString }
    public var authURL: String { server.url("/o/oauth2/v2/auth").absoluteString }
    public var tokenURL: String { server.url("/token").absoluteString }

    public init(corpus: URL?) throws {
        server = try LoopbackHTTPServer()
        if let corpus {
            for name in ["volumes-search.json", "volume-en.json"] {
                var data = try Data(contentsOf: corpus.appendingPathComponent("readinglists/google-books/\(name)"))
                if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
                let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
                for item in (object["items"] as? [[String: Any]]) ?? [object] { volumes[item["id"] as! String] = item }
            }
        }
        // Fixture volumes of our own: enough for pagination (more than one 40-volume page), and one
        // more for a second shelf when the corpus is absent.
        for i in 0..<46 {
            let id = String(format: "gen%03d", i)
            let isbn = String(format: "9780000%06d", i)
            volumes[id] = [
                "kind": "books#volume", "id": id,
                "volumeInfo": [
                    "title": "Generated Volume \(i)", "authors": ["Author \(i)"],
                    "industryIdentifiers": [["type": "ISBN_13", "identifier": isbn]]
                ]
            ]
        }
        routes()
    }

    public func stop() { server.stop() }

    public static func json(_ object: Any, status: Int = 200) -> LoopbackHTTPServer.Response {
        .data(
            try! JSONSerialization.data(withJSONObject: object), status: status,
            contentType: "application/json; charset=UTF-8")
    }

    static func error(_ status: Int, _ message: String) -> LoopbackHTTPServer.Response {
        json(
            ["error": ["code": status, "message": message, "errors": [["reason": "x", "message": message]]]],
            status: status)
    }

    func authorised(_ r: LoopbackHTTPServer.Request) -> Bool {
        guard let h = r.header("Authorization"), h.hasPrefix("Bearer ") else { return false }
        return lock.withLock { validTokens.contains(String(h.dropFirst(7))) }
    }

    /// The shelf id in /books/v1/{mylibrary|users/ID}/bookshelves/{id}/...
    func shelfID(_ path: String) -> Int? {
        let parts = path.split(separator: "/")
        guard let i = parts.firstIndex(of: "bookshelves"), i + 1 < parts.count else { return nil }
        return Int(parts[i + 1])
    }

    func shelfJSON(_ id: Int) -> [String: Any] {
        let s = shelves[id]!
        return [
            "kind": "books#bookshelf", "id": id, "title": s.title, "access": id == 2 || id == 4 ? "PUBLIC" : "PRIVATE",
            "updated": "2026-01-02T10:00:00.000Z", "created": "2025-01-02T10:00:00.000Z", "volumeCount": s.ids.count,
            "volumesLastUpdated": "2026-01-02T10:00:00.000Z", "selfLink": "\(base)/mylibrary/bookshelves/\(id)"
        ]
    }

    func volumesPage(_ id: Int, _ r: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        lock.lock()
        defer { lock.unlock() }
        if throttleOnce.remove(id) != nil { return Self.error(429, "Rate Limit Exceeded").adding("Retry-After", "1") }
        let q = r.queryItems
        let start = Int(q["startIndex"] ?? "0") ?? 0
        let max = min(Int(q["maxResults"] ?? "10") ?? 10, 40)
        let ids = shelves[id]!.ids
        let page = ids.dropFirst(start).prefix(max)
        var items: [[String: Any]] = []
        for vid in page {
            var v = volumes[vid]!
            v["userInfo"] = ["updated": "2026-01-0\(1 + items.count % 9)T08:00:00.000Z", "isInMyBooks": true]
            items.append(v)
        }
        var out: [String: Any] = ["kind": "books#volumes", "totalItems": ids.count]
        if !items.isEmpty { out["items"] = items }
        return Self.json(out)
    }

    func routes() {
        server.route("GET", "/o/oauth2/v2/auth") { [unowned self] r in
            let q = r.queryItems
            guard q["response_type"] == "code", q["code_challenge_method"] == "S256",
                let challenge = q["code_challenge"],
                let redirect = q["redirect_uri"], redirect.hasPrefix("http://127.0.0.1:"), let state = q["state"],
                q["scope"] == "https://www.googleapis.com/auth/books"
            else { return .text("bad authorization request", status: 400) }
            if lock.withLock({ () -> Bool in
                defer { declineNext = false }
                return declineNext
            }) {
                return .redirect(to: "\(redirect)?error=access_denied&state=\(state)")
            }
            let code = "code-\(UUID().uuidString.prefix(8))"
            lock.withLock { challenges[code] = challenge }
            return .redirect(
                to: "\(redirect)?state=\(state)&code=\(code)&scope=https%3A//www.googleapis.com/auth/books")
        }
        server.route("POST", "/token") { [unowned self] r in
            let f = TestCrypto.form(r.text)
            lock.lock()
            defer { lock.unlock() }
            switch f["grant_type"] {
            case "authorization_code":
                guard let code = f["code"], let challenge = challenges.removeValue(forKey: code),
                    let verifier = f["code_verifier"]
                else {
                    return Self.json(["error": "invalid_grant", "error_description": "Bad Request"], status: 400)
                }
                guard TestCrypto.sha256base64url(verifier) == challenge else {
                    return Self.json(
                        ["error": "invalid_grant", "error_description": "Invalid code verifier."], status: 400)
                }
                verifiedPKCE += 1
                issued += 1
                validTokens.insert("at-\(issued)")
                return Self.json([
                    "access_token": "at-\(issued)", "expires_in": 3599, "refresh_token": "rt-1",
                    "scope": "https://www.googleapis.com/auth/books", "token_type": "Bearer"
                ])
            case "refresh_token":
                guard let token = f["refresh_token"], refreshTokens.contains(token) else {
                    return Self.json(
                        ["error": "invalid_grant", "error_description": "Token has been expired or revoked."],
                        status: 400)
                }
                refreshes += 1
                issued += 1
                validTokens.insert("at-\(issued)")
                return Self.json([
                    "access_token": "at-\(issued)", "expires_in": 3599,
                    "scope": "https://www.googleapis.com/auth/books", "token_type": "Bearer"
                ])
            default:
                return Self.json(["error": "unsupported_grant_type"], status: 400)
            }
        }
        server.route("GET", "/books/v1/mylibrary/bookshelves") { [unowned self] r in
            guard authorised(r) else { return Self.error(401, "Invalid Credentials") }
            return lock.withLock {
                Self.json(["kind": "books#bookshelves", "items": shelves.keys.sorted().map(shelfJSON)])
            }
        }
        server.route("GET", "/books/v1/users/\(publicUser)/bookshelves") { [unowned self] r in
            guard r.queryItems["key"] == apiKey else {
                return Self.error(400, "API key not valid. Please pass a valid API key.")
            }
            return lock.withLock { Self.json(["kind": "books#bookshelves", "items": [2, 4].map(shelfJSON)]) }
        }
        for id in 0...9 {
            server.route("GET", "/books/v1/mylibrary/bookshelves/\(id)/volumes") { [unowned self] r in
                guard authorised(r) else { return Self.error(401, "Invalid Credentials") }
                guard lock.withLock({ shelves[id] != nil }) else {
                    return Self.error(404, "The bookshelf ID could not be found.")
                }
                return volumesPage(id, r)
            }
            server.route("GET", "/books/v1/users/\(publicUser)/bookshelves/\(id)/volumes") { [unowned self] r in
                guard r.queryItems["key"] == apiKey else { return Self.error(400, "API key not valid.") }
                return volumesPage(id, r)
            }
            for action in ["addVolume", "removeVolume"] {
                server.route("POST", "/books/v1/mylibrary/bookshelves/\(id)/\(action)") { [unowned self] r in
                    guard authorised(r) else { return Self.error(401, "Invalid Credentials") }
                    guard let volume = r.queryItems["volumeId"], lock.withLock({ volumes[volume] != nil }) else {
                        return Self.error(400, "Invalid volume id")
                    }
                    lock.lock()
                    defer { lock.unlock() }
                    guard var s = shelves[id] else { return Self.error(404, "The bookshelf ID could not be found.") }
                    if action == "addVolume" {
                        addVolumeCalls.append((id, volume))
                        if !s.ids.contains(volume) { s.ids.append(volume) }
                    } else {
                        s.ids.removeAll { $0 == volume }
                    }
                    shelves[id] = s
                    return .status(204)
                }
            }
        }
        server.route("GET", "/books/v1/volumes") { [unowned self] r in
            let q = r.queryItems["q"] ?? ""
            guard q.hasPrefix("isbn:") else { return Self.error(400, "only isbn: here") }
            let isbn = String(q.dropFirst(5))
            let found = lock.withLock {
                volumes.values.filter { v in
                    let ids = ((v["volumeInfo"] as? [String: Any])?["industryIdentifiers"] as? [[String: Any]]) ?? []
                    return ids.contains { $0["identifier"] as? String == isbn }
                }
            }
            var out: [String: Any] = ["kind": "books#volumes", "totalItems": found.count]
            if !found.isEmpty { out["items"] = found }
            return Self.json(out)
        }
    }

    func expireTokens() { lock.withLock { validTokens.removeAll() } }
    public func put(_ ids: [String], on shelf: Int) { lock.withLock { shelves[shelf]!.ids = ids } }
    func ids(on shelf: Int) -> [String] { lock.withLock { shelves[shelf]!.ids } }
}
