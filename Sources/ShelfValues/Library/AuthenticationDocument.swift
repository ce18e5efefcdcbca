import Foundation

/// A library's Authentication for OPDS document: who the library is and how a patron signs in.
public struct AuthenticationDocument: Sendable {
    public var id: String
    public var title: String
    public var description: String?
    public var flows: [Flow]
    public var links: [CatalogLink]

    public init(id: String, title: String, description: String?, flows: [Flow], links: [CatalogLink]) {
        self.id = id
        self.title = title
        self.description = description
        self.flows = flows
        self.links = links
    }

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

        public init(
            type: String, kind: FlowKind?, description: String?, loginLabel: String, passwordLabel: String,
            authenticate: [CatalogLink], refresh: CatalogLink?
        ) {
            self.type = type
            self.kind = kind
            self.description = description
            self.loginLabel = loginLabel
            self.passwordLabel = passwordLabel
            self.authenticate = authenticate
            self.refresh = refresh
        }
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

    public static let mediaTypes = [
        "application/opds-authentication+json", "application/vnd.opds.authentication.v1.0+json"
    ]

    public static func isAuthenticationType(_ type: String?) -> Bool {
        type.map { mediaTypes.contains(MediaTypes.base($0)) } ?? false
    }
}
