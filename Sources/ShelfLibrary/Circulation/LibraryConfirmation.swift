import ShelfPlugins
import ShelfCore
import Foundation

/// How shelf learns what a library really did when its answer to a borrow, hold or return could not be read:
/// it asks again, through the title's own link and then the loans feed, and only a document read completely
/// counts. What shelf stored earlier never decides an outcome.
extension Circulation {
    /// What the library says about one title now.
    public enum LibraryView {
        /// Its entry as the library serves it now (its own document, or its place in the loans feed).
        case entry(CatalogEntry)
        /// The loans feed was read completely and lists the title neither as a loan nor as a hold.
        case notOnShelf

        public var entry: CatalogEntry? {
            if case .entry(let entry) = self { return entry }
            return nil
        }

        /// Whether the patron has it on loan, by the library's word.
        public var isOnLoan: Bool {
            if case .entry(let entry) = self { return Circulation.isLoan(entry) }
            return false
        }

        /// Whether the patron holds a place in its queue, by the library's word.
        public var isHeld: Bool {
            if case .entry(let entry) = self { return [.reserved, .ready].contains(entry.availability.state) }
            return false
        }

        /// On loan, on hold or neither, by the library's word.
        public var standing: TitleStanding { isOnLoan ? .onLoan : (isHeld ? .onHold : .neither) }

        /// The entry when the library lists it as the patron's loan.
        public var onLoanEntry: CatalogEntry? { isOnLoan ? entry : nil }

        /// The entry when the library lists it as the patron's hold.
        public var heldEntry: CatalogEntry? { isHeld ? entry : nil }
    }

    /// Asks the library about `entry`: its own link first, then the loans feed. Nil when neither answered with a
    /// document shelf could read completely.
    // Nil is the answer "could not be asked"; callers that must say why call `askExplaining`.
    public func ask(about entry: CatalogEntry) -> LibraryView? { try? askExplaining(about: entry) }

    /// `ask`, with the reason when the library could not be asked: the loans feed's failure.
    func askExplaining(about entry: CatalogEntry) throws -> LibraryView {
        if let fresh = refreshedIfAnswered(entry) { return .entry(fresh) }
        if account.shelfURL == nil, entry.borrowLink == nil, !entry.openAccessLinks.isEmpty {
            // A catalog that lists no loans feed (one on disk, an open-access collection) lends nothing to ask
            // after, and a title it gives away needs no loan: its offer is all there is to know.
            return .entry(entry)
        }
        for page in try readShelfFeed() {
            if let found = page.entries.first(where: { $0.id == entry.id }) {
                var listed = found
                if ![.reserved, .ready].contains(listed.availability.state) { listed.availability.state = .loaned }
                return .entry(listed)
            }
        }
        return .notOnShelf
    }

    /// Every page of the account's loans feed, each read and parsed completely, or an error.
    func readShelfFeed() throws -> [LibraryDatabase.FeedPage] {
        guard let shelf = account.shelfURL, var url = URL(string: shelf) else {
            throw ShelfError(.unavailable, "\(account.title) lists no loans feed", subject: account.id)
        }
        var pages: [LibraryDatabase.FeedPage] = []
        var seen = Set<String>()
        for _ in 0..<50 {
            seen.insert(url.absoluteString)
            let feed = try client.feed(url, useCache: false, remembering: false)
            pages.append(LibraryDatabase.FeedPage(url: feed.url, entries: feed.entries))
            guard let next = feed.next.flatMap({ URL(string: $0.href) }), !seen.contains(next.absoluteString) else {
                break
            }
            url = next
        }
        return pages
    }

    /// A title as messages quote it.
    static func quoted(_ title: String) -> String { "“\(title)”" }

    /// The words when neither the answer nor a second question told what happened: nothing stored was changed.
    static func unconfirmed(_ action: String, _ entry: CatalogEntry) -> ShelfError {
        if HostServices.cancelRequested {
            // Ctrl-C while the library was deciding: the request went, so it may have acted; say the patron's stop, not
            // an unreadable answer.
            return ShelfError(
                .cancelled,
                "stopped at your request before the library confirmed whether \(action) "
                    + "\(Circulation.quoted(entry.title)); run `shelf sync`", subject: entry.id,
                hint: "The request had gone to the library; nothing stored here was changed. "
                    + "`shelf sync` fetches what the library has.")
        }
        return ShelfError(
            .temporary,
            "the library did not confirm whether \(action) \(Circulation.quoted(entry.title)); "
                + "run `shelf sync`", subject: entry.id,
            hint: "Its answer could not be read and it could not be asked again; nothing stored here was changed. "
                + "`shelf sync` fetches what the library has.")
    }

    /// The entry of `id` in a circulation answer read completely, or nil when the answer holds none.
    static func answeredEntry(_ response: HTTPResponse, id: String) -> CatalogEntry? {
        // An answer that cannot be read is nil: the caller asks the library again (LibraryConfirmation), never guesses.
        guard !response.body.isEmpty,
            let feed = try? CatalogDocument.parse(
                response.body, url: response.url, contentType: response.headers["Content-Type"])
        else { return nil }
        return feed.entries.first(where: { $0.id == id }) ?? (feed.kind == .entry ? feed.entries.first : nil)
    }
}
