import ShelfPlugins
import Foundation

// The reading lists' and the wish list's --json documents (docs/json.md, "Reading lists").

/// A title on a connected reading list, as the last pull saw it.
public struct ReadingListEntryJSON: Encodable {
    public let service: String
    public let identifiers: [String: String]
    public let title: String
    public let authors: [String]
    public let shelf: String
    public let shelves: [String]?
    public let dateAdded: String?
    public let dateRead: String?
    public let rating: Double?

    public init(_ stored: StoredReadingListEntry) {
        let e = stored.entry
        service = stored.service
        identifiers = e.identifiers
        title = e.title
        authors = e.authors
        shelf = e.shelf
        shelves = e.shelves
        dateAdded = e.dateAdded
        dateRead = e.dateRead
        rating = e.rating
    }
}

/// A wished title and where a library has it.
public struct WishJSON: Encodable {
    public let id: Int64
    public let title: String
    public let authors: [String]
    public let isbn: String?
    public let source: String
    public let matched: Bool
    public let matchedBy: String?
    public let account: String?
    public let entryId: String?
    public let availability: String?
    public let available: Bool
    public let words: String

    public init(_ wish: Wish) {
        id = wish.id
        title = wish.title
        authors = wish.authors
        isbn = wish.isbn
        source = wish.source
        matched = wish.entryID != nil
        matchedBy = wish.matchedBy
        account = wish.accountID
        entryId = wish.entryID
        availability = wish.availability
        available = wish.available
        words = WishText.words(wish)
    }
}

public enum WishText {
    /// Where a wished title is, in words: its availability and library, or that no catalog has it yet.
    public static func words(_ wish: Wish) -> String {
        guard let entryID = wish.entryID else { return "not in any library's catalog yet" }
        let how = wish.matchedBy == "isbn" ? "matched by ISBN" : "matched by title and author"
        let availability = wish.availability ?? "availability unknown"
        return "\(availability) at \(wish.accountID ?? "a library") (\(how); ID \(entryID))"
    }
}
