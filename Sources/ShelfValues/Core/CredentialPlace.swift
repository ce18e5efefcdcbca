/// Where the secrets of a credential went (`CredentialStore.Place`; `SignIn.keptIn` tells a front end).
public enum CredentialPlace: Sendable, Equatable {
    case secretService
    case file

    public var words: String {
        switch self {
        case .secretService: return "the desktop's Secret Service (your keyring)"
        case .file: return "shelf's credentials file (mode 0600)"
        }
    }
}
