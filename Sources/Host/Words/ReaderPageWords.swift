// What the browser's reader page (web/js/reader/main.js) says after a turn, a bookmark, a setting, a link or a
// failed call; the terminal's reader says its own (`ReaderNotice`).

/// One thing the browser's reader did or could not do. Where the page has a value to add (the page counter, the
/// server's reason), it shows the notice's line and then the value.
public enum ReaderPageNotice: String, BrowserNotice, Sendable {
    /// Next was pressed on the book's last page (the counter follows).
    case lastPage
    /// Previous was pressed on the book's first page (the counter follows).
    case firstPage
    /// The screen shown was bookmarked (the counter follows).
    case bookmarkAdded
    /// The screen's bookmark, or one from the list, was removed (where it was follows).
    case bookmarkRemoved
    /// The bookmark could not be added or removed (the server's reason follows).
    case bookmarkNotChanged
    /// A bookmark of another edition was chosen: it names no place in this one.
    case bookmarkNotInEdition
    /// A link inside the book leads to a resource that is neither in the reading order nor a page to show aside.
    case linkOutsideReadingOrder
    /// The book's settings were made the ones of every book.
    case settingsEverywhere
    /// The book's own settings were dropped.
    case settingsOfEveryBook
    /// A setting could not be saved (the server's reason follows).
    case settingNotSaved
    /// The place could not be saved (the server's reason follows).
    case placeNotSaved
    /// The place was moved on by another face or window: where follows, then the question.
    case readOnElsewhere
    /// The question the patron answers with Go there or Stay here, said after where the place moved to.
    case goThereOrStay
    /// The table of contents and the page ranges could not be read (the server's reason follows).
    case contentsNotRead
    /// The book's scripts were allowed, and the page shown again with them.
    case scriptsRun
    /// The patron kept the book's scripts off, as they were.
    case scriptsStayOff
    /// The book's scripts were turned off, and the page shown again without them.
    case scriptsOff
    /// The server could not be told to allow the book's scripts (the reason follows).
    case scriptsNotAllowed
    /// The server could not be told to turn the book's scripts off (the reason follows).
    case scriptsNotTurnedOff
    /// A link led to a page of the book outside its reading order, shown aside (its title follows).
    case outsideReadingOrder
    /// Where the way back from a page shown aside is.
    case wayBackAbove
    /// The clipboard refused the passage: it follows, to copy by hand.
    case clipboardRefused
    /// Share found nothing to share (the server's reason follows).
    case nothingToShare
    /// The reader's address names no book.
    case noBookNamed
    /// The book could not be opened (the server's reason follows).
    case notOpened

    public static let group = "reader"

    public var sentence: String {
        switch self {
        case .lastPage: return "This is the last page."
        case .firstPage: return "This is the first page."
        case .bookmarkAdded: return "Bookmark added."
        case .bookmarkRemoved: return "Bookmark removed."
        case .bookmarkNotChanged: return "The bookmark could not be changed."
        case .bookmarkNotInEdition: return "This bookmark is not in this edition."
        case .linkOutsideReadingOrder:
            return "That link leads to a part of the book that is not in its reading order."
        case .settingsEverywhere: return "These settings are now the ones of every book."
        case .settingsOfEveryBook: return "This book follows the settings of every book again."
        case .settingNotSaved: return "The setting could not be saved."
        case .placeNotSaved: return "Your place could not be saved."
        case .readOnElsewhere: return "You read on elsewhere."
        case .goThereOrStay: return "Go there or stay here?"
        case .contentsNotRead: return "The table of contents could not be read."
        case .scriptsRun: return "This book's interactive content runs."
        case .scriptsStayOff: return "This book's interactive content stays off."
        case .scriptsOff: return "This book's interactive content is off."
        case .scriptsNotAllowed: return "The book's interactive content could not be allowed."
        case .scriptsNotTurnedOff: return "The book's interactive content could not be turned off."
        case .outsideReadingOrder: return "This page is outside the book's reading order."
        case .wayBackAbove: return "The way back is above the page."
        case .clipboardRefused: return "The clipboard refused the passage; here it is to copy by hand."
        case .nothingToShare: return "There is nothing to share here."
        case .noBookNamed: return "No book was named."
        case .notOpened: return "The book could not be opened."
        }
    }

    public var next: NextStep? {
        switch self {
        case .noBookNamed:
            return NextStep(terminal: nil, browser: "Open a book from the bookshelf: this page needs ?book=ID.")
        default: return nil
        }
    }
}
