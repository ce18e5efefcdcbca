// What shelf says where there is nothing yet to show: an invitation to the next step, not an error.

/// A place with nothing in it yet, and the step that fills it.
public enum Invitation: PatronOutcome, Sendable {
    /// No library added: the catalog, loans and holds all come from one.
    case noLibraryYet

    public var sentence: String {
        switch self {
        case .noLibraryYet: return "Welcome to shelf. Add your library to browse its catalog and borrow from it."
        }
    }

    public var next: NextStep? {
        switch self {
        case .noLibraryYet:
            return NextStep(
                terminal: "Add it with `shelf account add URL`, the address of its catalog.",
                browser: "All it takes is the address of its catalog, on the Accounts page.")
        }
    }
}
