import Foundation
import Host

/// Accounts in the API: the libraries the patron added, signing in with a card and PIN and out again, and which
/// library is the current one; the same session calls and documents (docs/json.md, Account) as `shelf account`,
/// `shelf login` and `shelf logout`.
enum AccountsAPI {
    static func install(in app: WebApp, sync: LibrarySync) {
        let router = app.router

        router.add("GET", "/api/accounts") { request in
            try Paging.response(try app.library().accountDocuments(), for: request)
        }
        router.add("POST", "/api/accounts") { request in
            let url = try request.required("url")
            let name = try request.json().word("name")
            let (account, added) = try app.library().addAccount(url, name: name)
            var document = added
            document.message = AccountOutcome.added(account, inUse: added.isDefault).words(for: .browser).line
            return .json(document: document, status: 201)
        }
        router.add("DELETE", "/api/accounts/{id}") { request in
            let library = try app.library(), id = try name(request)
            // Counted before they go with the account: the patron is told that the library still lends them.
            let held = ((try? library.loans(account: id).count) ?? 0, (try? library.holds(account: id).count) ?? 0)
            let account = try library.removeAccount(id)
            sync.publishStatus()
            return .json(document: AccountChangeJSON(.removed(account, loans: held.0, holds: held.1), face: .browser))
        }
        router.add("POST", "/api/accounts/{id}/use") { request in
            let account = try app.library().useAccount(try name(request))
            return .json(document: AccountChangeJSON(.using(account), face: .browser))
        }

        // A card and PIN, checked with the library before they are kept. A library that signs in only through its
        // own web page is refused here: the pasted-address flow of `shelf login` has no form in the app yet.
        router.add("POST", "/api/accounts/{id}/sign-in") { request in
            let library = try app.library()
            let account = try library.account(try name(request))
            let barcode = try request.required("barcode")
            let pin = try request.json().string("pin") ?? ""
            let signIn = SignIn(library: library, account: account)
            guard let flow = try signIn.flow(), let kind = flow.kind else {
                return .json(document: AccountChangeJSON(.noSignInNeeded(account), face: .browser))
            }
            if kind.usesBrowser {
                throw WebError(
                    400, SignInLimit.throughWebPage(library: account.title, address: signIn.browserAddress(flow)),
                    kind: "browser-sign-in")
            }
            try signIn.signIn(flow: flow, username: barcode, password: pin)
            sync.soon()
            return .json(document: AccountChangeJSON(.signedIn(account, keptIn: signIn.keptIn?.words), face: .browser))
        }
        router.add("POST", "/api/accounts/{id}/sign-out") { request in
            let library = try app.library()
            let account = try library.account(try name(request))
            try SignIn(library: library, account: account).signOut()
            sync.publishStatus()
            return .json(document: AccountChangeJSON(.signedOut(account), face: .browser))
        }
    }

    private static func name(_ request: WebRequest) throws -> String {
        // The router matches no empty segment: an account's routes always have an id, or nothing is there.
        guard let id = request.parameters["id"], !id.isEmpty else {
            throw WebError(404, RequestProblem.nothingAt(path: request.path))
        }
        return id
    }
}
