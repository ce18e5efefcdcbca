import ShelfCore
import Foundation

/// The loans and holds changed here since a sync asked the library (`circulation_changes`). A sync's answer is as old
/// as its request: a borrow, reserve, return or cancel made while it was on its way is newer, and the sync keeps it
/// instead of undoing it until the next sync (issue 32, item 4).
extension LibraryDatabase {
    /// Notes that this computer changed the patron's loan or hold of `entryID` at the account just now. Called inside
    /// the change's own transaction.
    func noteCirculationChange(accountID: String, entryID: String) throws {
        try connection.execute(
            "INSERT INTO circulation_changes (account_id, entry_id) VALUES (?, ?)", [accountID, entryID])
    }

    /// The number of the last change made so far: a sync takes it before it asks the library.
    public func circulationChangeMark() throws -> Int64 {
        try connection.scalar(
            "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'circulation_changes'), 0)") ?? 0
    }

    /// The titles whose loan or hold at the account changed after `mark`.
    func circulationChanges(accountID: String, after mark: Int64) throws -> Set<String> {
        Set(
            try connection.query(
                "SELECT entry_id FROM circulation_changes WHERE account_id = ? AND seq > ?", [accountID, mark]
            )
            .map { try $0.get("entry_id") as String })
    }

    /// Forgets the changes a sync's answer already tells (those up to `mark`).
    func forgetCirculationChanges(accountID: String, through mark: Int64) throws {
        try connection.execute("DELETE FROM circulation_changes WHERE account_id = ? AND seq <= ?", [accountID, mark])
    }
}

/// Whether the library refused the account's stored sign-in at the last sync (issue 32, item 6).
extension LibraryDatabase {
    public func setSignInRefused(_ refused: Bool, accountID: String) throws {
        try setMeta("account.signInRefused.\(accountID)", refused ? "yes" : nil)
    }

    public func signInRefused(accountID: String) throws -> Bool {
        try meta("account.signInRefused.\(accountID)") == "yes"
    }
}
