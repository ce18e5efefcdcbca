import ShelfPlugins
import ShelfCore
import Foundation

/// Signs requests for one library account with the patron's stored credential, and only towards the
/// library's own hosts: a redirect or a link to a CDN never receives the card number, PIN or token.
public final class Authenticator: Sendable {
    public let account: AccountRecord
    public let store: CredentialStore
    let http: HTTPClient
    public let document: AuthenticationDocument?
    private let trustedHosts: Set<String>

    public init(account: AccountRecord, store: CredentialStore, http: HTTPClient) {
        self.account = account
        self.store = store
        self.http = http
        if let text = account.authDocument, let url = URL(string: account.authDocumentURL ?? account.catalogURL) {
            // Stored after it parsed when the account was added: one that no longer does offers no sign-in, which
            // `SignIn.flow` says ("the library offers no way to sign in"), and `shelf account add` fetches it anew.
            document = try? AuthenticationDocument.parse(Data(text.utf8), url: url)
        } else {
            document = nil
        }
        var hosts = Set<String>()
        for address in [account.catalogURL, account.authDocumentURL, account.shelfURL] {
            if let host = address.flatMap({ URL(string: $0)?.host?.lowercased() }) { hosts.insert(host) }
        }
        for flow in document?.flows ?? [] {
            for link in flow.authenticate {
                if let host = URL(string: link.href)?.host?.lowercased() { hosts.insert(host) }
            }
        }
        trustedHosts = hosts
    }

    // Only for words ("signed in" in an error message); `authorize` reads the credential and throws what fails.
    public var credential: Credential? { try? store.credential(for: account.id) }

    public func isTrusted(_ url: URL) -> Bool {
        url.host.map { trustedHosts.contains($0.lowercased()) } ?? false
    }

    /// Adds the Authorization header the account's credential calls for, when `request` goes to the library.
    public func authorize(_ request: inout HTTPRequest) throws {
        guard isTrusted(request.url), let credential = try store.credential(for: account.id) else { return }
        if let token = credential.token, credential.hasUsableToken || credential.password == nil {
            request.setBearerToken(token)
        } else if credential.flow == AuthenticationDocument.FlowKind.basicToken.rawValue,
            let user = credential.username, let password = credential.password
        {
            let renewed = try exchangeToken(username: user, password: password)
            request.setBearerToken(renewed.token ?? "")
        } else if let user = credential.username, let password = credential.password {
            request.setBasicAuth(user: user, password: password)
        }
    }

    /// After a 401: a Palace basic-token whose token expired early is exchanged again, once. True when
    /// the request is worth repeating.
    public func recoverFrom401() throws -> Bool {
        guard let credential = try store.credential(for: account.id),
            credential.flow == AuthenticationDocument.FlowKind.basicToken.rawValue,
            credential.token != nil, let user = credential.username, let password = credential.password
        else { return false }
        _ = try exchangeToken(username: user, password: password)
        return true
    }

    /// Palace basic-token: POST the card number and PIN (HTTP Basic) to the flow's `authenticate` link and
    /// keep the bearer token it returns, with the card and PIN so that it can be renewed.
    @discardableResult
    public func exchangeToken(username: String, password: String) throws -> Credential {
        guard let flow = document?.flows.first(where: { $0.kind == .basicToken }),
            let link = flow.authenticate.first, let url = URL(string: link.href)
        else {
            throw ShelfError(
                .badData, "the library offers a token sign-in without an address to get the token from",
                subject: account.title, hint: "Tell the library; its authentication document is incomplete.")
        }
        var request = HTTPRequest(.post, url, headers: ["Accept": "application/json"])
        request.setBasicAuth(user: username, password: password)
        let response = try CatalogClient.mapErrors(url: url) { try http.send(request) }
        if response.status == 401 || response.status == 403 {
            throw ShelfError(
                .permission, "the library did not accept that card number and PIN", subject: account.title,
                next: NextStep(
                    terminal: "Check them and run `shelf login \(account.id)` again.",
                    browser: "Check them and sign in again."))
        }
        try CatalogClient.requireSuccess(response)
        guard let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
            let token = json["access_token"] as? String, !token.isEmpty
        else {
            throw ShelfError(
                .badData, "the library's token answer has no access_token", subject: url.absoluteString,
                hint: "Try again later; if it persists, tell the library.")
        }
        let expires = (json["expires_in"] as? NSNumber).map { Date().addingTimeInterval($0.doubleValue) }
        let credential = Credential(
            flow: flow.type, username: username, password: password, token: token,
            tokenExpires: expires)
        try store.save(credential, for: account.id)
        return credential
    }

    /// Reads a token handed back by a browser flow: either the token itself or the whole redirect address
    /// (`opds://authorize/?access_token=…` or `…#access_token=…`).
    public static func token(fromPasted text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.contains("access_token=") {
            let normalised = trimmed.replacingOccurrences(of: "#", with: "?")
            let query = normalised.split(separator: "?").dropFirst().joined(separator: "&")
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == "access_token" {
                    return String(parts[1]).removingPercentEncoding ?? String(parts[1])
                }
            }
            return nil
        }
        return trimmed.contains(where: \.isWhitespace) ? nil : trimmed
    }

    /// The address a browser flow opens, with the redirect shelf understands.
    public static func browserAddress(_ link: CatalogLink) -> String {
        var components = URLComponents(string: link.href)
        var items = components?.queryItems ?? []
        if !items.contains(where: { $0.name == "redirect_uri" }) {
            items.append(URLQueryItem(name: "redirect_uri", value: "opds://authorize/"))
        }
        components?.queryItems = items
        return components?.string ?? link.href
    }
}
