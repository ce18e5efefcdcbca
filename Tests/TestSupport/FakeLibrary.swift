import Foundation

/// A small library on a loopback server speaking the Palace wire format: an OPDS 1 groups feed with format
/// tabs (entry points), OpenSearch, per-title entries with availability, borrow (which, like Palace, places a
/// hold when no copy is free), revoke, a loans feed, an authentication document with the basic-token flow,
/// and faults on demand. It keeps state so tests can watch loans and holds change.
public final class FakeLibrary: @unchecked Sendable {
    public struct Book {
        public var id: String
        public var title: String
        public var author: String
        public var audiobook: Bool
        public var copies: Int
        public var available: Int
        public var openAccess = false
        public var holds: [String] = []  // patrons in the queue, in order
        public var branches: [String] = []
        /// How a loan is fulfilled: "direct" EPUB, a "bearer" token document, or an Adobe "acsm".
        public var fulfilment = "direct"

        public init(
            id: String, title: String, author: String, audiobook: Bool, copies: Int, available: Int,
            openAccess: Bool = false, holds: [String] = [], branches: [String] = [], fulfilment: String = "direct"
        ) {
            self.id = id
            self.title = title
            self.author = author
            self.audiobook = audiobook
            self.copies = copies
            self.available = available
            self.openAccess = openAccess
            self.holds = holds
            self.branches = branches
            self.fulfilment = fulfilment
        }
    }

    public let server: LoopbackHTTPServer
    private let lock = NSLock()
    private var books: [String: Book] = [:]
    private var order: [String] = []
    private var loans: Set<String> = []
    public var username = "2345"
    public var password = "secret-pin"
    public private(set) var tokens: Set<String> = []
    /// When true, loans carry Palace's annotation service link (`/annotations/KEY/`, served by `FakeAnnotationService`).
    public var offersAnnotations: Bool {
        get { lock.withLock { annotations } }
        set { lock.withLock { annotations = newValue } }
    }
    private var annotations = false
    /// When set, the loans feed answers with this instead of the feed.
    public var loansFault: LoopbackHTTPServer.Response?
    /// How long the loans feed takes to arrive: the feed is made when the request comes (the library's state then)
    /// and sent this much later, so that a change made meanwhile is newer than the answer.
    public var loansDelay: TimeInterval {
        get { lock.withLock { slowLoans } }
        set { lock.withLock { slowLoans = newValue } }
    }
    private var slowLoans: TimeInterval = 0

    // MARK: Faults

    /// The library's answers that can go wrong, each on its own.
    public enum Route: String, Sendable, CaseIterable {
        case entry, borrow, revoke, hold, loans, fulfil
    }

    /// How an answer goes wrong, as real servers and the networks between make them go wrong.
    public enum Fault: Sendable, Equatable {
        /// A 200 whose body is XML that breaks off (not well formed).
        case malformed
        /// The whole length announced, half of the body sent, the connection closed.
        case truncated
        /// Half of the body, then silence for `seconds`, then the rest.
        case stalled(seconds: TimeInterval)
        /// The connection accepted and the request read, then no answer at all (until the server stops).
        case neverAnswers
        /// A 200 with an HTML page where the entry should be.
        case garbage
    }

    private struct Injected {
        var fault: Fault
        /// Whether the library does what was asked (borrow, return, hold) before its answer goes wrong.
        var acts: Bool
        var remaining: Int
    }
    private var injected: [Route: Injected] = [:]

    /// Makes the next `times` answers on `route` go wrong with `fault`; `acts: false` makes the library also leave its
    /// state as it was (a borrow that lent nothing, a return that took nothing back).
    public func inject(_ fault: Fault, on route: Route, acts: Bool = true, times: Int = .max) {
        lock.withLock { injected[route] = Injected(fault: fault, acts: acts, remaining: times) }
    }

    public func clearFaults() {
        lock.withLock {
            injected.removeAll()
            ignored.removeAll()
        }
    }

    /// Routes that answer success, readably, with the title's entry as it was, and do nothing (a server that drops
    /// the request on the floor).
    private var ignored: Set<Route> = []

    /// Makes `route` answer success without acting until `clearFaults`.
    public func refuseToAct(on route: Route) { lock.withLock { _ = ignored.insert(route) } }

    /// Whether a state-changing route should change the library's state now.
    private func acts(_ route: Route) -> Bool {
        lock.withLock {
            !ignored.contains(route) && (injected[route].map { $0.acts || $0.remaining <= 0 } ?? true)
        }
    }

    /// `response` as the fault injected on `route` (if any left) turns it.
    private func faulted(_ route: Route, _ response: LoopbackHTTPServer.Response) -> LoopbackHTTPServer.Response {
        let fault: Fault? = lock.withLock {
            guard var entry = injected[route], entry.remaining > 0 else { return nil }
            entry.remaining -= 1
            injected[route] = entry
            return entry.fault
        }
        guard let fault else { return response }
        let half = max(1, response.body.count / 2)
        switch fault {
        case .malformed:
            return .text(
                "<?xml version=\"1.0\"?>\n<entry xmlns=\"http://www.w3.org/2005/Atom\"><id>urn:fake:broken</id><title>Bro",
                contentType: "application/atom+xml;type=entry;profile=opds-catalog")
        case .truncated:
            return response.with(fault: .truncateBody(after: half))
        case .stalled(let seconds):
            return response.with(fault: .stallBody(after: half, seconds: seconds))
        case .neverAnswers:
            return response.with(delay: 3600)
        case .garbage:
            return .text(
                "<html><head><title>Down for maintenance</title></head><body><p>Back soon.</p></body></html>",
                contentType: "text/html; charset=utf-8")
        }
    }
    public let epub: Data

    public init(epub: Data = FakeLibrary.minimalEPUB()) throws {
        server = try LoopbackHTTPServer()
        self.epub = epub
        add(
            Book(
                id: "urn:fake:ebook-free", title: "The Open Road", author: "Ada Lane", audiobook: false, copies: 3,
                available: 2))
        add(
            Book(
                id: "urn:fake:ebook-out", title: "Waiting Game", author: "Ben Moss", audiobook: false, copies: 1,
                available: 0,
                holds: ["someone", "else"], branches: ["Central Library", "Eastside Branch"]))
        add(
            Book(
                id: "urn:fake:audio-free", title: "Sound of Rivers", author: "Cleo Hart", audiobook: true, copies: 2,
                available: 1))
        add(
            Book(
                id: "urn:fake:classic", title: "Open Classic", author: "Dora Old", audiobook: false, copies: 0,
                available: 0, openAccess: true))
        install()
    }

    /// Adds a title, or replaces the one with the same id (keeping its place); once the server runs, the title's
    /// routes (entry document, borrow, revoke, ...) are installed too.
    public func add(_ book: Book) {
        let running: Bool = lock.withLock {
            if books[book.id] == nil { order.append(book.id) }
            books[book.id] = book
            return routesInstalled
        }
        if running { installBookRoutes() }
    }
    private var routesInstalled = false

    /// Sets how many copies of `id` are free (another patron returned one, or took the last).
    public func setAvailable(_ id: String, _ count: Int) { lock.withLock { books[id]?.available = count } }

    /// Sets how many copies of `id` the library counts (0: a title lent only through its holds queue).
    public func setCopies(_ id: String, _ count: Int) {
        lock.withLock {
            guard var book = books[id] else { return }
            (book.copies, book.available) = (count, min(book.available, count))
            books[id] = book
        }
    }

    public func stop() { server.stop() }

    public var root: String { server.url("/catalog").absoluteString }
    public func url(_ path: String) -> String { server.url(path).absoluteString }
    public static func key(_ id: String) -> String { id.replacingOccurrences(of: "urn:fake:", with: "") }

    /// Makes a queued hold ready (the first in line is the patron).
    public func makeHoldReady(_ id: String) {
        lock.withLock {
            books[id]?.holds.removeAll { $0 != username }
            books[id]?.available = 1
        }
    }

    // MARK: The server's clock

    /// When a loan ends, per title (the far future unless a test says otherwise).
    private var loanEnds: [String: Date] = [:]
    /// When a ready hold must be borrowed by, per title.
    private var holdEnds: [String: Date] = [:]

    /// The loan of `id` ends at `date`, as the server will say in its feeds.
    public func setLoanEnd(_ id: String, _ date: Date) { lock.withLock { loanEnds[id] = date } }

    /// The ready hold on `id` must be borrowed by `date`.
    public func setHoldEnd(_ id: String, _ date: Date) { lock.withLock { holdEnds[id] = date } }

    /// The server ends the loan of `id` (its period passed): it leaves the loans feed and the copy comes back.
    public func expireLoan(_ id: String) {
        lock.withLock {
            if loans.remove(id) != nil { books[id]?.available += 1 }
        }
    }

    /// Titles the library took out of its catalog: their entry answers 404 and no feed lists them.
    private var withdrawn: Set<String> = []

    /// The library takes `id` out of its catalog.
    public func withdraw(_ id: String) { lock.withLock { _ = withdrawn.insert(id) } }

    /// When false, a hold on a physical copy at a branch is kept by the library's ILS and never listed in the loans
    /// feed (as many circulation managers do); when true (the default) it joins the title's queue like an e-book hold.
    public var listsBranchHolds: Bool {
        get { lock.withLock { branchHoldsListed } }
        set { lock.withLock { branchHoldsListed = newValue } }
    }
    private var branchHoldsListed = true
    /// When true (with `listsBranchHolds` false), a branch hold's answer carries its own revoke link
    /// (`/works/KEY/revoke?branch=B`), which cancels that hold alone: a title's e-book and branch holds are two.
    public var revokesBranchHolds: Bool {
        get { lock.withLock { branchHoldsRevoked } }
        set { lock.withLock { branchHoldsRevoked = newValue } }
    }
    private var branchHoldsRevoked = false
    /// Branch holds kept apart (`listsBranchHolds` false), as "ID|BRANCH".
    public private(set) var branchHolds: Set<String> = []

    /// The library drops the patron's hold on `id` itself (a librarian cancelled it, or a ready hold lapsed).
    public func dropHold(_ id: String) {
        lock.withLock { books[id]?.holds.removeAll { $0 == username } }
    }

    /// How far the server's clock is ahead of the real one. The loans feed states the server's time in its `Date`
    /// header, and a loan whose end that clock has passed leaves the feed, as a real circulation server's would.
    public var clockOffset: TimeInterval {
        get { lock.withLock { offset } }
        set { lock.withLock { offset = newValue } }
    }
    private var offset: TimeInterval = 0

    /// The server's clock now.
    public var now: Date { Date().addingTimeInterval(clockOffset) }

    /// Moves the server's clock on.
    public func advanceClock(by seconds: TimeInterval) { clockOffset += seconds }

    /// Ends every loan whose end the server's clock has passed.
    private func expireDueLoans() {
        let now = self.now
        lock.withLock {
            for (id, end) in loanEnds where end <= now && loans.contains(id) {
                loans.remove(id)
                books[id]?.available += 1
            }
        }
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static func stamp(_ date: Date?, default fallback: String) -> String {
        date.map { ISO8601DateFormatter().string(from: $0) } ?? fallback
    }

    public func forgetTokens() { lock.withLock { tokens.removeAll() } }

    /// Every copy goes out to other patrons.
    public func takeAllCopies(_ id: String) { lock.withLock { books[id]?.available = 0 } }

    /// Entry documents keep saying a copy is free (a stale cache), so only the borrow answer tells the truth.
    public var serveStaleEntries: Bool {
        get { lock.withLock { stale } }
        set { lock.withLock { stale = newValue } }
    }
    private var stale = false

    /// Adds `count` free titles `urn:fake:many-N` with routes.
    public func addMany(_ count: Int) {
        for index in 0..<count {
            add(
                Book(
                    id: "urn:fake:many-\(index)", title: "Many \(index)", author: "Ed Many", audiobook: false,
                    copies: 1, available: 1))
        }
        installBookRoutes()
    }

    public var loanCount: Int { lock.withLock { loans.count } }
    public func onLoan(_ id: String) -> Bool { lock.withLock { loans.contains(id) } }
    public func holdPosition(_ id: String) -> Int? {
        lock.withLock { books[id]?.holds.firstIndex(of: username).map { $0 + 1 } }
    }

    // MARK: Routes

    private func install() {
        server.route("GET", "/catalog") { [unowned self] request in
            atom(feed(title: "Fake Public Library", entrypoint: request.queryItems["entrypoint"] ?? "All", query: nil))
        }
        server.route("GET", "/search-description") { [unowned self] request in
            let entrypoint = request.queryItems["entrypoint"] ?? "All"
            return .text(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
                  <ShortName>Search</ShortName><Description>Search the fake library</Description>
                  <Url type="application/atom+xml;profile=opds-catalog;kind=acquisition" template="\(url("/search"))?entrypoint=\(entrypoint)&amp;q={searchTerms}"/>
                </OpenSearchDescription>
                """, contentType: "application/opensearchdescription+xml")
        }
        server.route("GET", "/search") { [unowned self] request in
            atom(
                feed(
                    title: "Search results", entrypoint: request.queryItems["entrypoint"] ?? "All",
                    query: request.queryItems["q"] ?? ""))
        }
        server.route("GET", "/auth") { [unowned self] _ in
            .text(authDocument, contentType: "application/vnd.opds.authentication.v1.0+json")
        }
        server.route("POST", "/patrons/me/token") { [unowned self] request in
            let expected = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
            guard request.header("Authorization") == expected else { return unauthorized }
            let token = UUID().uuidString
            lock.withLock { _ = tokens.insert(token) }
            return .text(
                #"{"access_token": "\#(token)", "token_type": "Bearer", "expires_in": 3600}"#,
                contentType: "application/json")
        }
        server.route("GET", "/loans") { [unowned self] request in
            guard authorised(request) else { return unauthorized }
            if let fault = lock.withLock({ loansFault }) { return fault }
            expireDueLoans()
            return faulted(
                .loans,
                .text(
                    loansFeed(), contentType: "application/atom+xml;profile=opds-catalog;kind=acquisition",
                    headers: ["Date": Self.httpDate(now)]
                ).with(delay: loansDelay))
        }
        installBookRoutes()
    }

    private func installBookRoutes() {
        lock.withLock { routesInstalled = true }
        for id in lock.withLock({ order }) {
            let key = Self.key(id)
            server.route("GET", "/works/\(key)") { [unowned self] request in
                if lock.withLock({ withdrawn.contains(id) }) {
                    return problem(404, "Not found", "This title is no longer in the collection.")
                }
                return faulted(
                    .entry,
                    .text(
                        entryDocument(id, patron: authorised(request)),
                        contentType: "application/atom+xml;type=entry;profile=opds-catalog"))
            }
            server.route("GET", "/works/\(key)/borrow") { [unowned self] request in
                guard authorised(request) else { return unauthorized }
                return faulted(
                    .borrow, acts(.borrow) ? borrow(id) : .text(entryDocument(id, patron: true), status: 201))
            }
            server.route("GET", "/works/\(key)/revoke") { [unowned self] request in
                guard authorised(request) else { return unauthorized }
                if let branch = request.queryItems["branch"] {
                    let done = lock.withLock { branchHolds.remove("\(id)|\(branch)") != nil }
                    guard done else { return problem(404, "No active hold", "There is no hold to cancel.") }
                    return .text(
                        entryDocument(id, patron: true),
                        contentType: "application/atom+xml;type=entry;profile=opds-catalog")
                }
                return faulted(.revoke, acts(.revoke) ? revoke(id) : .text(entryDocument(id, patron: true)))
            }
            server.route("GET", "/works/\(key)/fulfill") { [unowned self] request in
                guard authorised(request) || lock.withLock({ books[id]?.openAccess == true }) else {
                    return unauthorized
                }
                return faulted(.fulfil, fulfil(id, key: key, request: request))
            }
            server.route("GET", "/files/\(key).epub") { [unowned self] request in
                guard request.header("Authorization") == "Bearer doc-token-\(key)" else { return .status(401) }
                return .content(epub, for: request, contentType: "application/epub+zip")
            }
            server.route("GET", "/works/\(key)/hold") { [unowned self] request in
                guard authorised(request) else { return unauthorized }
                let branch = request.queryItems["branch"] ?? "?"
                if acts(.hold) {
                    lock.withLock {
                        if branchHoldsListed {
                            books[id]?.holds.append(username)
                        } else {
                            _ = branchHolds.insert("\(id)|\(branch)")
                        }
                    }
                }
                return faulted(
                    .hold,
                    .text(
                        entryDocument(id, patron: true, branchHeld: branch),
                        contentType: "application/atom+xml;type=entry;profile=opds-catalog"))
            }
        }
    }

    private func fulfil(_ id: String, key: String, request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        guard lock.withLock({ loans.contains(id) || books[id]?.openAccess == true }) else {
            return problem(403, "No active loan", "You have no active loan for this title.")
        }
        switch lock.withLock({ books[id]?.fulfilment }) {
        case "bearer":
            return .text(
                #"{"token_type": "Bearer", "expires_in": 500, "access_token": "doc-token-\#(key)", "location": "\#(url("/files/\(key).epub"))"}"#,
                contentType: "application/vnd.librarysimplified.bearer-token+json")
        case "acsm":
            return .text(
                "<fulfillmentToken xmlns=\"http://ns.adobe.com/adept\"/>",
                contentType: "application/vnd.adobe.adept+xml")
        default:
            return .content(epub, for: request, contentType: "application/epub+zip")
        }
    }

    /// True when the request carries a token this library handed out.
    public func isSignedIn(_ request: LoopbackHTTPServer.Request) -> Bool { authorised(request) }

    private func authorised(_ request: LoopbackHTTPServer.Request) -> Bool {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return false }
        return lock.withLock { tokens.contains(String(header.dropFirst(7))) }
    }

    private var unauthorized: LoopbackHTTPServer.Response {
        .text(authDocument, status: 401, contentType: "application/vnd.opds.authentication.v1.0+json")
    }

    private func problem(_ status: Int, _ title: String, _ detail: String) -> LoopbackHTTPServer.Response {
        .text(
            #"{"type": "http://librarysimplified.org/terms/problem/\#(title.lowercased().replacingOccurrences(of: " ", with: "-"))", "title": "\#(title)", "status": \#(status), "detail": "\#(detail)"}"#,
            status: status, contentType: "application/api-problem+json")
    }

    private func atom(_ text: String) -> LoopbackHTTPServer.Response {
        .text(text, contentType: "application/atom+xml;profile=opds-catalog;kind=acquisition")
    }

    /// Palace's borrow: a loan when a copy is free, otherwise a hold (the same link does both).
    private func borrow(_ id: String) -> LoopbackHTTPServer.Response {
        let outcome: String = lock.withLock {
            guard var book = books[id] else { return "missing" }
            if loans.contains(id) { return "loaned" }
            if loans.count >= 5 { return "limit" }
            if book.available > 0 && (book.holds.isEmpty || book.holds.first == username) {
                book.available -= 1
                book.holds.removeAll { $0 == username }
                books[id] = book
                loans.insert(id)
                return "loaned"
            }
            if !book.holds.contains(username) { book.holds.append(username) }
            books[id] = book
            return "held"
        }
        switch outcome {
        case "missing": return problem(404, "Not found", "No such title.")
        case "limit": return problem(403, "Loan limit reached", "You have reached your loan limit.")
        default:
            return .text(
                entryDocument(id, patron: true), status: 201,
                contentType: "application/atom+xml;type=entry;profile=opds-catalog")
        }
    }

    private func revoke(_ id: String) -> LoopbackHTTPServer.Response {
        let done: Bool = lock.withLock {
            if loans.remove(id) != nil {
                books[id]?.available += 1
                return true
            }
            if books[id]?.holds.contains(username) == true {
                books[id]?.holds.removeAll { $0 == username }
                return true
            }
            return false
        }
        guard done else { return problem(404, "No active loan or hold", "There is nothing to return or cancel.") }
        return .text(
            entryDocument(id, patron: false), contentType: "application/atom+xml;type=entry;profile=opds-catalog")
    }

    // MARK: Documents

    public var authDocument: String {
        """
        {
          "id": "\(url("/auth"))",
          "title": "Fake Public Library",
          "description": "Sign in with your library card.",
          "links": [
            {"rel": "register", "href": "https://example.org/get-a-card", "type": "text/html"},
            {"rel": "http://opds-spec.org/shelf", "href": "\(url("/loans"))"},
            {"rel": "start", "href": "\(url("/catalog"))"},
            {"rel": "help", "href": "mailto:help@example.org"}
          ],
          "authentication": [
            {"type": "http://thepalaceproject.org/authtype/basic-token",
             "labels": {"login": "Library card", "password": "PIN"},
             "links": [{"rel": "authenticate", "href": "\(url("/patrons/me/token"))"}]}
          ]
        }
        """
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    private func feed(title: String, entrypoint: String, query: String?) -> String {
        let all = lock.withLock { order.filter { !withdrawn.contains($0) }.compactMap { books[$0] } }
        let chosen = all.filter { book in
            (entrypoint == "All" || (entrypoint == "Audio") == book.audiobook)
                && (query == nil || Self.matches(book, query!))
        }
        let tabs = [("All", "All"), ("Book", "eBooks"), ("Audio", "Audiobooks")].map { value, name in
            #"<link rel="http://opds-spec.org/facet" href="\#(url(query == nil ? "/catalog" : "/search"))?entrypoint=\#(value)\#(query.map { "&amp;q=" + escape($0) } ?? "")" title="\#(name)" opds:facetGroup="Formats" simplified:facetGroupType="http://librarysimplified.org/terms/rel/entrypoint"\#(value == entrypoint ? #" opds:activeFacet="true""# : "")/>"#
        }.joined(separator: "\n  ")
        let entries = chosen.map {
            entryXML($0, patron: false, lane: query == nil ? ($0.audiobook ? "Listen" : "Read") : nil)
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"
                  xmlns:simplified="http://librarysimplified.org/terms/" xmlns:schema="http://schema.org/">
              <id>\(url("/catalog"))?entrypoint=\(entrypoint)</id>
              <title>\(title)</title>
              <updated>2026-01-01T00:00:00Z</updated>
              \(tabs)
              <link rel="search" type="application/opensearchdescription+xml" href="\(url("/search-description"))?entrypoint=\(entrypoint)"/>
              <link rel="http://opds-spec.org/shelf" href="\(url("/loans"))"/>
              <link rel="http://opds-spec.org/auth/document" href="\(url("/auth"))"/>
            \(entries)
            </feed>
            """
    }

    /// A search hit, as a full-text search finds it: every word of the query in the title or the author's name.
    static func matches(_ book: Book, _ query: String) -> Bool {
        let text = book.title + " " + book.author
        let words = query.split(whereSeparator: { $0 == " " || $0 == "+" })
        return !words.isEmpty && words.allSatisfy { text.localizedCaseInsensitiveContains($0) }
    }

    private func loansFeed() -> String {
        let mine = lock.withLock {
            order.compactMap { books[$0] }.filter { loans.contains($0.id) || $0.holds.contains(username) }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:schema="http://schema.org/">
              <id>\(url("/loans"))</id><title>Active loans and holds</title><updated>2026-01-01T00:00:00Z</updated>
              <link rel="self" href="\(url("/loans"))"/>
            \(mine.map { entryXML($0, patron: true, lane: nil) }.joined(separator: "\n"))
            </feed>
            """
    }

    public func entryDocument(_ id: String, patron: Bool, branchHeld: String? = nil) -> String {
        guard let book = lock.withLock({ books[id] }) else { return "<entry/>" }
        var xml = entryXML(book, patron: patron, lane: nil, namespaces: true)
        if let branchHeld, lock.withLock({ branchHoldsRevoked && !branchHoldsListed }) {
            let link =
                url("/works/\(Self.key(id))/revoke") + "?branch="
                + (branchHeld.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? branchHeld)
            xml = xml.replacingOccurrences(
                of: "</entry>",
                with: #"<link rel="http://librarysimplified.org/terms/rel/revoke" href="\#(link)"/></entry>"#)
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            \(xml)
            """
    }

    private func entryXML(_ book: Book, patron: Bool, lane: String?, namespaces: Bool = false) -> String {
        let key = Self.key(book.id)
        let type = book.audiobook ? "http://bib.schema.org/Audiobook" : "http://schema.org/EBook"
        let end = book.audiobook ? "application/audiobook+json" : "application/epub+zip"
        let fulfilType =
            book.fulfilment == "bearer"
            ? "application/vnd.librarysimplified.bearer-token+json"
            : (book.fulfilment == "acsm" ? "application/vnd.adobe.adept+xml" : end)
        let fulfilInner = book.fulfilment == "direct" ? "" : #"<opds:indirectAcquisition type="\#(end)"/>"#
        let (loanEnd, holdEnd) = lock.withLock {
            (
                Self.stamp(loanEnds[book.id], default: "2099-01-22T00:00:00Z"),
                Self.stamp(holdEnds[book.id], default: "2099-02-01T00:00:00Z")
            )
        }
        let (onLoan, position, queue) = lock.withLock { () -> (Bool, Int?, Int) in
            (
                loans.contains(book.id), books[book.id]?.holds.firstIndex(of: username).map { $0 + 1 },
                books[book.id]?.holds.count ?? 0
            )
        }
        var links = [
            #"<link rel="alternate" type="application/atom+xml;type=entry;profile=opds-catalog" href="\#(url("/works/\(key)"))"/>"#
        ]
        if let lane { links.append(#"<link rel="collection" href="\#(url("/lanes/\(lane)"))" title="\#(lane)"/>"#) }
        let counts =
            #"<opds:holds total="\#(queue)"\#(patron && position != nil ? #" position="\#(position!)""# : "")/><opds:copies total="\#(book.copies)" available="\#(book.available)"/>"#
        if book.openAccess {
            links.append(
                #"<link rel="http://opds-spec.org/acquisition/open-access" type="application/epub+zip" href="\#(url("/works/\(key)/fulfill"))"/>"#
            )
        } else if patron && onLoan {
            links.append(
                #"<link rel="http://opds-spec.org/acquisition" type="\#(fulfilType)" href="\#(url("/works/\(key)/fulfill"))">\#(fulfilInner)<opds:availability status="available" since="2026-01-01T00:00:00Z" until="\#(loanEnd)"/>\#(counts)</link>"#
            )
            links.append(
                #"<link rel="http://librarysimplified.org/terms/rel/revoke" href="\#(url("/works/\(key)/revoke"))"/>"#)
            if offersAnnotations {
                links.append(
                    #"<link rel="http://www.w3.org/ns/oa#annotationService" type="application/ld+json; profile=&quot;http://www.w3.org/ns/anno.jsonld&quot;" href="\#(url("/annotations/\(key)/"))"/>"#
                )
            }
        } else if patron, let position {
            let ready = position == 1 && book.available > 0
            links.append(
                #"<link rel="http://opds-spec.org/acquisition/borrow" type="application/atom+xml;type=entry;profile=opds-catalog" href="\#(url("/works/\(key)/borrow"))"><opds:indirectAcquisition type="\#(end)"/><opds:availability status="\#(ready ? "ready" : "reserved")" since="2026-01-01T00:00:00Z"\#(ready ? #" until="\#(holdEnd)""# : "")/>\#(counts)</link>"#
            )
            links.append(
                #"<link rel="http://librarysimplified.org/terms/rel/revoke" href="\#(url("/works/\(key)/revoke"))"/>"#)
        } else {
            let status = book.available > 0 || lock.withLock({ stale }) ? "available" : "unavailable"
            links.append(
                #"<link rel="http://opds-spec.org/acquisition/borrow" type="application/atom+xml;type=entry;profile=opds-catalog" href="\#(url("/works/\(key)/borrow"))"><opds:indirectAcquisition type="\#(end)"/><opds:availability status="\#(status)"/>\#(counts)</link>"#
            )
        }
        for branch in book.branches {
            links.append(
                #"<link rel="hold" title="\#(branch)" href="\#(url("/works/\(key)/hold"))?branch=\#(branch.replacingOccurrences(of: " ", with: "%20"))"/>"#
            )
        }
        let ns =
            namespaces
            ? #" xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:schema="http://schema.org/""#
            : ""
        return """
              <entry\(ns) schema:additionalType="\(type)">
                <id>\(book.id)</id>
                <title>\(escape(book.title))</title>
                <author><name>\(escape(book.author))</name></author>
                <updated>2026-01-01T00:00:00Z</updated>
                \(links.joined(separator: "\n    "))
              </entry>
            """
    }

    /// The smallest EPUB the EPUB plugins accept is not needed here: downloads are compared byte for byte.
    public static func minimalEPUB() -> Data {
        var data = Data("PK\u{03}\u{04}".utf8)
        data.append(Data("mimetypeapplication/epub+zip fake book body ".utf8))
        data.append(Data((0..<2048).map { UInt8($0 % 251) }))
        return data
    }
}
