internal import ShelfLibrary
internal import ShelfCore
import Foundation

/// Signing in to a library and out again. The front end asks the patron (a terminal prompt, a browser form) and
/// hands the answers over; a card and PIN are checked with the library before they are kept, and never printed.
/// Safe from several threads as `LibrarySession` is.
public struct SignIn: Sendable {
    public let library: LibrarySession
    public let account: AccountRecord
    /// The library's authentication document, read once.
    let authenticator: Authenticator
    private let http: HTTPClient

    public init(library: LibrarySession, account: AccountRecord) {
        self.library = library
        self.account = account
        http = library.shelf.catalogHTTP()
        authenticator = library.authenticator(for: account, http: http)
    }

    /// How the patron signs in, or nil when the library asks for no sign-in at all; an error when it signs in only
    /// in ways shelf cannot carry out.
    public func flow() throws -> AuthenticationDocument.Flow? {
        guard let document = authenticator.document, let flow = document.preferredFlow, flow.kind != nil else {
            if authenticator.document?.flows.isEmpty ?? true { return nil }
            let ways = authenticator.document?.flows.map { $0.kind?.words ?? $0.type }.joined(separator: "; ") ?? ""
            throw ShelfError(
                .unavailable, "\(account.title) signs in only in ways shelf cannot carry out (\(ways))",
                subject: account.id)
        }
        return flow
    }

    /// "Sign up for a library card: URL", when the library offers it.
    public var signUp: String? { authenticator.document?.register.map { "Sign up for a library card: \($0.href)" } }

    /// Keeps the token the library's web sign-in gave (pasted as the address it redirected to, or as itself).
    public func signIn(flow: AuthenticationDocument.Flow, pasted: String) throws {
        guard let token = Authenticator.token(fromPasted: pasted) else {
            throw ShelfError(.usage, "no token was given", hint: "Paste the address you were sent to after signing in.")
        }
        try library.store.save(Credential(flow: flow.type, token: token), for: account.id)
    }

    /// Signs in with a card and PIN: exchanged for a token where the library gives one, else checked against the
    /// loans feed and kept. A refusal says where to sign up for a card when the library offers it.
    public func signIn(flow: AuthenticationDocument.Flow, username: String, password: String) throws {
        do {
            if flow.kind == .basicToken {
                try authenticator.exchangeToken(username: username, password: password)
            } else {
                try verifyBasic(username: username, password: password)
                try library.store.save(
                    Credential(flow: flow.type, username: username, password: password), for: account.id)
            }
        } catch var error as ShelfError {
            if let signUp, error.kind == .permission {
                error.next = NextStep(
                    terminal: (error.next?.terminal.map { $0 + "\n  " } ?? "") + signUp,
                    browser: (error.next?.browser.map { $0 + " " } ?? "") + signUp)
            }
            throw error
        }
        // The library let the new sign-in in; a failure to clear the mark is cleared by the next sync.
        try? library.database.setSignInRefused(false, accountID: account.id)
    }

    /// The address the patron opens in a browser for the library's web sign-in (with the redirect shelf
    /// understands), or nil when the flow names none.
    public func browserAddress(_ flow: AuthenticationDocument.Flow) -> String? {
        flow.authenticate.first.map(Authenticator.browserAddress)
    }

    /// Where the account's sign-in is kept (the config folder's file or the desktop's secret service), or nil when
    /// none is.
    public var keptIn: CredentialPlace? { library.store.place(of: account.id) }

    /// Forgets the stored card number, PIN and token.
    public func signOut() throws { try library.store.remove(for: account.id) }

    /// Checks a card and PIN against the loans feed before keeping them: a wrong PIN is never stored.
    private func verifyBasic(username: String, password: String) throws {
        guard let shelf = account.shelfURL.flatMap(URL.init(string:)) else { return }
        var request = HTTPRequest(.get, shelf)
        request.setBasicAuth(user: username, password: password)
        let response = try http.send(request)
        if response.status == 401 || response.status == 403 {
            throw ShelfError(
                .permission, "the library did not accept that card number and PIN", subject: account.title,
                next: NextStep(
                    terminal: "Check them and run `shelf login \(account.id)` again.",
                    browser: "Check them and sign in again."))
        }
    }
}
