// What the library app's pages (web/js/pages) say themselves, of an address they cannot use, a form left empty or a
// book being opened. What a server call did comes in its answer (`message`, `said`).

/// One thing a page of the library app says.
public enum PagesNotice: String, BrowserNotice, Sendable {
    /// The title details page's address has no title id.
    case noTitleNamed
    /// The wish list's form was sent without a title.
    case wishWithoutTitle
    /// `shelf serve --open FILE`'s page: the book is being put on the shelf.
    case puttingOnShelf
    /// The book is on the shelf and opens now, in the reader or the player.
    case opening

    public static let group = "pages"

    public var sentence: String {
        switch self {
        case .noTitleNamed: return "The address names no title."
        case .wishWithoutTitle: return "Type a title or an ISBN to wish for."
        case .puttingOnShelf: return "Putting the book on your shelf…"
        case .opening: return "The book opens now."
        }
    }

    public var next: NextStep? {
        switch self {
        case .noTitleNamed: return NextStep(terminal: nil, browser: "Choose a title from the catalog.")
        default: return nil
        }
    }
}
