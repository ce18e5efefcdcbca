internal import ShelfCore
internal import ShelfLibrary
import Foundation

// What a front end does with the notifications the sync pipeline stored: opens one, counts what it showed on a
// terminal, and shows the Reservations badge.

extension LibrarySession {
    /// Marks notification `id` read and returns it as stored now; nil when there is no such notification.
    public func openNotification(_ id: Int64) throws -> NotificationRecord? {
        guard let record = try database.notification(id: id) else { return nil }
        try database.markNotificationRead(id)
        return try database.notification(id: id) ?? record
    }

    /// Counts the notifications as shown on a terminal, so that the line announcing them around the next command
    /// does not repeat them.
    public func markShownOnTerminal(_ ids: [Int64]) {
        // Not marked: the next command announces them again, the lesser harm than failing what showed them.
        try? database.markNotificationsShownOnTerminal(ids)
    }

    /// Holds ready to borrow now (the Reservations badge), for the account NAME names or for every account (nil,
    /// or a name that names no account, as the listing itself does).
    public func readyHoldCount(account name: String?) throws -> Int {
        try database.readyHoldCount(accountID: accountID(name))
    }

    // MARK: Watching

    /// Whether some account has a loans feed for `shelf watch` to sync.
    public var hasAccountToWatch: Bool {
        get throws { try database.accounts().contains { $0.shelfURL != nil } }
    }

    /// The watcher that syncs every account with a loans feed each `interval`, backing off an account that fails,
    /// and hands new notifications to the desktop.
    public func watcher(interval: TimeInterval) -> Watcher {
        let environment = shelf.environment
        return Watcher(
            ShelfLibrary.Watcher(
                database: database, interval: interval, deadline: CommandDeadline.configuredSeconds(in: environment),
                deliver: { NotificationDelivery.deliverToDesktop($0, environment: environment) }
            ) { account in
                _ = try SyncPipeline.steps(self.circulation(for: account, openable: []))
            })
    }
}
