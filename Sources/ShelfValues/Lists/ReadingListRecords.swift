import Foundation
import ConnectorShapes

// The reading lists and the wish list as stored: made from the library's database (ShelfLibrary), shown by the
// front ends.

/// A reading-list service connected: its settings (never its secrets) and its last pull.
public struct ConnectedService: Sendable, Equatable {
    public var service: String
    public var pluginID: String
    public var settings: [String: String]
    public var connectedAt: Date
    public var pulledAt: Date?
    public var pullError: String?

    public init(
        service: String, pluginID: String, settings: [String: String], connectedAt: Date, pulledAt: Date? = nil,
        pullError: String? = nil
    ) {
        self.service = service
        self.pluginID = pluginID
        self.settings = settings
        self.connectedAt = connectedAt
        self.pulledAt = pulledAt
        self.pullError = pullError
    }
}

/// A title on a connected reading list, as the last pull saw it.
public struct StoredReadingListEntry: Sendable {
    public var service: String
    public var entry: ReadingListEntry

    public init(service: String, entry: ReadingListEntry) {
        self.service = service
        self.entry = entry
    }
}

/// A wished title, and the catalog title it matched (if any) with its availability at the last check.
public struct Wish: Sendable, Equatable {
    public var id: Int64
    public var key: String
    public var source: String
    public var title: String
    public var authors: [String]
    public var isbn: String?
    public var addedAt: Date
    public var accountID: String?
    public var entryID: String?
    public var matchedBy: String?
    public var availability: String?
    public var available: Bool
    public var checkedAt: Date?
    public var notifiedAt: Date?
    /// When the library last said the matched title's availability (its catalog entry's last sighting): words from
    /// an older look say how old they are.
    public var seenAt: Date?

    public init(
        id: Int64, key: String, source: String, title: String, authors: [String], isbn: String? = nil, addedAt: Date,
        accountID: String? = nil, entryID: String? = nil, matchedBy: String? = nil, availability: String? = nil,
        available: Bool, checkedAt: Date? = nil, notifiedAt: Date? = nil, seenAt: Date? = nil
    ) {
        self.id = id
        self.key = key
        self.source = source
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.addedAt = addedAt
        self.accountID = accountID
        self.entryID = entryID
        self.matchedBy = matchedBy
        self.availability = availability
        self.available = available
        self.checkedAt = checkedAt
        self.notifiedAt = notifiedAt
        self.seenAt = seenAt
    }
}

/// A wished title that has become available to borrow, not announced before (`ReadingLists.Notice`).
public struct WishNotice: Sendable {
    public var wish: Wish
    public var library: String
    /// "[title] is available to borrow now at [library]."
    public var text: String
    /// The notification it was stored as (nil for a catalog browsed without an account).
    public var notificationID: Int64?

    public init(wish: Wish, library: String, text: String, notificationID: Int64?) {
        self.wish = wish
        self.library = library
        self.text = text
        self.notificationID = notificationID
    }
}
