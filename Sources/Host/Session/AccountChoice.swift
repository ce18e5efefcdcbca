internal import ShelfLibrary
import Foundation

// Adding an account and choosing the one in use, as `shelf account` and the browser app's accounts do: one
// implementation of which account is in use, kept in the library database.

extension LibrarySession {
    /// Remembers the library at `address` (its catalog root or authentication document) as an account: the account
    /// and its document (docs/json.md, Account), which says whether it became the one in use.
    public func addAccount(_ address: String, name: String?) throws -> (account: AccountRecord, document: AccountJSON) {
        let account = try accounts.add(address, name: name)
        return (account, AccountJSON(account, library: self, defaultID: try database.defaultAccountID))
    }

    /// Makes the account NAME names the one commands use without naming one.
    @discardableResult
    public func useAccount(_ name: String) throws -> AccountRecord {
        let account = try accounts.resolve(name)
        try database.setDefaultAccount(account.id)
        return account
    }
}
