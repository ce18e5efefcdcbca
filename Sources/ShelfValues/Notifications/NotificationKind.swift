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
    /// The library ended a loan before its end (revoked, or returned from another device): its file is deleted.
    /// Made by the sync from what left the loans feed (`LibraryChange`), never by `NotificationRules`.
    case loanEnded = "loan-ended"
    /// A hold the library no longer lists, not borrowed and not ready past its end: cancelled.
    case holdCancelled = "hold-cancelled"
    /// A ready hold not borrowed before its end: the library let it go.
    case holdLapsed = "hold-lapsed"
    /// The library refused the stored sign-in (`shelf watch`): said once, again only after a sync got in.
    case signInRefused = "sign-in-refused"

    public var isAboutHold: Bool { self == .holdReady || self == .holdLastDay }

    /// Kinds the loan-and-hold rules decide (and withdraw); a wish notice is the wish list's own.
    public var isAboutCirculation: Bool { self != .wishAvailable }

    /// Kinds a sync makes from what the library changed (`LibraryChange`): told once, never withdrawn by the rules.
    public var isLibraryChange: Bool { self == .loanEnded || self == .holdCancelled || self == .holdLapsed }

    /// Where the notification leads: Reservations for holds, My Books for loans, the title's details for a wish.
    public func route(entryID: String) -> NotificationRoute {
        switch self {
        case .holdReady, .holdLastDay, .holdCancelled, .holdLapsed: return .reservations
        case .loanWeek, .loanDay, .loanReturned, .loanEnded: return .loans
        case .wishAvailable: return .book(entryID)
        case .signInRefused: return .accounts
        }
    }
}
