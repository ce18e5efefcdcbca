import Foundation

/// A book on a reading list, as connectors exchange it (readinglist.h, "Entry"; docs/json.md).
/// Shared by the host and the connectors: one definition of the shape on both sides of the ABI.
public struct ReadingListEntry: Codable, Equatable, Sendable {
    public var identifiers: [String: String]
    public var title: String
    public var authors: [String]
    public var shelf: String
    public var shelves: [String]?
    public var dateAdded: String?
    public var dateRead: String?
    /// 1 to 5 stars in steps of a half (readinglist.h): 4.5 is a rating, 0 or absent is none.
    public var rating: Double?

    public init(
        identifiers: [String: String] = [:], title: String, authors: [String] = [], shelf: String,
        shelves: [String]? = nil, dateAdded: String? = nil, dateRead: String? = nil, rating: Double? = nil
    ) {
        self.identifiers = identifiers
        self.title = title
        self.authors = authors
        self.shelf = shelf
        self.shelves = shelves
        self.dateAdded = dateAdded
        self.dateRead = dateRead
        self.rating = rating
    }

    /// Lenient: a connector's entry with a missing or mistyped field is read as far as it goes. Each `try?` says
    /// only that one field is mistyped; the entry is still matched by the fields that are right.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifiers = (try? c.decodeIfPresent([String: String].self, forKey: .identifiers)) ?? [:]
        title = (try? c.decodeIfPresent(String.self, forKey: .title)) ?? ""
        authors = (try? c.decodeIfPresent([String].self, forKey: .authors)) ?? []
        shelf = (try? c.decodeIfPresent(String.self, forKey: .shelf)) ?? ""
        shelves = try? c.decodeIfPresent([String].self, forKey: .shelves)
        dateAdded = try? c.decodeIfPresent(String.self, forKey: .dateAdded)
        dateRead = try? c.decodeIfPresent(String.self, forKey: .dateRead)
        rating = Self.rating((try? c.decodeIfPresent(Double.self, forKey: .rating)) ?? nil)
    }

    /// A rating as readinglist.h defines it: from 1 to 5, rounded to the nearest half star; nil outside.
    public static func rating(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 1, value <= 5 else { return nil }
        return (value * 2).rounded() / 2
    }

    /// "4.5", or "5" for a whole star count.
    public var ratingText: String? {
        rating.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
    }

    public var isbn13: String? { identifiers["isbn13"] }
    public var isbn10: String? { identifiers["isbn10"] }
}
