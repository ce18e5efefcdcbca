/// Who reads the words: a person at a terminal (`shelf`) or in the browser app (`shelf serve`).
///
/// What happened is said the same way on every face; only what to do next differs, because each face offers its own
/// way to do it (a command to type, a page or a button to press). See `NextStep`, and `Words` in the host.
public enum Face: Sendable, CaseIterable {
    case terminal
    case browser
}

/// What a patron can do next, written once for both faces: a terminal names the command to type, the browser app the
/// page or the button that does it. A step with nothing to offer on a face (a setting only a command line reads)
/// says nothing there.
///
/// A value, here so that any subsystem's `ShelfError` can carry one (`ShelfError(..., next:)`); the steps outcomes
/// share are named in the host's words module (`Sources/Host/Words/Steps.swift`), so that a button renamed in the
/// app or a command renamed in the CLI changes there once.
public struct NextStep: Sendable, Equatable {
    /// The sentence for a person at a terminal: names a command (`shelf download ID`).
    public let terminal: String?
    /// The sentence for a person in the browser app: names a page or a button (“Download it from My Books.”).
    public let browser: String?

    public init(terminal: String?, browser: String?) {
        self.terminal = terminal
        self.browser = browser
    }

    /// The same sentence on both faces (nothing in it is a command or a button).
    public init(_ both: String) { self.init(terminal: both, browser: both) }

    public func said(on face: Face) -> String? {
        switch face {
        case .terminal: return terminal
        case .browser: return browser
        }
    }
}
