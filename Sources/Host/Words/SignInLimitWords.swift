// What the browser app says when a library signs in in a way only the command line can do yet: through the
// library's own web page, whose answer `shelf login` takes pasted back. There is no page or button for it in the
// app, so the browser's hint names the terminal's way.

/// A sign-in the browser app cannot do.
public enum SignInLimit: Sendable, Equatable {
    /// `library` signs in through its own web page at `address` (when it gives one).
    case throughWebPage(library: String, address: String?)
}

extension SignInLimit: PatronOutcome {
    public var sentence: String {
        switch self {
        case .throughWebPage(let library, _):
            return "\(library) signs in through its own web page, which the browser app cannot do yet."
        }
    }

    public var next: NextStep? {
        switch self {
        case .throughWebPage(_, let address):
            return NextStep(
                terminal: nil,
                browser: "Sign in from a terminal with shelf login" + (address.map { ", which opens \($0)." } ?? "."))
        }
    }
}
