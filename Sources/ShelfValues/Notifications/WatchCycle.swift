import Foundation

/// One pass of the watcher (`shelf watch`, or the browser app's sync of every account): how each account's sync
/// went, and the notifications the pass made.
public struct WatchCycle: Sendable {
    public struct AccountOutcome: Sendable {
        public var accountID: String
        /// "synced", "failed" or "waiting" (backing off after failures).
        public var result: String
        public var error: String?
        /// True when this failure is the first of a run of failures (what the patron is told about).
        public var newlyFailing: Bool
        public var retryAt: Date?

        public init(accountID: String, result: String, error: String?, newlyFailing: Bool, retryAt: Date?) {
            self.accountID = accountID
            self.result = result
            self.error = error
            self.newlyFailing = newlyFailing
            self.retryAt = retryAt
        }
    }

    public var accounts: [AccountOutcome] = []
    /// Notifications the rules made in this cycle.
    public var notifications: [NotificationRecord] = []
    public var failed: Bool { accounts.contains { $0.result == "failed" } }
    /// Whether there is anything to tell: new notifications, a new failure, or a recovery.
    public var changed = false

    public init() {}
}
