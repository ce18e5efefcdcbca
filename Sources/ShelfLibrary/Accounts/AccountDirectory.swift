import ShelfCore
import Foundation

/// Adding, finding and removing library accounts.
public struct AccountDirectory {
    public let database: LibraryDatabase
    public let store: CredentialStore
    public let http: HTTPClient

    public init(database: LibraryDatabase, store: CredentialStore, http: HTTPClient) {
        self.database = database
        self.store = store
        self.http = http
    }

    /// Reads `address` (a catalog root or an authentication document), finds the other, and stores the account.
    public func add(_ address: String, name: String? = nil) throws -> AccountRecord {
        let url = try CatalogClient.address(address)
        let client = CatalogClient(http: http, database: nil, authenticator: nil)
        var catalogURL = url.absoluteString
        var authURL: String?
        var authText: String?
        var shelfURL: String?
        var title: String?
        var fetched: CatalogClient.Fetched?
        do {
            fetched = try client.fetch(url, useCache: false)
        } catch let error as ShelfError where error.kind == .permission && !url.isFileURL {
            // A protected catalog answers 401 with the authentication document as its body.
            let response = try CatalogClient.mapErrors(url: url) { try http.send(HTTPRequest(.get, url)) }
            // A probe: a body that is no authentication document leaves the 401 as it was, thrown.
            guard (try? AuthenticationDocument.parse(response.body, url: url)) != nil else { throw error }
            authURL = url.absoluteString
            authText = String(decoding: response.body, as: UTF8.self)
        }
        if let fetched {
            // A probe: what is not JSON is parsed as a feed below, whose error says what the document is not.
            if let json = (try? JSONSerialization.jsonObject(with: fetched.data)) as? [String: Any],
                json["authentication"] != nil
            {
                authURL = fetched.url.absoluteString
                authText = String(decoding: fetched.data, as: UTF8.self)
            } else {
                let feed = try CatalogDocument.parse(fetched.data, url: fetched.url, contentType: fetched.contentType)
                catalogURL = fetched.url.absoluteString
                title = feed.title
                shelfURL = feed.shelf?.href
                authURL = feed.authDocument?.href
                if let authURL, let authAddress = URL(string: authURL), !authAddress.isFileURL || url.isFileURL {
                    let answer = try client.fetch(
                        authAddress, accept: AuthenticationDocument.mediaTypes.joined(separator: ", "),
                        useCache: false)
                    authText = String(decoding: answer.data, as: UTF8.self)
                }
            }
        }
        if let authText, let authAddress = authURL.flatMap(URL.init(string:)) {
            let document = try AuthenticationDocument.parse(Data(authText.utf8), url: authAddress)
            title = document.title.isEmpty ? title : document.title
            shelfURL = shelfURL ?? document.shelf?.href
            if catalogURL == authURL, let start = document.start?.href { catalogURL = start }
            if catalogURL == authURL {
                throw ShelfError(
                    .badData, "the authentication document names no catalog (no \"start\" link)",
                    subject: authURL, hint: "Add the library by its catalog address instead.")
            }
        }
        let base = name ?? Self.slug(title ?? URL(string: catalogURL)?.host ?? "library")
        guard Self.isValidName(base) else {
            throw ShelfError(.usage, "\"\(base)\" cannot name an account", hint: "Use letters, digits, '-' and '_'.")
        }
        var id = base
        var counter = 2
        while let existing = try database.account(id: id) {
            if existing.catalogURL == catalogURL { break }
            if name != nil {
                throw ShelfError(.usage, "an account called \"\(id)\" already exists", hint: "Choose another --name.")
            }
            id = "\(base)-\(counter)"
            counter += 1
        }
        let account = AccountRecord(
            id: id, title: title ?? id, catalogURL: catalogURL, authDocumentURL: authURL,
            authDocument: authText, shelfURL: shelfURL)
        try database.upsertAccount(account)
        if try database.defaultAccountID == nil { try database.setDefaultAccount(id) }
        return try database.account(id: id) ?? account
    }

    /// The account `name` names (exactly, or a unique prefix), or the default one.
    public func resolve(_ name: String?) throws -> AccountRecord {
        let all = try database.accounts()
        if let name {
            if let exact = all.first(where: { $0.id == name }) { return exact }
            let matches = all.filter { $0.id.hasPrefix(name) || $0.title.localizedCaseInsensitiveContains(name) }
            if matches.count == 1 { return matches[0] }
            throw ShelfError(
                .usage,
                matches.isEmpty
                    ? "no account \"\(name)\""
                    : "\"\(name)\" matches several accounts: "
                        + matches.map(\.id).joined(separator: ", "),
                next: NextStep(terminal: "`shelf account list` shows them.", browser: "The Accounts page shows them."))
        }
        if let id = try database.defaultAccountID, let account = all.first(where: { $0.id == id }) { return account }
        if all.count == 1 { return all[0] }
        throw ShelfError(
            .usage, all.isEmpty ? "no library account yet" : "several accounts and none chosen",
            next: all.isEmpty
                ? NextStep(terminal: "Add one with `shelf account add URL`.", browser: "Add one on the Accounts page.")
                : NextStep(
                    terminal: "Choose one with `shelf account use NAME` or --account NAME.",
                    browser: "Choose one on the Accounts page."))
    }

    public func remove(_ name: String) throws -> AccountRecord {
        let account = try resolve(name)
        try store.remove(for: account.id)
        try database.deleteAccount(id: account.id)
        return account
    }

    static func slug(_ title: String) -> String {
        let lowered = title.lowercased().unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-"
        }
        let collapsed = String(lowered).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "library" : String(collapsed.prefix(40))
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
            }
    }
}
