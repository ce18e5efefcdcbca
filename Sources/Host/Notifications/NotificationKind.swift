/// The five events a patron is told about (the user's requirements, items 1 to 5).
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

    public var isAboutHold: Bool { self == .holdReady || self == .holdLastDay }

    /// Where the notification leads: Reservations for holds, My Books for loans.
    public var route: NotificationRoute { isAboutHold ? .reservations : .loans }
}
