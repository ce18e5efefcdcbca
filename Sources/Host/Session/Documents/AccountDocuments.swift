internal import ShelfLibrary
import Foundation

// The small --json documents of `shelf account remove|use`, `shelf login` and `shelf logout` (docs/json.md,
// "Accounts"), one definition for the command line and the browser app.

/// The account forgotten, with its stored sign-in.
public struct AccountRemovedJSON: Encodable, Sendable {
    public let removed: String
    public init(_ account: AccountRecord) { removed = account.id }
}

/// The account commands use from now on.
public struct AccountInUseJSON: Encodable, Sendable {
    public let using: String
    public init(_ account: AccountRecord) { using = account.id }
}

/// Whether the patron is signed in to the account after `shelf login` or `shelf logout`: "yes", "no", or
/// "not needed" for a library that asks for no sign-in.
public struct SignInStateJSON: Encodable, Sendable {
    public let account: String
    public let signedIn: String

    public static func signedIn(_ account: AccountRecord) -> SignInStateJSON { SignInStateJSON(account: account.id, signedIn: "yes") }
    public static func signedOut(_ account: AccountRecord) -> SignInStateJSON { SignInStateJSON(account: account.id, signedIn: "no") }
    public static func notNeeded(_ account: AccountRecord) -> SignInStateJSON { SignInStateJSON(account: account.id, signedIn: "not needed") }
}
