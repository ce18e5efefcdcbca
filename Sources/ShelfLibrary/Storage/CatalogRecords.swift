import ShelfCore
import Foundation

/// A library the patron uses: its catalog, its authentication document, and where its loans are listed.
/// Credentials are not here: they live in the credentials file (mode 0600), never in the database.
public struct AccountRecord: Equatable, Sendable, Codable {
    /// Short name the patron types (`shelf login NAME`), unique.
    public var id: String
    public var title: String
    public var catalogURL: String
    public var authDocumentURL: String?
    /// The authentication document as fetched (JSON text).
    public var authDocument: String?
    /// The loans-and-holds feed (`http://opds-spec.org/shelf`).
    public var shelfURL: String?
    public var addedAt: Date
    public var syncedAt: Date?
    public var syncError: String?

    public init(id: String, title: String, catalogURL: String, authDocumentURL: String? = nil,
                authDocument: String? = nil, shelfURL: String? = nil, addedAt: Date = Date(),
                syncedAt: Date? = nil, syncError: String? = nil) {
        self.id = id
        self.title = title
        self.catalogURL = catalogURL
        self.authDocumentURL = authDocumentURL
        self.authDocument = authDocument
        self.shelfURL = shelfURL
        self.addedAt = addedAt
        self.syncedAt = syncedAt
        self.syncError = syncError
    }
}

/// A book on loan to the patron, as the library last said.
public struct LoanRecord: Equatable, Sendable {
    public var accountID: String
    public var entry: CatalogEntry
    public var startsAt: Date?
    public var endsAt: Date?
    /// The downloaded book in the `books` table, once fetched.
    public var bookID: String?
    public var updatedAt: Date

    public init(accountID: String, entry: CatalogEntry, bookID: String? = nil, updatedAt: Date = Date()) {
        self.accountID = accountID
        self.entry = entry
        self.startsAt = entry.availability.since
        self.endsAt = entry.availability.until
        self.bookID = bookID
        self.updatedAt = updatedAt
    }
}

/// A reservation: waiting in the queue (`reserved`) or come in (`ready`).
public struct HoldRecord: Equatable, Sendable {
    public var accountID: String
    public var entry: CatalogEntry
    public var isReady: Bool
    public var position: Int?
    public var queueSize: Int?
    public var startsAt: Date?
    public var endsAt: Date?
    /// The branch of a physical-copy hold.
    public var branch: String?
    public var updatedAt: Date

    public init(accountID: String, entry: CatalogEntry, branch: String? = nil, updatedAt: Date = Date()) {
        self.accountID = accountID
        self.entry = entry
        self.isReady = entry.availability.state == .ready
        self.position = entry.availability.holdPosition
        self.queueSize = entry.availability.holdsTotal
        self.startsAt = entry.availability.since
        self.endsAt = entry.availability.until
        self.branch = branch
        self.updatedAt = updatedAt
    }
}

/// A feed body kept for conditional requests.
public struct CachedFeed: Sendable {
    public var url: String
    public var validators: HTTPValidators
    public var contentType: String?
    public var body: Data
    public var fetchedAt: Date
}

extension LoanRecord {
    /// As the database gives it back: times to the millisecond.
    var asStored: LoanRecord {
        var loan = self
        loan.startsAt = startsAt.map(\.storedPrecision)
        loan.endsAt = endsAt.map(\.storedPrecision)
        loan.updatedAt = updatedAt.storedPrecision
        return loan
    }
}

extension HoldRecord {
    /// As the database gives it back: times to the millisecond.
    var asStored: HoldRecord {
        var hold = self
        hold.startsAt = startsAt.map(\.storedPrecision)
        hold.endsAt = endsAt.map(\.storedPrecision)
        hold.updatedAt = updatedAt.storedPrecision
        return hold
    }
}

private extension Date {
    var storedPrecision: Date { Date(databaseMilliseconds: databaseMilliseconds) }
}

/// Where a loan or hold falls in the ORDER BY of `loans()` and `holds()`: a rank (ready holds first), a number with
/// NULL last (the end of a loan, a hold's place in the queue), the title as COLLATE NOCASE compares it (bytes, with
/// only A-Z folded), then the identifier for ties. Made once per record, not in every comparison of a sort.
struct ShelfOrderKey: Comparable {
    let rank: Int
    let order: Int64?
    let title: [UInt8]
    let id: String

    init(rank: Int, order: Int64?, title: String, id: String) {
        self.rank = rank
        self.order = order
        self.title = title.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        self.id = id
    }

    static func < (a: ShelfOrderKey, b: ShelfOrderKey) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        if (a.order == nil) != (b.order == nil) { return b.order == nil }
        if let x = a.order, let y = b.order, x != y { return x < y }
        if a.title != b.title { return a.title.lexicographicallyPrecedes(b.title) }
        return a.id < b.id
    }
}
