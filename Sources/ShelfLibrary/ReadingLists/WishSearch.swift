import ShelfValues
import ShelfCore
import ShelfPlugins
import Foundation

/// Looks for wished titles in a library's catalog by itself, so that a wish is matched without the patron ever
/// browsing: during `sync` and `watch`, each wish no entry of this catalog matches yet is searched for (by ISBN first, then
/// by title and author), and the entries found are remembered like browsed ones, for `WishList.check` to match.
///
/// Politely: at most `searchesPerSync` searches per account and sync, the wishes searched longest ago (or never)
/// first, and a wish searched in a catalog is not searched there again for `searchAgainAfter`; the catalog's root
/// feed and search description come from the feed cache (conditional requests).
public struct WishSearch {
    public static let searchesPerSync = 6
    public static let searchAgainAfter: TimeInterval = 3 * 86_400

    public let client: CatalogClient
    public let database: LibraryDatabase
    public let account: AccountRecord

    public init(client: CatalogClient, database: LibraryDatabase, account: AccountRecord) {
        self.client = client
        self.database = database
        self.account = account
    }

    /// Searches for the unmatched wishes due; returns how many searches were sent. Failures end the round quietly:
    /// the wishes stay as they were, to be searched at a later sync.
    @discardableResult
    public func run(at now: Date = Date(), limit: Int = WishSearch.searchesPerSync) -> Int {
        // Failures end the round quietly (above): a later sync searches again.
        guard let wishes = try? database.wishes() else { return 0 }
        // Every wish this catalog has no title for yet, although another library's has: a copy may come free here.
        let matcher = wishes.isEmpty ? nil : try? WishMatcher(database: database)
        let due = wishes.filter {
            matcher?.entryIDs(matching: $0, accountID: account.id).isEmpty ?? ($0.entryID == nil)
        }
        .map { (wish: $0, searched: lastSearched($0)) }
        .filter { $0.searched.map { now.timeIntervalSince($0) >= Self.searchAgainAfter } ?? true }
        .sorted { ($0.searched ?? .distantPast, $0.wish.id) < ($1.searched ?? .distantPast, $1.wish.id) }
        // A catalog without search (or not answering) has nothing to search now; as above.
        guard !due.isEmpty, let template = try? searchTemplate() else { return 0 }
        var sent = 0
        for (wish, _) in due {
            guard sent < limit else { break }
            var found = false
            for query in Self.queries(for: wish) where sent < limit && !found {
                // A query the template cannot carry is one less way to find the wish, not a failure.
                guard let url = try? CatalogSearch.address(template, query: query) else { continue }
                sent += 1
                // As above: the round ends, the wish is searched again next time.
                guard let feed = try? client.feed(url) else { return sent }
                found = !feed.entries.isEmpty
            }
            // Not recorded: the wish is searched again at the next sync, sooner than needed but nothing lost.
            try? database.setMeta(key(wish), String(now.databaseMilliseconds))
        }
        return sent
    }

    /// The searches for one wish, in order: its ISBN, then its title with its first author's name.
    static func queries(for wish: Wish) -> [String] {
        var queries: [String] = []
        if let isbn = wish.isbn { queries.append(isbn) }
        if !wish.title.hasPrefix("ISBN ") {
            queries.append(([wish.title] + wish.authors.prefix(1)).joined(separator: " "))
        }
        return queries
    }

    private func searchTemplate() throws -> String? {
        guard let url = URL(string: account.catalogURL), !url.isFileURL else { return nil }
        return try CatalogSearch.template(of: try client.feed(url), client: client)
    }

    private func key(_ wish: Wish) -> String { "wish.search.\(account.id).\(wish.id)" }

    private func lastSearched(_ wish: Wish) -> Date? {
        // Unknown is "never searched": the wish is searched now, as above.
        guard let text = (try? database.meta(key(wish))) ?? nil, let milliseconds = Int64(text) else { return nil }
        return Date(databaseMilliseconds: milliseconds)
    }
}
