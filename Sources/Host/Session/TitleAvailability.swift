internal import ShelfLibrary
import Foundation

/// Whether the patron's libraries have a title named on a reading list or the wish list, and how it stands there:
/// free now, the holds queue, the patron's own loan or hold, or not in any catalog shelf has seen. The words are
/// the words module's (`TitleAvailabilityWords.swift`); the entry lets a face offer Get or Reserve.
public struct TitleAvailability: Sendable {
    public enum Standing: String, Sendable {
        case availableNow = "available"
        /// Every copy is out: `waiting` patrons are in the queue (0: none).
        case waiting
        case onLoan = "loaned"
        case onHold = "reserved"
        case ready
        case notInCatalog = "not-in-catalog"
        case unknown
    }

    public let standing: Standing
    /// How many are in the holds queue, when the library said.
    public let waiting: Int?
    /// The account whose catalog has the title, and its name as the app shows it.
    public let accountID: String?
    public let library: String?
    /// The catalog entry matched (nil: not in any catalog seen).
    public let entry: CatalogEntry?
    /// When the library last said the availability: older words say how old they are.
    public let seenAt: Date?

    /// What the patron can do about it from a list: borrow ("Get") or reserve it, or nothing.
    public var action: String? {
        switch standing {
        case .availableNow, .ready: return "borrow"
        case .waiting: return entry?.borrowLink == nil ? nil : "reserve"
        default: return nil
        }
    }
}

extension LibrarySession {
    /// A title named by a list (title, authors, ISBN), as `titleAvailability` takes it.
    public struct ListedTitle: Sendable {
        public var title: String
        public var authors: [String]
        public var isbn: String?

        public init(title: String, authors: [String], isbn: String?) {
            self.title = title
            self.authors = authors
            self.isbn = isbn
        }
    }

    /// How each title stands at the patron's libraries: matched as wishes are (ISBN first, then title and author)
    /// against the catalogs shelf has seen, with the patron's own loans and holds first.
    public func titleAvailability(_ titles: [ListedTitle]) throws -> [TitleAvailability] {
        let matcher = try WishMatcher(database: database)
        let names = Dictionary(try database.accounts().map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        let loans = Set(try database.loans().map { "\($0.accountID)\n\($0.entry.id)" })
        var holds: [String: Bool] = [:]
        for hold in try database.holds() {
            let key = "\(hold.accountID)\n\(hold.entry.id)"
            // A hold on a physical copy is picked up at its branch (TitleOffer): on hold, never "ready to borrow"
            // with Get, which would lend the e-book; the title's own hold, when there is one, says how it stands.
            if hold.branch == nil { holds[key] = hold.isReady } else if holds[key] == nil { holds[key] = false }
        }
        return titles.map { listed in
            let probe = Wish(
                id: 0, key: "", source: "", title: listed.title, authors: listed.authors,
                isbn: listed.isbn.flatMap { ISBN.normalise($0) }, addedAt: Date(), available: false)
            guard let ((accountID, entry), _) = matcher.match(probe) else {
                return TitleAvailability(
                    standing: .notInCatalog, waiting: nil, accountID: nil, library: nil, entry: nil, seenAt: nil)
            }
            let key = "\(accountID)\n\(entry.id)"
            let a = entry.availability
            let standing: TitleAvailability.Standing
            if loans.contains(key) {
                standing = .onLoan
            } else if let ready = holds[key] {
                standing = ready ? .ready : .onHold
            } else {
                switch a.state {
                case .available, .openAccess: standing = .availableNow
                case .unavailable: standing = .waiting
                case .loaned: standing = .onLoan
                case .reserved: standing = .onHold
                case .ready: standing = .ready
                case .unknown: standing = .unknown
                }
            }
            return TitleAvailability(
                standing: standing, waiting: a.holdsTotal, accountID: accountID, library: names[accountID],
                entry: entry, seenAt: matcher.matchSummary(probe)?.seenAt)
        }
    }
}
