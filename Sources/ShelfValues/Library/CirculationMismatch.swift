/// What the patron has of a title at one library, by the library's word (or, when it cannot be asked, by what the
/// last sync stored).
public enum TitleStanding: Sendable, Equatable {
    case onLoan
    case onHold
    case neither
}

/// A return asked of a title that is not on loan, or a cancel asked of one that is not on hold: the library was sent
/// nothing. A circulation manager gives loans and holds one revoke link, so following it for the wrong one would
/// give back what the patron meant to keep. The host turns this value into the patron's words.
public struct CirculationMismatch: Error {
    /// What the patron asked for.
    public enum Asked: Sendable { case returnLoan, cancelHold }

    public var asked: Asked
    public var entry: CatalogEntry
    /// The account asked (its id and title, as `shelf account list` names it).
    public var accountID: String
    public var accountTitle: String
    /// What the title is there.
    public var standing: TitleStanding
    /// Another account that has it the way the patron asked (on loan for a return, on hold for a cancel), by what its
    /// last sync stored: (id, title).
    public var elsewhere: (id: String, title: String)?

    public init(
        asked: Asked, entry: CatalogEntry, accountID: String, accountTitle: String, standing: TitleStanding,
        elsewhere: (id: String, title: String)? = nil
    ) {
        self.asked = asked
        self.entry = entry
        self.accountID = accountID
        self.accountTitle = accountTitle
        self.standing = standing
        self.elsewhere = elsewhere
    }
}
