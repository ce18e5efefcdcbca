internal import ShelfCore
internal import ShelfLibrary
import Foundation

// The --json documents of notifications, status and the watcher (docs/json.md).

public struct NotificationJSON: Encodable, Sendable {
    public let id: Int64
    public let account: String
    public let entryId: String
    public let kind: String
    public let title: String
    public let text: String
    public let route: String
    public let bookRoute: String
    public let state: String
    public let created: String
    public let endsAt: String?
    public let read: String?
    public let withdrawn: String?
    public let onDesktop: Bool

    public init(_ record: NotificationRecord) {
        id = record.id
        account = record.accountID
        entryId = record.entryID
        kind = record.kind.rawValue
        title = record.title
        text = record.text
        route = record.route.description
        bookRoute = record.bookRoute.description
        state = record.state
        created = isoDate(record.createdAt)
        endsAt = record.endsAt.map(isoDate)
        read = record.readAt.map(isoDate)
        withdrawn = record.withdrawnAt.map(isoDate)
        onDesktop = record.desktopID != nil
    }
}

/// `shelf open-notification --json`: the notification (now read) and the route it leads to.
public struct OpenNotificationJSON: Encodable, Sendable {
    public let notification: NotificationJSON
    public let route: String
    public init(notification: NotificationRecord, route: NotificationRoute) {
        self.notification = NotificationJSON(notification)
        self.route = route.description
    }
}

/// One look at everything: accounts, loans, holds, the ready-to-borrow badge, unread notifications.
public struct StatusJSON: Encodable, Sendable {
    public struct Account: Encodable, Sendable {
        public let id: String
        public let title: String
        public let signedIn: Bool
        /// The library refused the stored sign-in at the last sync.
        public let signInRefused: Bool
        public let synced: String?
        public let syncError: String?
        public let loans: Int
        public let holds: Int
        public let readyToBorrow: Int
        /// For the text output: when it last synced, as a date.
        public let syncedAt: Date?

        private enum CodingKeys: String, CodingKey {
            case id, title, signedIn, signInRefused, synced, syncError, loans, holds, readyToBorrow
        }
    }

    public let accounts: [Account]
    public let loans: Int
    public let holds: Int
    /// The badge: holds ready to borrow now (0 clears it).
    public let readyToBorrow: Int
    public let unreadNotifications: Int
    public let notifications: [NotificationJSON]

    /// Reads it all from the library's database, as of `now`.
    public init(_ library: LibrarySession, now: Date = Date()) throws {
        let database = library.database
        let loans = try database.loans()
        let holds = try database.holds()
        let unread = try database.notifications().filter(\.isUnread)
        accounts = try database.accounts().map { account in
            Account(
                id: account.id, title: account.title, signedIn: library.isSignedIn(account),
                signInRefused: library.isSignInRefused(account), synced: account.syncedAt.map(isoDate),
                syncError: account.syncError,
                loans: loans.filter { $0.accountID == account.id }.count,
                holds: holds.filter { $0.accountID == account.id }.count,
                readyToBorrow: try database.readyHoldCount(accountID: account.id, at: now), syncedAt: account.syncedAt)
        }
        self.loans = loans.count
        self.holds = holds.count
        readyToBorrow = try database.readyHoldCount(at: now)
        unreadNotifications = unread.count
        notifications = unread.map(NotificationJSON.init)
        soonestDue = loans.first?.endsAt
        unreadRecords = unread
    }

    /// For the text output: when the first loan (soonest due) ends, and the unread notifications themselves.
    public let soonestDue: Date?
    public let unreadRecords: [NotificationRecord]

    private enum CodingKeys: String, CodingKey {
        case accounts, loans, holds, readyToBorrow, unreadNotifications, notifications
    }
}

/// One pass of `shelf watch --json`: how each account's sync went, and the notifications it made.
public struct WatchCycleJSON: Encodable, Sendable {
    public struct Account: Encodable, Sendable {
        public let account: String
        public let result: String
        public let error: String?
        public let retryAt: String?
    }

    public let accounts: [Account]
    public let notifications: [NotificationJSON]

    public init(_ cycle: WatchCycle) {
        accounts = cycle.accounts.map {
            Account(account: $0.accountID, result: $0.result, error: $0.error, retryAt: $0.retryAt.map(isoDate))
        }
        notifications = cycle.notifications.map(NotificationJSON.init)
    }
}

/// The systemd units `shelf watch --install --json` wrote, how often they run, and the command that starts them.
public struct WatchInstallJSON: Encodable, Sendable {
    public let files: [String]
    public let interval: String
    public let enable: String

    public init(files: [String], interval: String, enable: String) {
        self.files = files
        self.interval = interval
        self.enable = enable
    }
}
