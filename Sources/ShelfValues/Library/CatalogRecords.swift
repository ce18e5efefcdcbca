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

    public init(
        id: String, title: String, catalogURL: String, authDocumentURL: String? = nil,
        authDocument: String? = nil, shelfURL: String? = nil, addedAt: Date = Date(),
        syncedAt: Date? = nil, syncError: String? = nil
    ) {
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
