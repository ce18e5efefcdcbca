import Foundation

// What connecting a reading-list service did, in the patron's words: the browser app's Reading lists page, where
// Connect signs in through the service's own page and comes back (`ReadingListSignIns`).

/// A reading-list service connected, signed in to, or disconnected; `service` is its name ("Google Books").
public enum ReadingListConnectionChange: PatronOutcome, Sendable, Equatable {
    case connected(service: String, titles: Int)
    case signedIn(service: String, titles: Int)
    case waitingForSignIn(service: String)
    case signInFailed(service: String, reason: String)
    case notRead(service: String, reason: String)
    case disconnected(service: String)
    /// Disconnect of a service that was not connected.
    case notConnected(service: String)

    public var sentence: String {
        switch self {
        case .connected(let service, let titles):
            return "Connected \(service): \(Plural.count(titles, "title")) on your lists."
        case .signedIn(let service, let titles):
            return "Signed in to \(service): \(Plural.count(titles, "title")) on your lists."
        case .waitingForSignIn(let service):
            return "Waiting for the sign-in at \(service) to come back."
        case .signInFailed(let service, let reason):
            return "The sign-in at \(service) did not complete: \(clause(reason))."
        case .notRead(let service, let reason):
            return "Connected \(service), but its lists could not be read: \(clause(reason))."
        case .disconnected(let service):
            return "Disconnected \(service): its lists are no longer shown."
        case .notConnected(let service):
            return "\(service) is not connected: there was nothing to disconnect."
        }
    }

    public var next: NextStep? {
        switch self {
        case .signInFailed: return NextStep("Connect again to sign in.")
        case .notRead: return NextStep("Check the settings and connect again.")
        default: return nil
        }
    }

    /// Whether the change is a failure (shown as an error).
    public var failed: Bool {
        switch self {
        case .signInFailed, .notRead: return true
        default: return false
        }
    }
}

/// An error's words inside a sentence: without the full stop the sentence adds itself.
private func clause(_ reason: String) -> String {
    var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
    while text.hasSuffix(".") { text.removeLast() }
    return text
}
