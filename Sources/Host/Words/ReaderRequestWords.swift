// What the browser app's reader routes (`/api/reader/...`, the book's own files) say when a request about a book
// cannot be answered: no such resource, a body that is not the place, bookmark or setting it should be, a
// bookmark that is not there. The request's general shape (a parameter missing, a body that is no JSON) and a book
// not on the shelf are `RequestProblem`'s.

/// One way a request to the reader went wrong.
public enum ReaderRequestProblem: Sendable, Equatable {
    /// The address of a book's file names no book (its key is not a library id in hex).
    case noBookAtAddress
    /// The book has no resource at `href` in its manifest.
    case notAResource(href: String)
    /// `"allowed"` (may the book's own scripts run) is not true or false.
    case scriptsAnswerNotBoolean
    /// A book's own scripts were allowed from a browser on another computer, where they cannot be kept apart.
    case scriptsOnlyHere
    /// `"locator"` is not a Readium Locator.
    case notALocator
    /// The body of a bookmark is neither a locator nor a page.
    case notABookmark
    /// `"fontScale"` is not a whole percentage in `ReaderSettings.fontScaleRange` nor "default".
    case fontScaleNotAPercentage
    /// A setting given by name (`font`, `theme`, `hyphens`) is not a word.
    case settingNotAWord(name: String)
}

extension ReaderRequestProblem: PatronOutcome {
    public var sentence: String {
        switch self {
        case .noBookAtAddress: return "No book on the shelf has this address."
        case .notAResource(let href): return "This book has no resource \(href)."
        case .scriptsAnswerNotBoolean: return "“allowed” must be true or false."
        case .scriptsOnlyHere: return "A book’s own scripts run only in a browser on the computer shelf runs on."
        case .notALocator: return "“locator” is not a Readium Locator (JSON with at least “href” and “type”)."
        case .notABookmark:
            return "A bookmark is {“book”, “locator”} with a Readium Locator, or {“book”, “page”} with a page number."
        case .fontScaleNotAPercentage:
            let range = ReaderSettings.fontScaleRange
            return "“fontScale” is a whole percentage from \(range.lowerBound) to \(range.upperBound), or “default”."
        case .settingNotAWord(let name): return "“\(name)” is a word, or “default”."
        }
    }

    public var next: NextStep? {
        switch self {
        case .noBookAtAddress, .notAResource:
            return NextStep(terminal: nil, browser: "Open the book again from My Books.")
        case .scriptsAnswerNotBoolean:
            return NextStep(terminal: nil, browser: #"Send {"book": ID, "allowed": true}."#)
        case .scriptsOnlyHere: return NextStep(terminal: nil, browser: "The book is shown without them.")
        case .notALocator, .notABookmark:
            return NextStep(
                terminal: nil,
                browser: #"Send {"book": ID, "locator": {"href", "type", "locations": {"progression"}}}."#)
        default: return nil
        }
    }
}

extension RequestProblem {
    /// A route about one book was not told which: `?book=ID`.
    public static let whichBook = RequestProblem.missingQuery(name: "book", value: "ID", question: "Which book?")
    /// The player's routes, which play audiobooks only.
    public static let whichAudiobook = RequestProblem.missingQuery(
        name: "book", value: "ID", question: "Which audiobook?")
    /// A search with no words to look for: `?q=WORDS`.
    public static let whatToSearchFor = RequestProblem.missingQuery(
        name: "q", value: "WORDS", question: "What to search for?")
}
