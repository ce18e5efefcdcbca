// What `shelf login` refuses when a sign-in is missing what it needs, with what to give instead.

/// A sign-in the command line cannot go on with.
public enum LoginRefusal: Sendable, Equatable {
    /// The web sign-in's address or token was not pasted.
    case noToken
    /// No card number (the library's `label` for it) on standard input or in --username.
    case noUsername(label: String)

    /// The usage error `shelf login` throws.
    public var error: ShelfError {
        switch self {
        case .noToken:
            return ShelfError(
                .usage, "no token was given",
                next: NextStep(terminal: "Paste the address you were sent to after signing in.", browser: nil))
        case .noUsername(let label):
            return ShelfError(
                .usage, "no \(label.lowercased()) given", next: NextStep(terminal: "Use --username CARD.", browser: nil)
            )
        }
    }
}
