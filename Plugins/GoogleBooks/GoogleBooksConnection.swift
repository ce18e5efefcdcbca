import CCrypto
import Foundation
import PluginAPI
import PluginKit

final class GoogleBooksConnection: ReadingListConnection {
    let host: PluginHost
    let settings: [String: String]
    var base: String {
        (settings["baseURL"] ?? "https://www.googleapis.com/books/v1").trimmingCharacters(
            in: CharacterSet(charactersIn: "/"))
    }
    var authURL: String { settings["authURL"] ?? "https://accounts.google.com/o/oauth2/v2/auth" }
    var tokenURL: String { settings["tokenURL"] ?? "https://oauth2.googleapis.com/token" }
    static let scope = "https://www.googleapis.com/auth/books"
    /// Longest pause for one 429, and how many a pull survives before giving up.
    var maxBackoff: TimeInterval = 60
    let maxThrottles = 8

    init(host: PluginHost, settings: [String: String]) {
        self.host = host
        self.settings = settings
    }

    // MARK: Requests

    enum Access { case oauth, apiKey(String, user: String) }

    func access() throws -> Access {
        if try host.secret("refresh_token") != nil || host.secret("access_token") != nil { return .oauth }
        if let key = try host.secret("apiKey"), let user = settings["userId"] { return .apiKey(key, user: user) }
        throw PluginFailure.protected(
            "not connected to Google Books: sign in with `shelf lists connect google-books --set clientId=... --authorize`, "
                + "or read public shelves with --set userId=... and an API key (--secret apiKey)")
    }

    /// A request with the bearer token, refreshed when expired or refused once; 429 waits and resumes.
    func request(_ method: String, _ path: String, _ query: [(String, String)] = [], access: Access) throws
        -> HostHTTPResponse
    {
        var parameters = query
        if case .apiKey(let key, _) = access { parameters.append(("key", key)) }
        let url = base + path + (parameters.isEmpty ? "" : "?" + form(parameters))
        var refreshed = false
        var throttles = 0
        while true {
            if host.isCancelled { throw PluginFailure.cancelled }
            var headers: [String: String] = [:]
            if case .oauth = access { headers["Authorization"] = "Bearer \(try accessToken())" }
            let response = try host.http(method, url, headers: headers, noRetry: true)
            switch response.status {
            case 401 where !refreshed:
                if case .oauth = access {
                    refreshed = true
                    try refresh()
                    continue
                }
                throw PluginFailure.protected("Google refused the API key (401)")
            case 401, 403:
                throw PluginFailure.protected(
                    "Google Books refused access (\(response.status)\(errorMessage(response))): "
                        + "sign in again with `shelf lists connect google-books --authorize`")
            case 429, 503:
                throttles += 1
                guard throttles <= maxThrottles else {
                    throw PluginFailure.io(
                        "Google Books is still limiting requests after \(maxThrottles) waits: try again later")
                }
                let wait = min(maxBackoff, retryAfter(response) ?? Double(1 << min(throttles, 6)))
                host.log(.info, "Google Books answered \(response.status): waiting \(Int(wait)) s, then resuming")
                try sleep(wait)
                continue
            default:
                return response
            }
        }
    }

    func retryAfter(_ response: HostHTTPResponse) -> Double? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let s = Double(value), s >= 0 { return s }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    func sleep(_ seconds: TimeInterval) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if host.isCancelled { throw PluginFailure.cancelled }
            Thread.sleep(forTimeInterval: min(0.05, max(0, end.timeIntervalSinceNow)))
        }
    }

    func errorMessage(_ response: HostHTTPResponse) -> String {
        // Only the words added to an error already said (the status); a body that is no JSON adds none.
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let error = object["error"] as? [String: Any], let message = error["message"] as? String
        else { return "" }
        return ": " + String(message.prefix(200))
    }

    func json(_ response: HostHTTPResponse, what: String) throws -> [String: Any] {
        guard response.isSuccess else {
            if response.status == 404 { throw PluginFailure.notFound("Google Books has no \(what)") }
            throw PluginFailure.io("Google Books answered \(response.status) for \(what)\(errorMessage(response))")
        }
        var body = response.body
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw PluginFailure.badData("Google Books' answer for \(what) is not a JSON object")
        }
        return object
    }

    // MARK: Tokens

    func accessToken() throws -> String {
        if let token = try host.secret("access_token") {
            let expiry = try host.secret("token_expiry").flatMap(Double.init) ?? .infinity
            if expiry - Date().timeIntervalSince1970 > 30 { return token }
        }
        try refresh()
        guard let token = try host.secret("access_token") else {
            throw PluginFailure.protected("Google gave no access token")
        }
        return token
    }

    func refresh() throws {
        guard let refresh = try host.secret("refresh_token"), let client = settings["clientId"] else {
            throw PluginFailure.protected(
                "the Google sign-in has expired and cannot be renewed: sign in again with `shelf lists connect google-books --authorize`"
            )
        }
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client)]
        if let secret = try host.secret("clientSecret") { fields.append(("client_secret", secret)) }
        try token(fields, what: "renewing the sign-in")
    }

    func token(_ fields: [(String, String)], what: String) throws {
        let response = try host.http(
            "POST", tokenURL, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(form(fields).utf8), noRetry: true)
        var body = response.body
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        // A body that is no JSON has no token: the guard below says what Google answered.
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        guard response.isSuccess, let access = object["access_token"] as? String, !access.isEmpty else {
            if response.status == 400 || response.status == 401, let error = object["error"] as? String {
                // Forgetting tokens Google refused is tidying: the error says to sign in again, which replaces them.
                if error == "invalid_grant" {
                    try? host.setSecret(nil, for: "refresh_token"); try? host.setSecret(nil, for: "access_token")
                }
                throw PluginFailure.protected(
                    "Google refused \(what) (\(error)): sign in again with `shelf lists connect google-books --authorize`"
                )
            }
            throw PluginFailure.io("Google's token endpoint answered \(response.status) while \(what)")
        }
        try host.setSecret(access, for: "access_token")
        let lifetime = (object["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        try host.setSecret(String(Int(Date().timeIntervalSince1970 + lifetime)), for: "token_expiry")
        if let refresh = object["refresh_token"] as? String, !refresh.isEmpty {
            try host.setSecret(refresh, for: "refresh_token")
        }
    }

    // MARK: OAuth 2.0 for installed apps, PKCE S256 (RFC 7636)

    func authorizeBegin(redirectURI: String) throws -> AuthorizationStart {
        guard let client = settings["clientId"] else {
            throw PluginFailure.invalidArgument(
                "signing in needs the OAuth client id of your own Google Cloud project: --set clientId=...")
        }
        let verifier = PKCE.verifier()
        let state = PKCE.verifier(bytes: 16)
        try host.setSecret(verifier, for: "pkce_verifier")
        try host.setSecret(state, for: "oauth_state")
        try host.setSecret(redirectURI, for: "oauth_redirect")
        let url =
            authURL + "?"
            + form([
                ("client_id", client), ("redirect_uri", redirectURI), ("response_type", "code"), ("scope", Self.scope),
                ("code_challenge", PKCE.challenge(verifier)), ("code_challenge_method", "S256"), ("state", state),
                ("access_type", "offline"), ("prompt", "consent")
            ])
        return AuthorizationStart(url: url, state: state)
    }

    func authorizeComplete(query: [String: String]) throws {
        guard let client = settings["clientId"], let verifier = try host.secret("pkce_verifier"),
            let state = try host.secret("oauth_state"), let redirect = try host.secret("oauth_redirect")
        else {
            throw PluginFailure.protected(
                "no Google sign-in is in progress: run `shelf lists connect google-books --authorize` again")
        }
        if let error = query["error"] { throw PluginFailure.protected("Google declined the sign-in (\(error))") }
        guard query["state"] == state else {
            throw PluginFailure.protected("the sign-in answer does not match the request (state): sign in again")
        }
        guard let code = query["code"], !code.isEmpty else {
            throw PluginFailure.protected("the sign-in answer has no code")
        }
        var fields = [
            ("grant_type", "authorization_code"), ("code", code), ("client_id", client),
            ("redirect_uri", redirect), ("code_verifier", verifier)
        ]
        if let secret = try host.secret("clientSecret") { fields.append(("client_secret", secret)) }
        try token(fields, what: "the sign-in")
        for key in ["pkce_verifier", "oauth_state", "oauth_redirect"] { try host.setSecret(nil, for: key) }
    }

    // MARK: Pull

    static let wellKnown: [Int: String] = [2: "to-read", 3: "currently-reading", 4: "read"]

    func shelfList(_ access: Access) throws -> [[String: Any]] {
        let path: String
        if case .apiKey(_, let user) = access {
            path = "/users/\(user)/bookshelves"
        } else {
            path = "/mylibrary/bookshelves"
        }
        let object = try json(try request("GET", path, access: access), what: "bookshelves")
        return object["items"] as? [[String: Any]] ?? []
    }

    func volumes(shelf id: Int, _ access: Access) throws -> [[String: Any]] {
        let path: String
        if case .apiKey(_, let user) = access {
            path = "/users/\(user)/bookshelves/\(id)/volumes"
        } else {
            path = "/mylibrary/bookshelves/\(id)/volumes"
        }
        var items: [[String: Any]] = []
        var start = 0
        while start < 100_000 {
            let object = try json(
                try request("GET", path, [("startIndex", String(start)), ("maxResults", "40")], access: access),
                what: "the volumes of shelf \(id)")
            let page = object["items"] as? [[String: Any]] ?? []
            items += page
            let total = (object["totalItems"] as? NSNumber)?.intValue ?? 0
            start += page.count
            // Progress only; a cancellation is seen by the next request, which the host stops.
            try? host.progress(total > 0 ? min(1, Double(start) / Double(total)) : -1, "Google Books shelf \(id)")
            if page.isEmpty || start >= total { break }
        }
        return items
    }

    func pull(shelf: String?) throws -> PullResult {
        let access = try access()
        var shelves: [ReadingListShelf] = []
        var byVolume: [String: Int] = [:]
        var entries: [ReadingListEntry] = []
        for item in try shelfList(access) {
            guard let id = (item["id"] as? NSNumber)?.intValue else { continue }
            let title = item["title"] as? String ?? "shelf \(id)"
            let name = Self.wellKnown[id] ?? title
            if let shelf, shelf != name && shelf != title && shelf != String(id) { continue }
            shelves.append(
                ReadingListShelf(id: String(id), name: name, count: (item["volumeCount"] as? NSNumber)?.intValue))
            if (item["volumeCount"] as? NSNumber)?.intValue == 0 { continue }
            // Only shelves a patron keeps: not "Recently viewed", "Browsing history", "Books for you".
            if [6, 8, 9].contains(id) { continue }
            for volume in try volumes(shelf: id, access) {
                guard var entry = GoogleVolume.entry(volume, shelf: name) else { continue }
                let key = entry.identifiers["google"] ?? UUID().uuidString
                if let i = byVolume[key] {
                    if !(entries[i].shelves ?? []).contains(name) {
                        entries[i].shelves = (entries[i].shelves ?? []) + [name]
                    }
                    if GoogleVolume.rank(name) > GoogleVolume.rank(entries[i].shelf) { entries[i].shelf = name }
                } else {
                    entry.shelves = [name]
                    byVolume[key] = entries.count
                    entries.append(entry)
                }
            }
        }
        return PullResult(shelves: shelves, entries: entries)
    }

    // MARK: Push

    func push(_ entries: [ReadingListEntry]) throws -> PushResult {
        let access = try access()
        guard case .oauth = access else {
            throw PluginFailure.protected(
                "changing Google Books shelves needs a sign-in: `shelf lists connect google-books --authorize` (an API key only reads)"
            )
        }
        var onShelf: [Int: Set<String>] = [:]
        var results: [PushOutcome] = []
        for (i, e) in entries.enumerated() {
            guard let shelfID = Self.wellKnown.first(where: { $0.value == e.shelf })?.key else {
                results.append(
                    PushOutcome(index: i, status: .failed, message: "shelf \(e.shelf) cannot be pushed to Google Books")
                )
                continue
            }
            do {
                guard let volumeID = try e.identifiers["google"] ?? lookup(isbn: e.isbn13 ?? e.isbn10, access: access)
                else {
                    results.append(
                        PushOutcome(index: i, status: .failed, message: "Google Books has no volume with this ISBN"))
                    continue
                }
                if onShelf[shelfID] == nil {
                    onShelf[shelfID] = Set(try volumes(shelf: shelfID, access).compactMap { $0["id"] as? String })
                }
                if onShelf[shelfID]!.contains(volumeID) {
                    results.append(PushOutcome(index: i, status: .unchanged))
                    continue
                }
                let response = try request(
                    "POST", "/mylibrary/bookshelves/\(shelfID)/addVolume",
                    [("volumeId", volumeID), ("reason", "IOS_PREX")].filter { $0.0 == "volumeId" }, access: access)
                guard response.isSuccess else {
                    results.append(
                        PushOutcome(
                            index: i, status: .failed,
                            message: "Google Books answered \(response.status)\(errorMessage(response))"))
                    continue
                }
                onShelf[shelfID]!.insert(volumeID)
                // A finished book leaves "To read" and "Reading now".
                if e.shelf == "read" {
                    // Best effort: the book is on "Read", which is what was asked; left on another shelf, it says so there.
                    for other in [2, 3] {
                        _ = try? request(
                            "POST", "/mylibrary/bookshelves/\(other)/removeVolume", [("volumeId", volumeID)],
                            access: access)
                    }
                }
                results.append(PushOutcome(index: i, status: .added))
            } catch let failure as PluginFailure
                where failure.status != SHELF_E_CANCELLED && failure.status != SHELF_E_PROTECTED
            {
                results.append(PushOutcome(index: i, status: .failed, message: failure.message))
            }
        }
        return PushResult(results: results)
    }

    /// volumes?q=isbn:... → the first volume's id.
    func lookup(isbn: String?, access: Access) throws -> String? {
        guard let isbn else { return nil }
        let object = try json(
            try request("GET", "/volumes", [("q", "isbn:\(isbn)")], access: access), what: "ISBN \(isbn)")
        return (object["items"] as? [[String: Any]])?.first?["id"] as? String
    }

    func form(_ pairs: [(String, String)]) -> String { PercentEncoding.form(pairs) }
}

enum GoogleVolume {
    static func rank(_ shelf: String) -> Int {
        switch shelf {
        case "read": return 3;
        case "currently-reading": return 2;
        case "to-read": return 1;
        default: return 0
        }
    }

    static func entry(_ volume: [String: Any], shelf: String) -> ReadingListEntry? {
        guard let info = volume["volumeInfo"] as? [String: Any], let title = info["title"] as? String else {
            return nil
        }
        var ids: [String: String] = [:]
        if let id = volume["id"] as? String { ids["google"] = id }
        for identifier in info["industryIdentifiers"] as? [[String: Any]] ?? [] {
            guard let type = identifier["type"] as? String, let value = identifier["identifier"] as? String else {
                continue
            }
            let digits = value.uppercased().filter { $0.isNumber || $0 == "X" }
            if type == "ISBN_13", digits.count == 13 { ids["isbn13"] = digits }
            if type == "ISBN_10", digits.count == 10 { ids["isbn10"] = digits }
        }
        let fullTitle = (info["subtitle"] as? String).map { "\(title): \($0)" } ?? title
        let user = volume["userInfo"] as? [String: Any]
        let updated = (user?["updated"] as? String).map { String($0.prefix(10)) }
        let rating = ((user?["review"] as? [String: Any])?["rating"] as? NSNumber)?.intValue
        return ReadingListEntry(
            identifiers: ids, title: fullTitle, authors: info["authors"] as? [String] ?? [], shelf: shelf,
            dateAdded: updated, dateRead: shelf == "read" ? updated : nil,
            rating: rating.flatMap { (1...5).contains($0) ? Double($0) : nil })
    }
}

/// PKCE (RFC 7636): a random verifier and its S256 challenge, through libcrypto.
enum PKCE {
    static func verifier(bytes count: Int = 32) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        if RAND_bytes(&bytes, Int32(count)) != 1 { bytes = (0..<count).map { _ in UInt8.random(in: 0...255) } }
        return base64url(Data(bytes))
    }

    static func challenge(_ verifier: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array(verifier.utf8)
        _ = input.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
        return base64url(Data(digest))
    }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
