import ShelfPlugins
import ShelfCore
import Foundation
import Synchronization

/// Fetches catalog documents for one account (or none): http(s) through the host's `HTTPClient` with the
/// account's credential and conditional requests against cached feeds, local files and `file://` directly.
public final class CatalogClient: Sendable {
    public let http: HTTPClient
    public let database: LibraryDatabase?
    public let authenticator: Authenticator?
    public var accountID: String? { authenticator?.account.id }

    public static let maxLocalFileSize = FeedXML.maxDocumentSize

    public init(http: HTTPClient, database: LibraryDatabase?, authenticator: Authenticator?) {
        self.http = http
        self.database = database
        self.authenticator = authenticator
    }

    /// Limits for catalogs and circulation, with what `environment` (a `Shelf`'s) changes: SHELF_HTTP_TIMEOUT,
    /// SHELF_HTTP_RETRIES and SHELF_DEADLINE.
    public static func configuration(in environment: [String: String]) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.maxBodySize = Int64(FeedXML.maxDocumentSize)
        configuration.requestTimeout = 60
        configuration.commandDeadline = CommandDeadline.configuredSeconds(in: environment)
        if let timeout = environment["SHELF_HTTP_TIMEOUT"].flatMap(Double.init) {
            configuration.requestTimeout = timeout
            configuration.connectTimeout = min(configuration.connectTimeout, timeout)
        }
        if let attempts = environment["SHELF_HTTP_RETRIES"].flatMap(Int.init) {
            configuration.retry = HTTPClient.RetryPolicy(maxAttempts: max(1, attempts), initialDelay: 0.2)
        }
        return configuration
    }

    /// Turns what the patron typed (an address, a `file://` URL or a local path) into a URL.
    public static func address(_ text: String) throws -> URL {
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let url = URL(string: text), url.host?.isEmpty == false else {
                throw ShelfError(
                    .usage, "\"\(text)\" is not a usable address",
                    hint: "Give an http(s) address, a file:// URL or a file.")
            }
            return url
        }
        if text.hasPrefix("file://") {
            guard let url = URL(string: text), url.isFileURL else {
                throw ShelfError(.usage, "\"\(text)\" is not a usable file address")
            }
            return url
        }
        if text.contains("://") {
            throw ShelfError(.usage, "shelf reads catalogs over http, https or from files, not \"\(text.prefix(40))\"")
        }
        return URL(fileURLWithPath: text).standardizedFileURL
    }

    // MARK: Documents

    /// A document's bytes, its content type and final address.
    public struct Fetched: Sendable {
        public var data: Data
        public var contentType: String?
        public var url: URL
        public var fromCache: Bool
    }

    public func fetch(
        _ url: URL,
        accept: String = "application/atom+xml;profile=opds-catalog, application/opds+json;q=0.9, */*;q=0.5",
        useCache: Bool = true
    ) throws -> Fetched {
        if url.isFileURL { return try readLocal(url) }
        var request = HTTPRequest(.get, url, headers: ["Accept": accept])
        // The feed cache is optional: a row that cannot be read is fetched whole, as if never cached.
        let cached = useCache ? try? database?.cachedFeed(url: url.absoluteString) : nil
        if let cached { request.setConditional(cached.validators) }
        let response = try send(request)
        if response.isNotModified, let cached {
            return Fetched(data: cached.body, contentType: cached.contentType, url: url, fromCache: true)
        }
        try Self.requireSuccess(response)
        // A full answer (200) replaces whatever was cached for the address: the cached body and its validators are
        // stale now. Without validators (or too large), or fetched past the cache (sync, entry refreshes), the old
        // row goes, so that a later conditional request can never be answered 304 against it and bring it back.
        if let database {
            if useCache, !response.validators.isEmpty, response.body.count <= 4 << 20 {
                // Not cached: the next visit fetches it whole, which is all the cache saves.
                try? database.storeFeed(
                    CachedFeed(
                        url: url.absoluteString, validators: response.validators,
                        contentType: response.headers["Content-Type"], body: response.body,
                        fetchedAt: Date()), accountID: accountID)
            } else if cached != nil || (!useCache && (try? database.hasCachedFeed(url: url.absoluteString)) == true) {
                // Optional as above: a stale row left is answered 304 only while the server's validators still match it.
                try? database.deleteCachedFeed(url: url.absoluteString)
            }
        }
        return Fetched(
            data: response.body, contentType: response.headers["Content-Type"], url: response.url, fromCache: false)
    }

    /// Fetches and parses a feed, remembering its entries for `shelf book ID` (unless the caller stores them itself,
    /// as a sync does together with the loans).
    public func feed(_ url: URL, useCache: Bool = true, remembering: Bool = true) throws -> CatalogFeed {
        let fetched = try fetch(url, useCache: useCache)
        let feed = try CatalogDocument.parse(fetched.data, url: fetched.url, contentType: fetched.contentType)
        if remembering, let database {
            do {
                try database.rememberEntries(feed.entries, accountID: accountID, feedURL: feed.url)
            } catch {
                // The feed is shown; but borrowing, reserving or `shelf book` by a title of it looks it up there.
                HostServices.warn(
                    "the titles of \(feed.url) were not remembered (\(error)): "
                        + "borrowing or reserving them by title or ID will not find them")
            }
        }
        return feed
    }

    private func readLocal(_ url: URL) throws -> Fetched {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ShelfError(
                .noInput, "there is no such file", subject: path, hint: "Check the path of the catalog file.")
        }
        if isDirectory.boolValue {
            // A static catalog folder: its root feed.
            for name in ["catalog.xml", "index.xml", "root.xml", "catalog.json", "index.json"] {
                let candidate = url.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: candidate.path) { return try readLocal(candidate) }
            }
            throw ShelfError(.noInput, "the folder holds no catalog.xml, index.xml or catalog.json", subject: path)
        }
        // A size that cannot be read leaves the check to the read below, which says why.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= Self.maxLocalFileSize else {
            throw ShelfError(
                .badData, "the file is \(size) bytes, more than shelf reads as one catalog document", subject: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShelfError(.permission, "the file cannot be read", subject: path, hint: "Check its permissions.")
        }
        return Fetched(data: data, contentType: nil, url: url, fromCache: false)
    }

    // MARK: Requests

    /// Sends `request` with the account's credential; a 401 renews a token once, then asks the patron to sign in.
    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.mapErrors(url: request.url) { try sendKeepingTransportErrors(request) }
    }

    /// `send`, with failures on the way left as `HTTPError`: circulation must know whether the library may have
    /// acted on a request whose answer never arrived whole.
    func sendKeepingTransportErrors(_ request: HTTPRequest) throws -> HTTPResponse {
        var signed = request
        try authenticator?.authorize(&signed)
        var response = try http.send(signed)
        if response.status == 401, let authenticator, try authenticator.recoverFrom401() {
            signed = request
            try authenticator.authorize(&signed)
            response = try http.send(signed)
        }
        if response.status == 401 { throw signInError(response, url: request.url) }
        // The library's clock, for rules that must follow the library's time (a loan ends when its server says).
        if let date = response.headers["Date"].flatMap(ServerClock.parseHTTPDate) { serverDate.withLock { $0 = date } }
        return response
    }

    /// The time the server stated (`Date` header) in its latest answer, if it stated one.
    public var lastServerDate: Date? { serverDate.withLock { $0 } }
    /// Under a lock: a client's requests may run on several threads (it was an unguarded var in an unchecked class).
    private let serverDate = Mutex<Date?>(nil)

    private func signInError(_ response: HTTPResponse, url: URL) -> ShelfError {
        let problem = ProblemDetail(data: response.body)
        if let authenticator {
            let signedIn = authenticator.credential != nil
            return ShelfError(
                .permission,
                signedIn
                    ? "the library did not accept your sign-in"
                        + (problem.map { " (\($0.words))" } ?? "") : "the library asks you to sign in",
                subject: authenticator.account.title,
                next: NextStep(
                    terminal: "Sign in with `shelf login \(authenticator.account.id)`.",
                    browser: "Sign in on the Accounts page."))
        }
        return ShelfError(
            .permission, "this catalog asks you to sign in", subject: url.absoluteString,
            next: NextStep(
                terminal: "Add the library first: `shelf account add \(url.absoluteString)`, then `shelf login`.",
                browser: "Add the library on the Accounts page first, then sign in."))
    }

    /// HTTP failures in words, with the exit code they deserve.
    static func mapErrors<T>(url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HTTPError {
            throw shelfError(error)
        }
    }

    static func shelfError(_ error: HTTPError) -> ShelfError {
        let kind: ShelfError.Kind
        switch error.kind {
        case .invalidRequest, .unsupportedScheme: kind = .usage
        case .bodyTooLarge: kind = .badData
        case .cancelled: kind = .cancelled
        case .file: kind = .ioError
        // Not the network's doing: the other command's download is what to wait for.
        case .busy: return ShelfError(.temporary, error.description)
        default: kind = .temporary
        }
        // A file that could not be written is this machine's disk, not the connection: its words say what to do.
        return ShelfError(
            kind, error.description,
            next: kind == .ioError
                ? nil
                : NextStep(
                    terminal:
                        "Check your connection and try again (SHELF_DEADLINE sets how long shelf waits); `shelf loans` still "
                        + "shows what was stored.",
                    browser: nil))
    }

    /// Anything but 2xx/304 becomes an error; an RFC 7807 problem is shown as its title and detail.
    public static func requireSuccess(_ response: HTTPResponse) throws {
        guard !response.isSuccess, !response.isNotModified else { return }
        let where_ = response.url.absoluteString
        if let problem = ProblemDetail(data: response.body) {
            throw ShelfError(
                problem.kind, problem.words, subject: where_,
                hint: response.status >= 500 ? "The library's server has a problem; try again later." : nil)
        }
        let kind: ShelfError.Kind =
            response.status >= 500 || response.status == 429
            ? .temporary
            : (response.status == 403
                ? .permission : (response.status == 404 || response.status == 410 ? .noInput : .unavailable))
        throw ShelfError(
            kind, "the server answered \(response.status)", subject: where_,
            hint: response.status >= 500 ? "The library's server has a problem; try again later." : nil)
    }
}
