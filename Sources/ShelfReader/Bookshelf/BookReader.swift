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

    /// The page the patron is on, and the saved place when it is the place as it was saved (not a first open, nor a
    /// place that could not be read or found).
    /// `first`: no place was saved yet (a first open).
    func place(_ session: ReadingSession, notes: inout [String]) throws -> (page: Int, saved: Locator?, first: Bool) {
        let saved: Locator
        do {
            guard let found = try bookshelf.database.readingLocator(bookID: session.book.book.id) else {
                return (try session.startPage(), nil, true)
            }
            saved = found
        } catch let error as DatabaseError where error.kind == .damaged {
            // Said, not thrown: the book still opens, and the next page turn saves a place that can be read.
            let start = try session.startPage()
            notes.append("Your saved place could not be read (\(error.message)); showing page \(start) instead.")
            return (start, nil, false)
        }
        switch session.resolve(saved) {
        case .page(let page):
            return (page, saved, false)
        case .lost(let reason):
            let fallback = try session.pageNumber(of: saved) ?? session.startPage()
            notes.append("Your place could not be found in this file (\(reason)); showing page \(fallback) instead.")
            return (fallback, nil, false)
        }
    }

    // MARK: The place as a locator

    /// The place as the browser keeps it: the saved locator as it was saved (a screen's words, which the browser
    /// finds again at its own width), with the page it stands for; on a first open, or when the saved place is not
    /// in this file, where a reader opens the book (the page's locator). `opening`: an opening of the book, recorded
    /// as `shelf read` records one; the place itself is not written back (it would undo a place saved meanwhile).
    public func place(in session: ReadingSession, opening: Bool) throws -> ReadingPlace {
        var notes: [String] = []
        let current = try place(session, notes: &notes)
        var locator: Locator
        if let saved = current.saved, session.pageNumber(of: saved) == current.page {
            locator = saved
        } else {
            // A first open, or the saved words found on another page (another edition): that page, with the words.
            locator = session.positions[current.page - 1]
            locator.text = current.saved?.text
            if locator.text == nil, let page = try? session.page(current.page) { locator.text = page.locator.text }
        }
        if let changed = session.changedFile { notes.append(changed) }
        if opening { try bookshelf.database.markOpened(id: session.book.book.id) }
        return ReadingPlace(
            locator: locator, page: current.page, pages: session.pageCount, notes: notes, first: current.first)
    }

    /// Saves the place a front end gives as a locator (the browser's screen: its resource, how far into it the screen
    /// starts, its first words): `locate`, then `save`.
    public func savePlace(in session: ReadingSession, _ given: Locator) throws -> ReadingPlace {
        let found = try locate(in: session, given)
        if found.writable { try save(found.place, bookID: session.book.book.id) }
        return found.place
    }

    /// The place a locator stands for, to save. The page comes from the resource and the progression alone: nothing
    /// is rendered (the browser saves at every turn); `shelf read` finds the locator's words on its own pages when it
    /// opens the book. A locator outside the reading order is refused. `writable` is false while the file is another
    /// book than the one added (the note says so): saving would overwrite the patron's place.
    public func locate(in session: ReadingSession, _ given: Locator) throws -> (place: ReadingPlace, writable: Bool) {
        let book = session.book
        if let progression = given.locations.progression, !(progression.isFinite && (0...1).contains(progression)) {
            throw ShelfError(
                .usage, "a place's progression is from 0 to 1, not \(progression)", subject: book.book.title)
        }
        // The resource and the progression decide (a position sent with them may be of another count of pages);
        // the position only tells apart the spine entries of a resource listed twice.
        guard !ReadingSession.path(given.href).isEmpty, let page = session.pageNumber(of: given) else {
            throw ShelfError(
                .usage, "“\(given.href)” is not in the reading order of this book", subject: book.book.title,
                hint: "A place names one of the manifest's readingOrder hrefs.")
        }
        let position = session.positions[page - 1]
        var locator = given
        if locator.type.isEmpty { locator.type = position.type }
        locator.title = locator.title ?? position.title
        locator.locations.position = page
        locator.locations.totalProgression = position.locations.totalProgression
        let notes = session.changedFile.map { [$0] } ?? []
        let place = ReadingPlace(locator: locator, page: page, pages: session.pageCount, notes: notes)
        return (place, session.changedFile == nil)
    }

    /// Writes a place `locate` gave: one transaction, full sync.
    public func save(_ place: ReadingPlace, bookID: String) throws {
        try bookshelf.database.saveReadingPlace(
            bookID: bookID, locator: place.locator, page: place.page, pages: place.pages)
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
            onlyShown = current.saved != nil
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
