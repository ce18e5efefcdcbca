// What a listing says when it has nothing to list, and the step that would fill it. A library not yet added is
// `Invitation.noLibraryYet`, which the browser says too.

/// A listing with nothing in it.
public enum EmptyListing: PatronOutcome, Sendable, Equatable {
    /// `shelf list`: no book on the shelf.
    case shelf
    /// `shelf wishlist`: no wish.
    case wishList
    /// `shelf notifications`: none at all (`all`), or none unread.
    case notifications(all: Bool)
    /// `shelf downloads`: no audiobook fetched from a manifest's address.
    case audiobookDownloads
    /// `shelf plugins`: none found on the search path.
    case plugins
    /// `shelf bookmarks BOOK`: the book (`title`) has none.
    case bookmarks(title: String)
    /// `shelf annotations`: no downloaded loan from a library with an annotation service.
    case annotatedLoans

    public var sentence: String {
        switch self {
        case .shelf: return "The shelf is empty."
        case .wishList: return "The wish list is empty."
        case .notifications(let all): return all ? "No notifications." : "No unread notifications."
        case .audiobookDownloads: return "No audiobook downloads."
        case .plugins: return "No plugins found."
        case .annotatedLoans: return "No downloaded loan from a library that keeps annotations."
        case .bookmarks(let title): return "\(quoted(DisplayText.oneLine(title))) has no bookmarks."
        }
    }

    public var next: NextStep? {
        switch self {
        case .shelf:
            return NextStep(
                terminal: "Add a book with `shelf add FILE`, or download one from your library (`shelf download ID`).",
                browser: "Get a book from your library's catalog, or open one on this computer.")
        case .wishList:
            return NextStep(
                terminal:
                    "Wish for a title with `shelf wish ISBN|TITLE`, or pull a to-read shelf (`shelf lists pull`).",
                browser: "Add a title from its details, or connect a reading list with a to-read shelf.")
        case .notifications(let all):
            return all
                ? NextStep(
                    terminal: "`shelf sync` and `shelf watch` tell you when a hold is ready or a loan is ending.",
                    browser: "You are told here when a hold is ready or a loan is ending.")
                : NextStep(terminal: "`shelf notifications --all` lists past ones.", browser: nil)
        case .plugins:
            return NextStep(terminal: "`shelf help plugins` says where shelf looks.", browser: nil)
        case .audiobookDownloads:
            return NextStep(terminal: "Fetch one with `shelf fetch URL`, the address of its manifest.", browser: nil)
        case .annotatedLoans: return nil
        case .bookmarks(let title):
            return NextStep(
                terminal: "Add one with `shelf bookmark add \"\(DisplayText.oneLine(title))\"`.",
                browser: "Bookmark page, in the reader, adds one.")
        }
    }
}
