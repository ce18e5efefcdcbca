// What the browser app says while the server cannot be reached, and of a refusal that came without words.

/// The connection between the browser and `shelf serve`.
public enum ConnectionNotice: String, BrowserNotice, Sendable {
    /// The server cannot be reached: the page waits and tries again (the banner, a failed call).
    case lost
    /// A button pressed while the server cannot be reached: it is sent again when it is back.
    case buttonWaits
    /// The server refused a call and its answer said nothing in words (no problem document).
    case refusedWithoutWords

    public static let group = "connection"

    public var sentence: String {
        switch self {
        case .lost, .buttonWaits: return "The connection to shelf is lost."
        case .refusedWithoutWords: return "The server refused this without saying why."
        }
    }

    public var next: NextStep? {
        switch self {
        case .lost: return NextStep(terminal: nil, browser: "The page tries again when the connection is back.")
        case .buttonWaits:
            return NextStep(terminal: nil, browser: "The button waits and tries again when the connection is back.")
        case .refusedWithoutWords:
            return NextStep(
                terminal: nil, browser: "Try again; if it keeps happening, the log of shelf serve says more.")
        }
    }
}
