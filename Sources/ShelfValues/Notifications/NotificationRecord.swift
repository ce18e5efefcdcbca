import Foundation

/// A notification as stored: its text, where it leads, and where it has been delivered.
public struct NotificationRecord: Equatable, Sendable {
    public var id: Int64
    public var accountID: String
    public var entryID: String
    public var kind: NotificationKind
    public var title: String
    /// The text, exactly as the patron reads it everywhere.
    public var text: String
    /// Reservations for holds, My Books for loans.
    public var route: NotificationRoute
    /// The alternative: the book's details.
    public var bookRoute: NotificationRoute
    /// The end of the loan or hold the notification was made for.
    public var endsAt: Date?
    public var createdAt: Date
    /// When it stopped holding (the hold was borrowed, the loan renewed or returned); nil while live.
    public var withdrawnAt: Date?
    /// When its successor replaced it (then `withdrawnAt` is set too).
    public var supersededAt: Date?
    /// When the patron opened it (`shelf open-notification`).
    public var readAt: Date?
    /// When its line was shown on a terminal.
    public var terminalAt: Date?
    /// When it was handed to the desktop (or found no desktop to go to).
    public var desktopAt: Date?
    /// The id the desktop's notification service gave it.
    public var desktopID: UInt32?

    public init(
        id: Int64, accountID: String, entryID: String, kind: NotificationKind, title: String, text: String,
        route: NotificationRoute, bookRoute: NotificationRoute, endsAt: Date? = nil, createdAt: Date,
        withdrawnAt: Date? = nil, supersededAt: Date? = nil, readAt: Date? = nil, terminalAt: Date? = nil,
        desktopAt: Date? = nil, desktopID: UInt32? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.entryID = entryID
        self.kind = kind
        self.title = title
        self.text = text
        self.route = route
        self.bookRoute = bookRoute
        self.endsAt = endsAt
        self.createdAt = createdAt
        self.withdrawnAt = withdrawnAt
        self.supersededAt = supersededAt
        self.readAt = readAt
        self.terminalAt = terminalAt
        self.desktopAt = desktopAt
        self.desktopID = desktopID
    }

    public var isLive: Bool { withdrawnAt == nil }
    public var isUnread: Bool { isLive && readAt == nil }

    /// "unread", "read", "superseded" or "withdrawn", in words.
    public var state: String {
        supersededAt != nil ? "superseded" : (withdrawnAt != nil ? "withdrawn" : (readAt != nil ? "read" : "unread"))
    }

    /// The line a terminal shows for it: the text, then how to open it.
    public var terminalLine: String { "\(text) (shelf open-notification \(id))" }
}
