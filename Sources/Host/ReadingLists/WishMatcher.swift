import Foundation

/// Matches wishes to catalog entries: by ISBN first (normalised to ISBN-13, read from the entry's identifier),
/// then by title and author with case, punctuation and diacritics folded. Among several matches the one that can
/// be borrowed now wins, then the one with the shortest wait.
public struct WishMatcher {
    public typealias Candidate = (accountID: String, entry: CatalogEntry)
    var byISBN: [String: [Candidate]] = [:]
    var byTitle: [String: [Candidate]] = [:]

    public init(database: LibraryDatabase) throws {
        self.init(entries: try database.catalogEntriesForMatching())
    }

    public init(entries: [Candidate]) {
        for c in entries {
            for isbn in Self.isbns(of: c.entry) { byISBN[isbn, default: []].append(c) }
            byTitle[Fold.title(c.entry.title), default: []].append(c)
        }
    }

    /// ISBNs an entry carries: its identifier (urn:isbn:..., or bare digits).
    static func isbns(of entry: CatalogEntry) -> [String] {
        let id = entry.id.lowercased()
        guard id.contains("isbn") || id.filter(\.isNumber).count == id.count || id.hasPrefix("978") || id.hasPrefix("979") else { return [] }
        let digits = id.replacingOccurrences(of: "urn:isbn:", with: "")
        return ISBN.normalise(digits).map { [$0] } ?? []
    }

    func entry(isbn: String) -> Candidate? { best(byISBN[isbn] ?? []) }

    public func match(_ wish: Wish) -> (Candidate, String)? {
        if let isbn = wish.isbn, let c = best(byISBN[isbn] ?? []) { return (c, "isbn") }
        guard !wish.title.hasPrefix("ISBN ") else { return nil }
        let title = Fold.title(wish.title)
        let candidates = (byTitle[title] ?? []).filter { c in
            guard let author = wish.authors.first else { return true }
            let surname = Fold.surname(author)
            return c.entry.authors.isEmpty || c.entry.authors.contains { Fold.surname($0) == surname || Fold.text($0) == Fold.text(author) }
        }
        return best(candidates).map { ($0, "title and author") }
    }

    func best(_ candidates: [Candidate]) -> Candidate? {
        candidates.min { a, b in
            let ra = a.entry.availability.canBorrowNow ? 0 : 1, rb = b.entry.availability.canBorrowNow ? 0 : 1
            if ra != rb { return ra < rb }
            return (a.entry.availability.holdsTotal ?? Int.max) < (b.entry.availability.holdsTotal ?? Int.max)
        }
    }
}
