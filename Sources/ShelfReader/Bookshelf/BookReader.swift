import ShelfCore
import ShelfPlugins
import ShelfValues
import Foundation
import Readium

/// Reading a book on the shelf a page at a time: where the patron was, where they move to, and saving it.
public struct BookReader {
    public let bookshelf: Bookshelf

    public init(bookshelf: Bookshelf) { self.bookshelf = bookshelf }

    public typealias Move = ReadingMove

    public typealias Result = ReadingResult

    /// Opens a session on an eBook; an audiobook is refused with the command that plays it.
    public func session(_ book: ShelfBook, width: Int) throws -> ReadingSession {
        if book.format == .audiobook { throw Self.audiobook(book) }
        let publication = try bookshelf.open(book)
        if publication.format == .audiobook { throw Self.audiobook(book) }
        let session = try ReadingSession(book: book, publication: publication, width: width)
        session.changedFile = try identityChange(book, publication)
        return session
    }

    /// Whether the book's file is still the book that was added (BookIdentity): what to say when it is not. A book
    /// added before identities were kept has its identity recorded now.
    func identityChange(_ book: ShelfBook, _ publication: Publication) throws -> String? {
        guard let path = book.book.path, let now = BookIdentity.of(publication, path: path) else { return nil }
        guard let recorded = try bookshelf.database.identity(bookID: book.book.id) else {
            try bookshelf.database.saveIdentity(now, bookID: book.book.id)
            return nil
        }
        return BookIdentity.change(of: book, from: recorded, to: now, title: publication.manifest.title)
    }

    static func audiobook(_ book: ShelfBook) -> ShelfError {
        ShelfError(
            .unavailable, "“\(book.book.title)” is an audiobook: shelf reads eBooks in the terminal",
            subject: book.book.id,
            next: NextStep(
                terminal:
                    "Listen with `shelf play \(book.book.path ?? book.book.id)`, which resumes where you stopped.",
                browser: "Listen to it instead: the player resumes where you stopped."))
    }

    /// The page the patron is on: the saved place, found again in this file, or where a reader opens the book.
    public func currentPage(_ session: ReadingSession, notes: inout [String]) throws -> Int {
        try place(session, notes: &notes).page
    }

    /// The page the patron is on, and whether it is the saved place as it was saved (not a first open, nor a place
    /// that could not be read or found).
    func place(_ session: ReadingSession, notes: inout [String]) throws -> (page: Int, isSaved: Bool) {
        let saved: Locator
        do {
            guard let found = try bookshelf.database.readingLocator(bookID: session.book.book.id) else {
                return (try session.startPage(), false)
            }
            saved = found
        } catch let error as DatabaseError where error.kind == .damaged {
            // Said, not thrown: the book still opens, and the next page turn saves a place that can be read.
            let start = try session.startPage()
            notes.append("Your saved place could not be read (\(error.message)); showing page \(start) instead.")
            return (start, false)
        }
        switch session.resolve(saved) {
        case .page(let page):
            return (page, true)
        case .lost(let reason):
            let fallback = try session.pageNumber(of: saved) ?? session.startPage()
            notes.append("Your place could not be found in this file (\(reason)); showing page \(fallback) instead.")
            return (fallback, false)
        }
    }

    /// Moves, shows and saves: the position is written (one transaction, full sync) before the page is returned.
    public func read(_ book: ShelfBook, move: Move, width: Int) throws -> Result {
        try read(in: try session(book, width: width), move: move)
    }

    /// The same in a session kept open (the terminal reader's, turning many pages).
    public func read(in session: ReadingSession, move: Move) throws -> Result {
        let book = session.book
        var notes: [String] = []
        var hit: Locator?
        let target: Int
        var onlyShown = false
        switch move {
        case .resume:
            let current = try place(session, notes: &notes)
            target = current.page
            onlyShown = current.isSaved
        case .next:
            let current = try currentPage(session, notes: &notes)
            if current >= session.pageCount { notes.append("This is the last page.") }
            target = min(current + 1, session.pageCount)
        case .previous:
            let current = try currentPage(session, notes: &notes)
            if current <= 1 { notes.append("This is the first page.") }
            target = max(current - 1, 1)
        case .goTo(let page):
            guard page >= 1, page <= session.pageCount else {
                throw ShelfError(
                    .usage, "page \(page) is not in this book: it has pages 1 to \(session.pageCount)",
                    subject: book.book.title)
            }
            target = page
        case .tableOfContents(let number):
            target = try session.tocPage(number)
        case .search(let query, let number):
            let found = try session.searchHit(query, number: number)
            hit = found.hit
            target = found.page
        case .bookmark(let id):
            guard let bookmark = try bookshelf.database.bookmark(id: id), bookmark.bookID == book.book.id else {
                throw ShelfError(
                    .noInput, "\(book.book.title) has no bookmark \(id)",
                    next: NextStep(
                        terminal: "`shelf bookmarks BOOK` lists them.", browser: "The Bookmarks list shows them."))
            }
            switch session.resolve(bookmark.locator) {
            case .page(let page): target = page
            case .lost(let reason):
                throw ShelfError(
                    .badData, "bookmark \(id) cannot be found: \(reason)", subject: book.book.title,
                    hint: "Your place was not changed.")
            }
        }
        let page = try session.page(target)
        if let changed = session.changedFile {
            // Another book, or another state of it, is in the file: saving would overwrite the patron's place.
            notes.append(changed)
        } else if onlyShown, book.progress?.page == page.number, book.progress?.pages == page.pages {
            // Shown, not moved: the place stays as saved, and only the opening is recorded. Written back, it would
            // undo a place another front end (the browser) saved since it was read here.
            try bookshelf.database.markOpened(id: book.book.id)
        } else {
            try bookshelf.database.saveReadingPlace(
                bookID: book.book.id, locator: page.locator, page: page.number, pages: page.pages)
        }
        return Result(book: book, page: page, notes: notes, hit: hit)
    }

    // MARK: Bookmarks

    /// Bookmarks the page `page`, the place `locator`, or (neither) the page the patron is on.
    public func addBookmark(
        _ book: ShelfBook, page number: Int? = nil, locator given: Locator? = nil, note: String? = nil
    ) throws
        -> (bookmark: Bookmark, page: ReadingSession.Page)
    {
        let session = try session(book, width: 72)
        if let changed = session.changedFile {
            throw ShelfError(.badData, changed, subject: book.book.path, hint: "The bookmark was not added.")
        }
        var notes: [String] = []
        var locator: Locator
        let page: ReadingSession.Page
        if let given {
            switch session.resolve(given) {
            case .page(let p): page = try session.page(p)
            case .lost(let reason):
                throw ShelfError(
                    .badData, "the locator cannot be found in this book: \(reason)", subject: book.book.title)
            }
            locator = given
            if locator.type.isEmpty { locator.type = page.locator.type }
            if locator.locations.position == nil { locator.locations.position = page.locator.locations.position }
            if locator.locations.totalProgression == nil {
                locator.locations.totalProgression = page.locator.locations.totalProgression
            }
            if locator.text?.highlight == nil { locator.text = page.locator.text }
            locator.title = locator.title ?? page.chapter
        } else {
            page = try session.page(number ?? currentPage(session, notes: &notes))
            locator = page.locator
            locator.title = page.chapter ?? locator.title
        }
        let stored = try bookshelf.database.addBookmark(Bookmark(bookID: book.book.id, locator: locator, note: note))
        return (stored, page)
    }

    public typealias ResolvedBookmark = ShelfValues.ResolvedBookmark

    /// The book's bookmarks, each found again in the file on the shelf now.
    public func bookmarks(_ book: ShelfBook) throws -> [ResolvedBookmark] {
        let marks = try bookshelf.database.bookmarks(bookID: book.book.id)
        guard !marks.isEmpty else { return [] }
        let session = try session(book, width: 72)
        return marks.map { ResolvedBookmark(bookmark: $0, resolution: session.resolve($0.locator)) }
    }
}
