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
    /// `shelf loans`, My Books: nothing on loan.
    case loans
    /// `shelf holds`, Reservations: no hold.
    case reservations
    /// `shelf browse`: a catalog page with no title, `hidden` of them hidden by the filters.
    case catalogPage(hidden: Int)
    /// `shelf catalog-search`: no result for `query` in `tab` (the browser's catalog says it as `CatalogSummary`);
    /// `everyFormat` is the same search in every format, as typed, when the tab is not All.
    case searchResults(query: String, tab: FormatTab, availableNow: Bool, everyFormat: String?)

    public var sentence: String {
        switch self {
        case .shelf: return "The shelf is empty."
        case .wishList: return "The wish list is empty."
        case .notifications(let all): return all ? "No notifications." : "No unread notifications."
        case .audiobookDownloads: return "No audiobook downloads."
        case .plugins: return "No plugins found."
        case .annotatedLoans: return "No downloaded loan from a library that keeps annotations."
        case .bookmarks(let title): return "\(quoted(DisplayText.oneLine(title))) has no bookmarks."
        case .loans: return "No loans."
        case .reservations: return "No reservations."
        case .catalogPage(let hidden):
            return hidden > 0
                ? "Nothing to show here (\(hidden) hidden by the filters)." : "This catalog page is empty."
        case .searchResults(let query, let tab, let availableNow, _):
            return CatalogSummary(query: query, count: 0, tab: tab, availableNow: availableNow).sentence
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
        case .annotatedLoans, .catalogPage: return nil
        case .loans:
            return NextStep(
                terminal: "Borrow with `shelf borrow ID`; `shelf sync` fetches loans made elsewhere.",
                browser: "Borrow a title from the catalog.")
        case .reservations:
            return NextStep(
                terminal: "A title with no free copy is reserved with `shelf reserve ID`.",
                browser: "Titles with no free copy can be reserved from their details.")
        case .searchResults(_, _, _, let everyFormat):
            return everyFormat.map {
                NextStep(terminal: "Every format: `\($0)`.", browser: "The All tab shows every format.")
            }
        case .bookmarks(let title):
            return NextStep(
                terminal: "Add one with `shelf bookmark add \"\(DisplayText.oneLine(title))\"`.",
                browser: "Bookmark page, in the reader, adds one.")
        }
    }
}
