/// What a patron can do next, written once for both faces: a terminal names the command to type, the browser app the
/// page or the button that does it. A step with nothing to offer on a face (a setting only a command line reads)
/// says nothing there.
///
/// The steps outcomes share are named here (`download(_:)`, `reserve(_:)`, ...), so that a button renamed in the app
/// or a command renamed in the CLI changes here once.
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

extension NextStep {
    /// A loan or an open-access title is the patron's to fetch.
    public static func download(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "Download it with `shelf download \(entry.id)`.", browser: "Download it from My Books.")
    }

    /// A copy is free: borrow it.
    public static func borrow(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "Borrow it with `shelf borrow \(entry.id)`.", browser: "Get it instead.")
    }

    /// The patron's hold is ready yet the library lent nothing: ask again.
    public static func borrowAgain(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "Try again: `shelf borrow \(entry.id)`.", browser: "Your hold is kept: try Get again.")
    }

    /// No copy is free: join the waiting list.
    public static func reserve(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "To join the waiting list: `shelf reserve \(entry.id)`.", browser: "You can reserve it.")
    }
}
