// What the browser app asks before an action the patron cannot take back from shelf (a return): the question, and
// what follows from saying yes.

/// A question a button asks before it acts.
public enum CirculationQuestion: PatronOutcome, Sendable {
    /// Before a loan goes back to the library.
    case returnLoan(title: String)

    public var sentence: String {
        switch self {
        case .returnLoan(let title): return "Return \(quoted(title)) to the library now?"
        }
    }

    public var next: NextStep? {
        switch self {
        case .returnLoan:
            return NextStep("Once it is back, you can borrow it again only when a copy is free.")
        }
    }
}
