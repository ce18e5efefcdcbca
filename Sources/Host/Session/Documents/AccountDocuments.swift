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

    public static func signedIn(_ account: AccountRecord) -> SignInStateJSON {
        SignInStateJSON(account: account.id, signedIn: "yes")
    }
    public static func signedOut(_ account: AccountRecord) -> SignInStateJSON {
        SignInStateJSON(account: account.id, signedIn: "no")
    }
    public static func notNeeded(_ account: AccountRecord) -> SignInStateJSON {
        SignInStateJSON(account: account.id, signedIn: "not needed")
    }
}

/// The browser app's answer to a change of an account (removed, in use, signed in or out): the account's id under
/// the change's name, and what it did in the host's words (`AccountOutcome`), shown as it is.
public struct AccountChangeJSON: Encodable, Sendable {
    public let removed: String?
    public let using: String?
    public let account: String?
    public let signedIn: String?
    public let message: String

    public init(_ outcome: AccountOutcome, face: Face) {
        message = outcome.words(for: face).line
        switch outcome {
        case .removed(let record, _, _): (removed, using, account, signedIn) = (record.id, nil, nil, nil)
        case .using(let record): (removed, using, account, signedIn) = (nil, record.id, nil, nil)
        case .signedIn(let record, _): (removed, using, account, signedIn) = (nil, nil, record.id, "yes")
        case .signedOut(let record): (removed, using, account, signedIn) = (nil, nil, record.id, "no")
        case .noSignInNeeded(let record): (removed, using, account, signedIn) = (nil, nil, record.id, "not needed")
        case .added(let record, _): (removed, using, account, signedIn) = (nil, nil, record.id, nil)
        }
    }
}
