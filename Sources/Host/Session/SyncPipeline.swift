import Foundation

/// Where the notifications a sync made go, once it stored them: the desktop, a terminal, the event stream.
public protocol NotificationSink {
    /// Hands over what is new since the sync began; each sink marks what it showed in the database itself.
    func deliver(_ new: [NotificationRecord], database: LibraryDatabase)
}

/// One sync of an account, in order: the library's loans and holds replace the stored ones (one transaction), the
/// notification rules run on them, wished titles are matched, reading positions and bookmarks of downloaded loans
/// are synced (those steps are `Circulation.sync`'s), then every sink is handed the notifications that are new.
///
/// Safe from several threads as `LibrarySession` is; two syncs of one account at once are serialised by the
/// database's write transaction.
public struct SyncPipeline {
    public let library: LibrarySession
    public let sinks: [NotificationSink]

    public struct Outcome {
        public let account: AccountRecord
        public let loans: [LoanRecord]
        public let holds: [HoldRecord]
        /// The notifications made by this sync, oldest first.
        public let notifications: [NotificationRecord]

        /// This sync's notifications that still hold (not withdrawn or superseded within the sync): what it tells of.
        public var announced: [NotificationRecord] { notifications.filter(\.isLive) }
    }

    public func run(account name: String?) throws -> Outcome {
        let circulation = try library.circulation(account: name)
        let before = try newestNotificationID()
        let result = try circulation.sync()
        let new = try library.database.notifications(includeWithdrawn: true).filter { $0.id > before }.sorted { $0.id < $1.id }
        for sink in sinks { sink.deliver(new, database: library.database) }
        library.shelf.events.publish(.synced(accountID: circulation.account.id, loans: result.loans.count, holds: result.holds.count))
        return Outcome(account: circulation.account, loans: result.loans, holds: result.holds, notifications: new)
    }

    private func newestNotificationID() throws -> Int64 {
        try library.database.notifications(includeWithdrawn: true).map(\.id).max() ?? 0
    }
}

/// The desktop's notification server (D-Bus), as `NotificationDelivery.deliverToDesktop` speaks to it: every live
/// notification not yet offered, not only this sync's, so that one a crash kept from the desktop goes now.
public struct DesktopSink: NotificationSink {
    public let environment: [String: String]
    public init(environment: [String: String]) { self.environment = environment }

    public func deliver(_ new: [NotificationRecord], database: LibraryDatabase) {
        NotificationDelivery.deliverToDesktop(database, environment: environment)
    }
}

/// The host's event stream (the browser app's), one `.notification` event each. (Every sync also publishes
/// `.synced` there, whatever its sinks.)
public struct EventStreamSink: NotificationSink {
    public let events: ShelfEvents
    public init(events: ShelfEvents) { self.events = events }

    public func deliver(_ new: [NotificationRecord], database: LibraryDatabase) {
        for record in new { events.publish(.notification(record)) }
    }
}

/// A terminal: one line each for the notifications not yet seen on one, counted as shown there once written.
public struct TerminalSink: NotificationSink {
    public let write: (String) -> Void
    public init(write: @escaping (String) -> Void) { self.write = write }

    public func deliver(_ new: [NotificationRecord], database: LibraryDatabase) {
        Self.announce(database: database, write: write)
    }

    /// Writes, once each, the notifications not yet seen on a terminal, and marks them seen there.
    public static func announce(database: LibraryDatabase, write: (String) -> Void) {
        // Announcing is a courtesy around a command: a database that cannot be read now leaves them for next time.
        guard let pending = try? database.notificationsForTerminal(), !pending.isEmpty else { return }
        for record in pending { write("Notification: " + NotificationDelivery.terminalLine(record)) }
        // Not marked: they are announced again next time, which is the lesser harm than losing them.
        try? database.markNotificationsShownOnTerminal(pending.map(\.id))
    }

    /// As above, only when shelf's database exists already: announcing never creates one.
    public static func announce(shelf: Shelf, write: (String) -> Void) {
        guard let directories = shelf.directories, FileManager.default.fileExists(atPath: directories.databaseFile.path),
              // A database that cannot be opened is said by the command that needs it, not here.
              let database = try? LibraryDatabase(directories: directories) else { return }
        announce(database: database, write: write)
    }
}
