import ShelfValues
import ShelfPlugins
import Foundation
import ShelfValues

/// Matches wishes to catalog entries: by ISBN first (normalised to ISBN-13, read from the entry's identifier),
/// then by title and author with case, punctuation and diacritics folded. Among several matches the one that can
/// be borrowed now wins, then the one with the shortest wait.
///
/// Built from the database, the index holds only each entry's account, identifier and title (plain columns, no JSON);
/// an entry's authors and availability are read from its stored JSON (`json_extract`, one prepared statement) only
/// when a wish lands on it, and the whole entry only when a caller asks for it. 20,000 wishes against 50,000
/// entries take well under a second this way (bench/readinglists).
public struct WishMatcher {
    public typealias Candidate = (accountID: String, entry: CatalogEntry)

    /// What matching needs of one catalog entry.
    struct Item {
        var accountID: String
        var entryID: String
        var title: String
        var rowID: Int64
    }

    struct Details {
        var authors: [String]
        var availability: Availability
        /// When the library last said this entry's availability (nil: entries given outright, taken as now).
        var seenAt: Date? = nil
    }

    /// Loads details and whole entries on demand, each once.
    final class Store {
        let database: LibraryDatabase?
        let entries: [Candidate]
        var details: [Int: Details] = [:]
        // The availability's fields as columns (dates as rememberEntries' JSONEncoder writes them: seconds since 2001),
        // the authors joined with U+001F: no JSON decoding per wish.
        // Without a statement (the database failing now) nothing matches in this check; the next check matches again.
        lazy var detailStatement = try? database?.connection.prepare(
            """
            SELECT (SELECT group_concat(value, char(31)) FROM json_each(entry, '$.authors')) AS authors,
                   json_extract(entry, '$.availability.state') AS state, json_extract(entry, '$.availability.since') AS since,
                   json_extract(entry, '$.availability.until') AS until,
                   json_extract(entry, '$.availability.copiesTotal') AS copies_total,
                   json_extract(entry, '$.availability.copiesAvailable') AS copies_available,
                   json_extract(entry, '$.availability.holdsTotal') AS holds_total,
                   json_extract(entry, '$.availability.holdPosition') AS hold_position, seen_at
            FROM catalog_entries WHERE rowid = ?
            """)
        // As above.
        lazy var entryStatement = try? database?.connection.prepare("SELECT entry FROM catalog_entries WHERE rowid = ?")
        let decoder = JSONDecoder()

        init(database: LibraryDatabase?, entries: [Candidate]) {
            self.database = database
            self.entries = entries
        }
    }

    var items: [Item] = []
    var byISBN: [String: [Int]] = [:]
    var byTitle: [String: [Int]] = [:]
    let store: Store

    public init(database: LibraryDatabase) throws {
        store = Store(database: database, entries: [])
        let rows = try database.connection.query("SELECT rowid, account_id, entry_id, title FROM catalog_entries")
        items.reserveCapacity(rows.count)
        for row in rows {
            items.append(
                Item(
                    accountID: try row.get("account_id"), entryID: try row.get("entry_id"), title: try row.get("title"),
                    rowID: try row.get("rowid")))
        }
        index()
    }

    public init(entries: [Candidate]) {
        store = Store(database: nil, entries: entries)
        items = entries.enumerated().map {
            Item(accountID: $1.accountID, entryID: $1.entry.id, title: $1.entry.title, rowID: Int64($0))
        }
        for (i, c) in entries.enumerated() {
            store.details[i] = Details(authors: c.entry.authors, availability: c.entry.availability)
        }
        index()
    }

    private mutating func index() {
        byISBN.reserveCapacity(items.count)
        byTitle.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            if let isbn = Self.isbn(ofIdentifier: item.entryID) { byISBN[isbn, default: []].append(i) }
            byTitle[Fold.title(item.title), default: []].append(i)
        }
    }

    /// ISBNs an entry carries: its identifier (urn:isbn:..., or bare digits).
    static func isbns(of entry: CatalogEntry) -> [String] { isbn(ofIdentifier: entry.id).map { [$0] } ?? [] }

    static func isbn(ofIdentifier identifier: String) -> String? {
        // Most catalog identifiers are URLs or URNs of the library's own with too few digits: no look further.
        var digits = 0, xs = 0
        for b in identifier.utf8 {
            if b >= 0x30 && b <= 0x39 { digits += 1 } else if b == 0x78 || b == 0x58 { xs += 1 }
        }
        guard digits + xs >= 10 else { return nil }
        let id = identifier.lowercased()
        guard id.contains("isbn") || digits == id.utf8.count || id.hasPrefix("978") || id.hasPrefix("979") else {
            return nil
        }
        return ISBN.normalise(id.replacingOccurrences(of: "urn:isbn:", with: ""))
    }

    func details(_ i: Int) -> Details? {
        if let known = store.details[i] { return known }
        // A remembered entry that cannot be read is no match (the catalog's copy, read again when browsed).
        guard let statement = store.detailStatement, let row = try? statement.query([items[i].rowID]).first else {
            return nil
        }
        // Fields the library did not give (or gave in another type) are unknown, as a missing one.
        let authorsText: String? = try? row.get("authors")
        let authors =
            authorsText.map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) } ?? []
        // As above.
        guard let stateText: String = try? row.get("state"), let state = Availability.State(rawValue: stateText) else {
            return nil
        }
        func int(_ column: String) -> Int? { (try? row.get(column) as Int64?)?.map(Int.init) ?? nil }  // as above
        func date(_ column: String) -> Date? {
            (try? row.get(column) as Double?).flatMap { $0.map(Date.init(timeIntervalSinceReferenceDate:)) }
        }  // as above
        let availability = Availability(
            state: state, since: date("since"), until: date("until"), copiesTotal: int("copies_total"),
            copiesAvailable: int("copies_available"), holdsTotal: int("holds_total"),
            holdPosition: int("hold_position"))
        let seenAt = (try? row.get("seen_at") as Int64?)?.map(Date.init(databaseMilliseconds:)) ?? nil  // as above
        let found = Details(authors: authors, availability: availability, seenAt: seenAt)
        store.details[i] = found
        return found
    }

    func candidate(_ i: Int) -> Candidate? {
        if store.database == nil { return store.entries[i] }
        // As in `details`: an entry that cannot be read is no match.
        guard let statement = store.entryStatement, let row = try? statement.query([items[i].rowID]).first,
            let text: String = try? row.get("entry"),
            let entry = try? store.decoder.decode(CatalogEntry.self, from: Data(text.utf8))
        else { return nil }
        return (items[i].accountID, entry)
    }

    /// The catalog entry a wish matched: where, which, how, and its availability, without decoding the whole entry.
    public struct Match {
        public var accountID: String
        public var entryID: String
        public var title: String
        public var availability: Availability
        /// "isbn" or "title and author".
        public var matchedBy: String
        /// When the library last said the availability (nil: unknown, entries given outright).
        public var seenAt: Date?
    }

    func entry(isbn: String) -> Candidate? { best(byISBN[isbn] ?? []).flatMap(candidate) }

    public func match(_ wish: Wish) -> (Candidate, String)? {
        guard let m = find(wish), let c = candidate(m.index) else { return nil }
        return (c, m.how)
    }

    /// The wish's match, reading only what the wish list records.
    public func matchSummary(_ wish: Wish) -> Match? {
        guard let m = find(wish), let d = details(m.index) else { return nil }
        let item = items[m.index]
        return Match(
            accountID: item.accountID, entryID: item.entryID, title: item.title, availability: d.availability,
            matchedBy: m.how, seenAt: d.seenAt)
    }

    /// The identifiers of every entry at `accountID` the wish matches (by ISBN, or by title and author), best or
    /// not: what the library is asked again about, so that a copy freed at any of them is seen.
    public func entryIDs(matching wish: Wish, accountID: String) -> [String] {
        var found = wish.isbn.map { byISBN[$0] ?? [] } ?? []
        if !wish.title.hasPrefix("ISBN ") { found += titleCandidates(wish) }
        var seen = Set<String>()
        return found.map { items[$0] }.filter { $0.accountID == accountID && seen.insert($0.entryID).inserted }
            .map(\.entryID)
    }

    func find(_ wish: Wish) -> (index: Int, how: String)? {
        if let isbn = wish.isbn, let i = best(byISBN[isbn] ?? []) { return (i, "isbn") }
        guard !wish.title.hasPrefix("ISBN ") else { return nil }
        return best(titleCandidates(wish)).map { ($0, "title and author") }
    }

    /// The entries whose title is the wish's, by its first author where it names one.
    func titleCandidates(_ wish: Wish) -> [Int] {
        guard let all = byTitle[Fold.title(wish.title)] else { return [] }
        return all.filter { i in
            guard let author = wish.authors.first else { return true }
            let authors = details(i)?.authors ?? []
            let surname = Fold.surname(author)
            return authors.isEmpty
                || authors.contains { Fold.surname($0) == surname || Fold.text($0) == Fold.text(author) }
        }
    }

    func best(_ candidates: [Int]) -> Int? {
        if candidates.count == 1 { return details(candidates[0]) == nil ? nil : candidates[0] }
        return candidates.compactMap { i in details(i).map { (i, $0.availability) } }.min { a, b in
            let ra = a.1.canBorrowNow ? 0 : 1, rb = b.1.canBorrowNow ? 0 : 1
            if ra != rb { return ra < rb }
            return (a.1.holdsTotal ?? Int.max) < (b.1.holdsTotal ?? Int.max)
        }?.0
    }
}
