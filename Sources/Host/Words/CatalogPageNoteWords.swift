// What the command line says under a page of the catalog it lists: that the catalog has more past this page, and
// the option that shows it. The browser's catalog has its own Show more titles button.

/// A note under a listed catalog page.
public enum CatalogPageNote: PatronOutcome, Sendable, Equatable {
    /// The catalog has a page after this one, `page`.
    case nextPage(Int)

    public var sentence: String {
        switch self {
        case .nextPage: return "There is more on the next page."
        }
    }

    public var next: NextStep? {
        switch self {
        case .nextPage(let page): return NextStep(terminal: "`--page \(page)` shows it.", browser: nil)
        }
    }
}
