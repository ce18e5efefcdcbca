import ShelfValues
import Foundation
import ShelfValues

/// Runs the rules for one account against what the database holds, right after a successful sync, and stores
/// the outcome. Never run after a failed sync: a feed that did not arrive says nothing about loans ending.
public struct NotificationEngine {
    public let database: LibraryDatabase
    public let clock: NotificationClock
    /// Added to each text made: the notices made from stored end dates while the library refuses the sign-in say
    /// they are not confirmed by the library.
    public var textSuffix = ""

    public init(database: LibraryDatabase, clock: NotificationClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// Evaluates the rules for the account; returns the notifications made now (withdrawals are stored too).
    @discardableResult
    public func evaluate(accountID: String) throws -> [NotificationRecord] {
        try database.connection.transaction {
            try evaluate(
                accountID: accountID, loans: database.loans(accountID: accountID),
                holds: database.holds(accountID: accountID))
        }
    }

    /// Evaluates the rules against `loans` and `holds`, the account's as just stored: a sync passes what it wrote,
    /// in the transaction that wrote it, instead of reading (and decoding) every loan back.
    @discardableResult
    public func evaluate(accountID: String, loans: [LoanRecord], holds: [HoldRecord]) throws -> [NotificationRecord] {
        let now = clock.now
        return try database.connection.transaction {
            let loans = loans.map(NotificationRules.Subject.init)
            let holds = holds.map(NotificationRules.Subject.init)
            let previous = try database.notificationLoans(accountID: accountID)
            let decision = NotificationRules.evaluate(
                now: now, loans: loans, holds: holds, previousLoans: previous,
                live: try database.liveNotificationsForRules(accountID: accountID))
            return try database.applyNotificationDecision(
                decision, accountID: accountID, loans: loans, previousLoans: previous,
                at: now, textSuffix: textSuffix)
        }
    }
}
