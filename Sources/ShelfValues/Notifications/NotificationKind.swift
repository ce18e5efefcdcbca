/// The events a patron is told about: the user's requirements, items 1 to 5, and a wished title free to borrow.
public enum NotificationKind: String, Codable, Sendable, CaseIterable {
    /// A reserved title became available: "… You have N days to complete checkout of this item."
    case holdReady = "hold-ready"
    /// A ready hold with 24 hours or less left: "… You have 1 day left to complete checkout of this item."
    case holdLastDay = "hold-last-day"
    /// A loan with one week left.
    case loanWeek = "loan-week"
    /// A loan with one day left.
    case loanDay = "loan-day"
    /// A loan whose end passed.
    case loanReturned = "loan-returned"
    /// A title on the wish list can be borrowed now: "[title] is available to borrow now at [library]."
    /// Made by the wish-list check (`WishList.check`), never by `NotificationRules`.
    case wishAvailable = "wish-available"

    public var isAboutHold: Bool { self == .holdReady || self == .holdLastDay }

    /// Kinds the loan-and-hold rules decide (and withdraw); a wish notice is the wish list's own.
    public var isAboutCirculation: Bool { self != .wishAvailable }

    /// Where the notification leads: Reservations for holds, My Books for loans, the title's details for a wish.
    public func route(entryID: String) -> NotificationRoute {
        switch self {
        case .holdReady, .holdLastDay: return .reservations
        case .loanWeek, .loanDay, .loanReturned: return .loans
        case .wishAvailable: return .book(entryID)
        }
    }
}
