// What `shelf read` on a terminal says after a key that bookmarks, removes a bookmark or searches from the page.

/// One thing the terminal reader did, in the patron's words.
public enum ReaderNotice: Sendable, Equatable {
    case bookmarkAdded(id: Int64, page: Int)
    /// The page has a bookmark already (one a page): `b` again adds none.
    case bookmarkAlreadyThere(id: Int64, page: Int)
    case bookmarkRemoved(id: Int64)
    /// No hit after the page the patron is on: the search went back to the book's first.
    case searchWrapped(query: String)
}

extension ReaderNotice: PatronOutcome {
    public var sentence: String {
        switch self {
        case .bookmarkAdded(let id, let page): return "Bookmark \(id) added on page \(page)."
        case .bookmarkAlreadyThere(let id, let page): return "Page \(page) already has bookmark \(id)."
        case .bookmarkRemoved(let id): return "Bookmark \(id) removed."
        case .searchWrapped(let query): return "No hit for “\(query)” after this page: back to the first."
        }
    }

    public var next: NextStep? {
        switch self {
        case .bookmarkAlreadyThere:
            return NextStep(terminal: "B lists the bookmarks; d there removes one.", browser: nil)
        default: return nil
        }
    }
}
