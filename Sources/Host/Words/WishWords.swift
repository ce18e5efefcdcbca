// What a change to the wish list did, in the patron's words: the browser app's "Add to wish list" and "Remove from
// wish list" on a title's details and on the Reading lists page.

/// A wish added or taken off the wish list.
public enum WishListChange: PatronOutcome, Sendable {
    case added(title: String)
    case removed(title: String)

    public var sentence: String {
        switch self {
        case .added(let title): return "Added \(quoted(title)) to your wish list."
        case .removed(let title): return "Removed \(quoted(title)) from your wish list."
        }
    }

    public var next: NextStep? {
        switch self {
        case .added: return NextStep("A notification tells you when it can be borrowed.")
        case .removed: return nil
        }
    }
}
