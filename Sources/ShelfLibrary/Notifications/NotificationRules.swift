import ShelfValues
import ShelfCore
import Foundation

/// The rules, as a pure function of the time, the account's loans and holds after a successful sync, the loans
/// the previous sync saw, and the notifications still live. Everything is counted in whole milliseconds, so the
/// boundaries (exactly 7 days, exactly 24 hours, the very moment a loan ends) fall the same on every run and in
/// every time zone: feed dates carry their offset and become absolute instants when parsed.
///
/// - A ready hold with more than 24 hours left: `holdReady`, N = whole days left, rounded up (72 or 71 hours: 3).
/// - A ready hold with 24 hours or less left (and some left): `holdLastDay` only; it supersedes `holdReady`.
/// - A loan seen with more than 6 days and at most 7 days left: `loanWeek` ("one week left" is true then, and only
///   then; a loan first seen with three days left gets none, the day notice will come). Once made, it stays live
///   until "one day left" supersedes it.
/// - A loan with 24 hours or less left (and some left): `loanDay`, which supersedes `loanWeek`.
/// - A loan whose end has come (`now ≥ end`), still listed or gone from the feed since the last sync: `loanReturned`.
///   A loan that left the feed before its end (returned here or elsewhere) fires nothing; a loan with no end date
///   never fires `loanReturned`, because its going cannot be told from a return.
///
/// A notice its successor replaces is superseded (withdrawn, and marked so). A notification is withdrawn when it no
/// longer holds: the hold is gone (borrowed, cancelled), is no longer
/// ready, or ran out; the one-day hold notice when the end moved back beyond 24 hours; a loan notice when the loan
/// is gone, ended, or was renewed past its threshold; "has been returned" when the title is on loan again.
public enum NotificationRules {
    public static let dayMilliseconds: Int64 = 86_400_000
    public static let weekMilliseconds: Int64 = 7 * dayMilliseconds

    /// Whole days in `milliseconds`, rounded up (for a positive span).
    public static func wholeDaysRoundedUp(_ milliseconds: Int64) -> Int {
        Int((milliseconds + dayMilliseconds - 1) / dayMilliseconds)
    }

    /// A loan or hold as the rules see it.
    public struct Subject: Equatable, Sendable {
        public var entryID: String
        public var title: String
        public var endsAt: Date?
        /// For holds: whether it came in.
        public var isReady: Bool

        public init(entryID: String, title: String, endsAt: Date?, isReady: Bool = false) {
            self.entryID = entryID
            self.title = title
            self.endsAt = endsAt
            self.isReady = isReady
        }

        public init(_ loan: LoanRecord) {
            self.init(entryID: loan.entry.id, title: loan.entry.title, endsAt: loan.endsAt)
        }

        public init(_ hold: HoldRecord) {
            self.init(entryID: hold.entry.id, title: hold.entry.title, endsAt: hold.endsAt, isReady: hold.isReady)
        }
    }

    /// A notification still live, as far as the rules need to know it.
    public struct Live: Equatable, Sendable {
        public var id: Int64
        public var entryID: String
        public var kind: NotificationKind

        public init(id: Int64, entryID: String, kind: NotificationKind) {
            self.id = id
            self.entryID = entryID
            self.kind = kind
        }
    }

    /// A notification to make.
    public struct Fire: Equatable, Sendable {
        public var entryID: String
        public var kind: NotificationKind
        public var title: String
        public var text: String
        public var endsAt: Date?
    }

    public struct Decision: Equatable, Sendable {
        public var fire: [Fire] = []
        /// Ids of live notifications that no longer hold.
        public var withdraw: [Int64] = []
        /// Ids of live notifications their successor replaces (fired now, or live already).
        public var supersede: [Int64] = []
    }

    public static func evaluate(
        now: Date, loans: [Subject], holds: [Subject], previousLoans: [Subject],
        live: [Live]
    ) -> Decision {
        let nowMS = now.databaseMilliseconds
        func left(_ subject: Subject) -> Int64? { subject.endsAt.map { $0.databaseMilliseconds - nowMS } }

        let loansByID = Dictionary(loans.map { ($0.entryID, $0) }, uniquingKeysWith: { first, _ in first })
        // A title can have its own hold and a branch's: a ready one's notice is kept while a waiting one is beside it.
        let holdsByID = Dictionary(
            holds.map { ($0.entryID, $0) }, uniquingKeysWith: { first, second in first.isReady ? first : second })
        var decision = Decision()

        // Withdraw what no longer holds.
        var stillLive = Set<String>()
        for notification in live {
            let stale: Bool
            switch notification.kind {
            case .holdReady, .holdLastDay:
                if let hold = holdsByID[notification.entryID], hold.isReady {
                    let remaining = left(hold)
                    if let remaining, remaining <= 0 {
                        stale = true
                    } else if notification.kind == .holdLastDay {
                        stale = remaining == nil || remaining! > dayMilliseconds
                    } else if let remaining, remaining <= dayMilliseconds {
                        decision.supersede.append(notification.id)
                        continue
                    } else {
                        stale = false
                    }
                } else {
                    stale = true
                }
            case .loanWeek, .loanDay:
                if let loan = loansByID[notification.entryID], let remaining = left(loan) {
                    if notification.kind == .loanWeek, remaining > 0, remaining <= dayMilliseconds {
                        decision.supersede.append(notification.id)
                        continue
                    }
                    let limit = notification.kind == .loanWeek ? weekMilliseconds : dayMilliseconds
                    stale = remaining <= 0 || remaining > limit
                } else {
                    stale = true
                }
            case .loanReturned:
                if let loan = loansByID[notification.entryID] {
                    stale = left(loan).map { $0 > 0 } ?? true
                } else {
                    stale = false
                }
            case .wishAvailable, .loanEnded, .holdCancelled, .holdLapsed, .signInRefused:
                // The wish list's own (WishList.check), or what a sync told of a change the library made: never the
                // loan-and-hold rules' to withdraw.
                continue
            }
            if stale {
                decision.withdraw.append(notification.id)
            } else {
                stillLive.insert(key(notification.entryID, notification.kind))
            }
        }

        func fire(_ subject: Subject, _ kind: NotificationKind, days: Int = 0) {
            guard stillLive.insert(key(subject.entryID, kind)).inserted else { return }
            decision.fire.append(
                Fire(
                    entryID: subject.entryID, kind: kind, title: subject.title,
                    text: NotificationText.text(kind, title: subject.title, days: days),
                    endsAt: subject.endsAt))
        }

        for hold in holds where hold.isReady {
            guard let remaining = left(hold), remaining > 0 else { continue }
            if remaining <= dayMilliseconds {
                fire(hold, .holdLastDay)
            } else {
                fire(hold, .holdReady, days: wholeDaysRoundedUp(remaining))
            }
        }
        for loan in loans {
            guard let remaining = left(loan) else { continue }
            if remaining <= 0 {
                fire(loan, .loanReturned)
            } else if remaining <= dayMilliseconds {
                fire(loan, .loanDay)
            } else if remaining <= weekMilliseconds, remaining > weekMilliseconds - dayMilliseconds {
                fire(loan, .loanWeek)
            }
        }
        // Loans that left the feed since the last sync: ended, or returned early (nothing to say).
        for gone in previousLoans where loansByID[gone.entryID] == nil {
            guard let remaining = left(gone), remaining <= 0 else { continue }
            fire(gone, .loanReturned)
        }
        return decision
    }

    private static func key(_ entryID: String, _ kind: NotificationKind) -> String { kind.rawValue + " " + entryID }
}
