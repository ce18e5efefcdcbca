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
            let name = (try request.jsonObject()["name"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            return .json(document: try app.library().addAccount(url, name: name).document, status: 201)
        }
        router.add("DELETE", "/api/accounts/{id}") { request in
            let account = try app.library().removeAccount(try name(request))
            sync.publishStatus()
            return .json(document: ["removed": account.id])
        }
        router.add("POST", "/api/accounts/{id}/use") { request in
            let account = try app.library().useAccount(try name(request))
            return .json(document: ["using": account.id])
        }

        // A card and PIN, checked with the library before they are kept. A library that signs in only through its
        // own web page is refused here: the pasted-address flow of `shelf login` has no form in the app yet.
        router.add("POST", "/api/accounts/{id}/sign-in") { request in
            let library = try app.library()
            let account = try library.account(try name(request))
            let barcode = try request.required("barcode")
            let pin = (try request.jsonObject()["pin"] as? String) ?? ""
            let signIn = SignIn(library: library, account: account)
            guard let flow = try signIn.flow(), let kind = flow.kind else {
                return .json(document: ["account": account.id, "signedIn": "not needed"])
            }
            if kind.usesBrowser {
                throw WebError(400, "\(account.title) signs in through its own web page, which the browser app cannot do yet",
                               hint: signIn.browserAddress(flow).map { "Sign in at \($0) from a terminal with shelf login." },
                               kind: "browser-sign-in")
            }
            try signIn.signIn(flow: flow, username: barcode, password: pin)
            sync.soon()
            return .json(document: ["account": account.id, "signedIn": "yes"])
        }
        router.add("POST", "/api/accounts/{id}/sign-out") { request in
            let library = try app.library()
            let account = try library.account(try name(request))
            try SignIn(library: library, account: account).signOut()
            sync.publishStatus()
            return .json(document: ["account": account.id, "signedIn": "no"])
        }
    }

    private static func name(_ request: WebRequest) throws -> String {
        guard let id = request.parameters["id"], !id.isEmpty else { throw WebError(400, "Which account?") }
        return id
    }
}
