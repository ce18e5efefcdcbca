/// What a change to the patron's library accounts did: what `shelf account add|remove|use`, `shelf login` and
/// `shelf logout` and the browser app's Accounts page say (in `Sources/Host/Words/AccountWords.swift`).
public enum AccountOutcome {
    /// `inUse`: the account commands and the catalog use when none is named.
    case added(AccountRecord, inUse: Bool)
    /// `loans`, `holds`: what the account had here; the library keeps lending them.
    case removed(AccountRecord, loans: Int, holds: Int)
    case using(AccountRecord)
    /// `keptIn`: where the sign-in is kept, in words (the desktop's keyring, shelf's file).
    case signedIn(AccountRecord, keptIn: String?)
    case signedOut(AccountRecord)
    case noSignInNeeded(AccountRecord)
}
