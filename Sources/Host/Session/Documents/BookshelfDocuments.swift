internal import ShelfReader
internal import ShelfCore
import Foundation
import Readium

// The bookshelf's and the reader's --json documents (docs/json.md, "Bookshelf" and "Reading").

/// A book on the shelf and how far it has been read.
public struct ShelfBookJSON: Encodable, Sendable {
    public let id: String
    public let title: String
    public let authors: [String]
    public let format: String
    /// "ebook" or "audiobook", for a program (as a catalog entry's `formatId`).
    public let formatId: String
    public let mediaType: String
    public let path: String?
    public let storage: String
    public let sample: Bool
    public let page: Int?
    public let pages: Int?
    public let percentRead: Int
    /// An audiobook's place and length, in seconds.
    public let listened: Double?
    public let duration: Double?
    public let addedAt: String
    public let lastOpened: String?
    public let loanEnds: String?
    /// Why the book cannot be read or played (its loan ended at the library and its file was deleted), in words.
    public let unavailable: String?

    public init(_ b: ShelfBook) {
        id = b.book.id
        title = b.book.title
        authors = b.book.authors
        format = b.formatInWords
        formatId = b.format.rawValue
        mediaType = b.book.mediaType
        path = b.book.path
        storage = b.storage.rawValue
        sample = b.isSample
        page = b.progress?.page
        pages = b.progress?.pages
        percentRead = b.percentRead
        listened = b.listening.map { ($0.seconds * 1000).rounded() / 1000 }
        duration = b.listening.map { ($0.duration * 1000).rounded() / 1000 }
        addedAt = isoDate(b.book.addedAt)
        lastOpened = b.book.openedAt.map(isoDate)
        loanEnds = b.loanEndsAt.map(isoDate)
        // Borrowed and downloaded again since, it has its file: nothing to say.
        unavailable = b.book.path == nil && b.loanEntryID == nil ? b.loanEndedAt.map(LoanEndedWords.sentence) : nil
    }

    /// The array exactly as the pretty JSON encoder prints it (sorted keys, pretty, slashes unescaped, absent
    /// members left out), written by hand: the encoder took most of a second for a shelf of 10,000 books.
    public static func prettyArray(_ books: [ShelfBookJSON]) -> String {
        guard !books.isEmpty else { return "[\n\n]" }
        func text(_ s: String) -> String {
            var one = JSONWriter(capacity: s.utf8.count + 2)
            one.string(s)
            return String(decoding: one.bytes, as: UTF8.self)
        }
        // As JSONEncoder writes a Double: whole numbers without a fraction.
        func number(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
        }
        var out = "[\n"
        out.reserveCapacity(books.count * 420)
        for (i, b) in books.enumerated() {
            var members: [String] = []
            members.append("\"addedAt\" : " + text(b.addedAt))
            members.append(
                "\"authors\" : "
                    + (b.authors.isEmpty
                        ? "[\n\n    ]"
                        : "[\n" + b.authors.map { "      " + text($0) }.joined(separator: ",\n") + "\n    ]"))
            if let v = b.duration { members.append("\"duration\" : " + number(v)) }
            members.append("\"format\" : " + text(b.format))
            members.append("\"id\" : " + text(b.id))
            if let v = b.lastOpened { members.append("\"lastOpened\" : " + text(v)) }
            if let v = b.listened { members.append("\"listened\" : " + number(v)) }
            if let v = b.loanEnds { members.append("\"loanEnds\" : " + text(v)) }
            members.append("\"mediaType\" : " + text(b.mediaType))
            if let v = b.page { members.append("\"page\" : \(v)") }
            if let v = b.pages { members.append("\"pages\" : \(v)") }
            if let v = b.path { members.append("\"path\" : " + text(v)) }
            members.append("\"percentRead\" : \(b.percentRead)")
            members.append("\"sample\" : \(b.sample)")
            members.append("\"storage\" : " + text(b.storage))
            members.append("\"title\" : " + text(b.title))
            if let v = b.unavailable { members.append("\"unavailable\" : " + text(v)) }
            out += "  {\n    " + members.joined(separator: ",\n    ") + "\n  }" + (i == books.count - 1 ? "\n" : ",\n")
        }
        return out + "]"
    }
}

/// The book a page or a passage is from, briefly.
public struct BookBriefJSON: Encodable, Sendable {
    public let id: String
    public let title: String
    public let authors: [String]
    public let format: String
    public let sample: Bool
    public init(_ b: ShelfBook) {
        id = b.book.id
        title = b.book.title
        authors = b.book.authors
        format = b.formatInWords
        sample = b.isSample
    }
}

/// A page as `shelf read --json` prints it.
public struct PageJSON: Encodable, Sendable {
    public let book: BookBriefJSON
    public let page: Int
    public let pages: Int
    public let percent: Int
    public let chapter: String?
    public let status: String
    public let text: String
    public let locator: Locator
    public let notes: [String]
    public let hit: Locator?

    public init(_ result: BookReader.Result) {
        let page = result.page
        book = BookBriefJSON(result.book)
        self.page = page.number
        pages = page.pages
        percent = page.percent
        chapter = page.chapter
        status = page.status
        text = page.text
        locator = page.locator
        notes = result.notes
        hit = result.hit
    }
}

/// The reader's place as the browser's reader saves and reads it (`/api/reader/place`): a Readium locator, the page
/// it stands for as `shelf read` counts pages, and what the patron should know.
public struct PlaceJSON: Encodable, Sendable {
    public let locator: Locator
    public let page: Int
    public let pages: Int
    public let percent: Int
    public let notes: [String]
    /// True on a book's first open (no place saved yet), absent otherwise.
    public let first: Bool?

    public init(_ place: ReadingPlace) {
        locator = place.locator
        page = place.page
        pages = place.pages
        percent = place.percent
        notes = place.notes
        first = place.first ? true : nil
    }
}

/// A bookmark, with the page it stands for in the file on the shelf now.
public struct BookmarkJSON: Encodable, Sendable {
    public let id: Int64
    public let book: String
    public let locator: Locator
    public let note: String?
    public let createdAt: String
    /// The page it stands for in the file on the shelf now; absent when it cannot be found.
    public let page: Int?
    public let found: Bool
    public let problem: String?

    public init(_ b: Bookmark, resolution: ReadingSession.Resolution?) {
        id = b.id
        book = b.bookID
        locator = b.locator
        note = b.note
        createdAt = isoDate(b.createdAt)
        switch resolution {
        case .page(let p)?: page = p; found = true; problem = nil
        case .lost(let why)?: page = nil; found = false; problem = why
        case nil: page = b.locator.locations.position; found = true; problem = nil
        }
    }
}

/// A quotable passage as `shelf share --json` prints it.
public struct ShareJSON: Encodable, Sendable {
    public let book: BookBriefJSON
    public let passage: String
    public let page: Int
    public let pages: Int
    public let chapter: String?
    public let locator: Locator
    public let link: String?
    public let text: String
    public let copied: Bool
    /// What the face says once the passage is on the clipboard (`PassageCopied`): on the command line when it was
    /// copied, absent otherwise; the browser's, which copies it itself, always.
    public var said: String?

    public init(book: ShelfBook, shared: SharedPassage, copied: Bool) {
        self.book = BookBriefJSON(book)
        passage = shared.passage
        page = shared.page.number
        pages = shared.page.pages
        chapter = shared.page.chapter
        locator = shared.locator
        link = shared.link
        text = shared.text
        self.copied = copied
        said = copied ? PassageCopied(shared).words(for: .terminal).line : nil
    }
}

/// The reader settings: what applies, what is stored for the scope, and the defaults.
public struct SettingsJSON: Encodable, Sendable {
    public let book: String?
    /// What applies: the book's own values over the global ones over the defaults.
    public let effective: ReaderSettings
    /// What is stored for this scope (book or global); absent values are not set there.
    public let stored: ReaderSettings
    public let defaults: Defaults

    public struct Defaults: Encodable, Sendable {
        public let fontScaleSmallScreen: Int
        public let fontScaleLargeScreen: Int
        public let font: String
        public let theme: String
        public let hyphens: String
        /// The one rule of the settings (ReaderSettings), for a face that offers the values: the font scale's bounds
        /// and the fonts and themes there are.
        public let fontScaleMin: Int
        public let fontScaleMax: Int
        public let fonts: [String]
        public let themes: [String]
        public let hyphenations: [String]
    }

    public static let defaultsValue = Defaults(
        fontScaleSmallScreen: ReaderSettings.defaultFontScale(for: .small),
        fontScaleLargeScreen: ReaderSettings.defaultFontScale(for: .large),
        font: ReaderSettings.defaultFont, theme: ReaderSettings.defaultTheme, hyphens: ReaderSettings.defaultHyphens,
        fontScaleMin: ReaderSettings.fontScaleRange.lowerBound, fontScaleMax: ReaderSettings.fontScaleRange.upperBound,
        fonts: ReaderSettings.fonts, themes: ReaderSettings.themes, hyphenations: ReaderSettings.hyphenations)

    public init(book: String?, effective: ReaderSettings, stored: ReaderSettings) {
        self.book = book
        self.effective = effective
        self.stored = stored
        defaults = Self.defaultsValue
    }
}

/// One book's annotation sync with its library: what moved each way, or why nothing did.
public struct AnnotationSyncJSON: Encodable, Sendable {
    public let book: String
    public let title: String
    public let position: String
    public let page: Int?
    public let pages: Int?
    public let bookmarksFetched: Int
    public let bookmarksRemovedHere: Int
    public let bookmarksSent: Int
    public let bookmarksRemovedThere: Int
    public let problems: [String]
    public let error: String?

    init(_ o: AnnotationSync.Outcome) {
        book = o.bookID
        title = o.title
        position = o.position.rawValue
        page = o.page
        pages = o.pages
        bookmarksFetched = o.bookmarksFetched
        bookmarksRemovedHere = o.bookmarksRemovedHere
        bookmarksSent = o.bookmarksSent
        bookmarksRemovedThere = o.bookmarksRemovedThere
        problems = o.problems
        error = nil
    }

    public init(failed book: ShelfBook, _ error: Error) {
        self.book = book.book.id
        title = book.book.title
        position = "unchanged"
        page = book.progress?.page
        pages = book.progress?.pages
        bookmarksFetched = 0
        bookmarksRemovedHere = 0
        bookmarksSent = 0
        bookmarksRemovedThere = 0
        problems = []
        self.error = ShelfError.words(error)
    }
}

/// What `shelf add --json` prints: the books added (and whether each replaced an earlier edition), and the files that
/// were not, with the error.
public struct AddedBooksJSON: Encodable, Sendable {
    public struct Added: Encodable, Sendable {
        public let book: ShelfBookJSON
        public let replacedEdition: Bool
        public init(_ added: Bookshelf.Added) {
            book = ShelfBookJSON(added.book)
            replacedEdition = added.replacedEdition
        }
    }

    public struct Failure: Encodable, Sendable {
        public let path: String
        public let error: String
        public init(path: String, error: String) {
            self.path = path
            self.error = error
        }
    }

    public var added: [Added] = []
    public var failed: [Failure] = []

    public init() {}
}

/// A book taken off the shelf, as `shelf remove --json` prints it: the book, the file deleted (none for a linked
/// one), and whether the loan was returned first.
public struct RemovedBookJSON: Encodable, Sendable {
    public let removed: ShelfBookJSON
    public let deletedFile: String?
    public let returned: Bool

    public init(_ book: ShelfBook, _ removed: Bookshelf.Removed, returned: Bool) {
        self.removed = ShelfBookJSON(book)
        deletedFile = removed.deletedFile
        self.returned = returned
    }
}

/// A bookmark removed, as `shelf bookmark remove --json` prints it.
public struct RemovedBookmarkJSON: Encodable, Sendable {
    public let removed: BookmarkJSON

    public init(_ bookmark: Bookmark) { removed = BookmarkJSON(bookmark, resolution: nil) }
}
