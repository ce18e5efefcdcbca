import Foundation

/// A change the library made to the patron's loans and holds, seen by a sync (issue 32, item 8): what the sync says
/// and, as a notification, tells the patron once. Changes made here (a return, a cancel, a borrow) are none.
public struct LibraryChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A loan gone from the loans feed before its end: revoked by the library (or returned elsewhere).
        case loanEnded
        /// A hold gone from the feed, neither borrowed nor ready past its end.
        case holdCancelled
        /// A ready hold gone from the feed after the day it had to be borrowed by.
        case holdLapsed
    }

    public var kind: Kind
    public var accountID: String
    public var entryID: String
    public var title: String

    public init(kind: Kind, accountID: String, entryID: String, title: String) {
        self.kind = kind
        self.accountID = accountID
        self.entryID = entryID
        self.title = title
    }

    /// The loans and holds `before` a sync that are gone `after` it, read as the library's doing. A loan whose end
    /// `now` has passed ended on its day (the "has been returned" notice tells of it); a hold that became a loan was
    /// borrowed.
    public static func changes(
        accountID: String, loansBefore: [LoanRecord], holdsBefore: [HoldRecord], loansAfter: [LoanRecord],
        holdsAfter: [HoldRecord], now: Date
    ) -> [LibraryChange] {
        let loans = Set(loansAfter.map(\.entry.id))
        // The title's own holds: a branch's hold on the same title is another hold and hides no cancel.
        let holds = Set(holdsAfter.filter { $0.branch == nil }.map(\.entry.id))
        var changes: [LibraryChange] = []
        for loan in loansBefore where !loans.contains(loan.entry.id) {
            // Without an end date, its going cannot be told from the period's end: nothing is claimed.
            guard let end = loan.endsAt ?? loan.entry.availability.until, end > now else { continue }
            changes.append(
                LibraryChange(kind: .loanEnded, accountID: accountID, entryID: loan.entry.id, title: loan.entry.title))
        }
        // A branch's hold may be one the loans feed never lists: its absence says nothing.
        for hold in holdsBefore
        where hold.branch == nil && !holds.contains(hold.entry.id) && !loans.contains(hold.entry.id) {
            let end = hold.endsAt ?? hold.entry.availability.until
            let lapsed = hold.isReady && end.map { $0 <= now } == true
            changes.append(
                LibraryChange(
                    kind: lapsed ? .holdLapsed : .holdCancelled, accountID: accountID, entryID: hold.entry.id,
                    title: hold.entry.title))
        }
        return changes
    }
}
