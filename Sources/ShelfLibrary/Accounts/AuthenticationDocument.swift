import ShelfCore
import Foundation

/// A library's Authentication for OPDS document: who the library is and how a patron signs in.
public struct AuthenticationDocument: Sendable {
    public var id: String
    public var title: String
    public var description: String?
    public var flows: [Flow]
    public var links: [CatalogLink]

    public enum FlowKind: String, Codable, Sendable {
        case basic = "http://opds-spec.org/auth/basic"
        case basicToken = "http://thepalaceproject.org/authtype/basic-token"
        case oauthImplicit = "http://opds-spec.org/auth/oauth/implicit"
        case oauthPassword = "http://opds-spec.org/auth/oauth/password"
        case oauthClientCredentials = "http://opds-spec.org/auth/oauth/client_credentials"
        case saml = "http://librarysimplified.org/authtype/SAML-2.0"
        case oauthIntermediary = "http://librarysimplified.org/authtype/OAuth-with-intermediary"
        case openIDConnect = "http://palaceproject.io/authtype/OpenIDConnect"
        case anonymous = "http://librarysimplified.org/rel/auth/anonymous"
        case coppa = "http://librarysimplified.org/terms/authentication/gate/coppa"

        /// Flows that hand a token back from a browser: shelf prints the address and takes the token.
        public var usesBrowser: Bool {
            self == .oauthImplicit || self == .saml || self == .oauthIntermediary || self == .openIDConnect
        }

        /// Flows that take a card number and PIN.
        public var usesPassword: Bool { self == .basic || self == .basicToken || self == .oauthPassword }

        public var words: String {
            switch self {
            case .basic: return "library card and PIN"
            case .basicToken: return "library card and PIN (token)"
            case .oauthImplicit: return "sign in through the library's web page"
            case .oauthPassword: return "library card and PIN (OAuth)"
            case .oauthClientCredentials: return "client credentials"
            case .saml: return "sign in through your institution (SAML)"
            case .oauthIntermediary: return "sign in through an intermediary (OAuth)"
            case .openIDConnect: return "sign in with OpenID Connect"
            case .anonymous: return "no sign-in needed"
            case .coppa: return "age check"
            }
        }
    }

    public struct Flow: Sendable {
        public var type: String
        public var kind: FlowKind?
        public var description: String?
        public var loginLabel: String
        public var passwordLabel: String
        /// `authenticate` links (one per identity provider for SAML).
        public var authenticate: [CatalogLink]
        public var refresh: CatalogLink?
    }

    public var register: CatalogLink? { links.first { $0.rel == "register" } }
    public var shelf: CatalogLink? { links.first { $0.rel == Rel.shelf } }
    public var start: CatalogLink? { links.first { $0.rel == "start" } }
    public var help: [CatalogLink] { links.filter { $0.rel == "help" } }

    /// The flow shelf uses: the first one it can carry out, preferring card-and-PIN flows.
    public var preferredFlow: Flow? {
        flows.first { $0.kind == .basicToken } ?? flows.first { $0.kind == .basic }
            ?? flows.first { $0.kind == .oauthPassword } ?? flows.first { $0.kind?.usesBrowser ?? false }
    }

    public static let mediaTypes = ["application/opds-authentication+json", "application/vnd.opds.authentication.v1.0+json"]

    public static func isAuthenticationType(_ type: String?) -> Bool {
        type.map { mediaTypes.contains(MediaTypes.base($0)) } ?? false
    }

    /// Parses the document; the error says which required part is missing or malformed.
    public static func parse(_ data: Data, url: URL) throws -> AuthenticationDocument {
        let subject = url.absoluteString
        func bad(_ reason: String) -> ShelfError {
            ShelfError(.badData, "the library's authentication document is not usable: \(reason)", subject: subject,
                       hint: "The library's server is misconfigured; tell the library, or try again later.")
        }
        guard data.count <= 4 << 20 else { throw bad("it is larger than 4 MB") }
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw bad("it is not valid JSON") }
        guard let json = object as? [String: Any] else { throw bad("it is not a JSON object") }
        // The pre-standard shape (early Library Simplified): a top-level list of type URIs and one set of labels.
        if json["authentication"] == nil, let types = json["type"] as? [Any] {
            var upgraded = json
            upgraded["authentication"] = types.compactMap { $0 as? String }.map { ["type": $0, "labels": json["labels"] ?? [:]] as [String: Any] }
            if !(json["links"] is [Any]) { upgraded["links"] = [] as [Any] }
            return try parse(try JSONSerialization.data(withJSONObject: upgraded), url: url)
        }
        guard let list = json["authentication"] as? [Any] else {
            throw bad(json["authentication"] == nil ? "it has no \"authentication\" list" : "\"authentication\" is not a list")
        }
        var flows: [Flow] = []
        var skipped: [String] = []
        for item in list {
            guard let flow = item as? [String: Any], let type = flow["type"] as? String else {
                throw bad("an entry of \"authentication\" has no type")
            }
            if let labels = flow["labels"], !(labels is [String: Any]) { throw bad("the labels of \(type) are not an object") }
            let labels = flow["labels"] as? [String: Any] ?? [:]
            for (key, value) in labels where !(value is String) { throw bad("the \(key) label of \(type) is not text") }
            if let links = flow["links"], !(links is [Any]) { throw bad("the links of \(type) are not a list") }
            let links = OPDS2Parser.linkList(flow["links"], base: url, skipped: &skipped)
            flows.append(Flow(type: type, kind: FlowKind(rawValue: type), description: flow["description"] as? String,
                              loginLabel: labels["login"] as? String ?? "Library card",
                              passwordLabel: labels["password"] as? String ?? "PIN",
                              authenticate: links.filter { $0.rel == "authenticate" },
                              refresh: links.first { $0.rel == "refresh" }))
        }
        if let links = json["links"], !(links is [Any]) { throw bad("\"links\" is not a list") }
        for case let link as [String: Any] in json["links"] as? [Any] ?? [] where link["href"] as? String == nil {
            throw bad("a link has no href")
        }
        let links = OPDS2Parser.linkList(json["links"], base: url, skipped: &skipped)
            + Self.contactLinks(json["links"])
        let title = json["title"] as? String ?? ""
        let id = json["id"] as? String ?? url.absoluteString
        return AuthenticationDocument(id: id, title: title.isEmpty ? (url.host ?? "Library") : title,
                                      description: json["description"] as? String, flows: flows, links: links)
    }

    /// `mailto:` and `tel:` help links are not followed, only shown.
    private static func contactLinks(_ value: Any?) -> [CatalogLink] {
        (value as? [Any] ?? []).compactMap { item in
            guard let link = item as? [String: Any], let href = link["href"] as? String,
                  href.hasPrefix("mailto:") || href.hasPrefix("tel:") else { return nil }
            return CatalogLink(href: href, rel: link["rel"] as? String, type: link["type"] as? String)
        }
    }
}
