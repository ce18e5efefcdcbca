internal import ShelfReader
import Foundation
import Readium
import ShelfValues

/// Reading a book on the shelf a page at a time, as `shelf read` and the browser's reader do: moves, the place saved
/// as it goes, bookmarks and passages to share. The reader subsystem's BookReader does the work; this holds it and
/// forwards what the front ends call.
///
/// Safe to call from several threads as its bookshelf is (the browser app reads from many requests at once): each
/// `read(_:move:width:)` opens the book afresh, and the places saved at once share one transaction of the database
/// (a group commit), each answered once it is on disk; a `ReadingSession` it opens is for one thread at a time.
public struct BookReader {
    let reader: ShelfReader.BookReader

    public init(bookshelf: Bookshelf) { reader = ShelfReader.BookReader(bookshelf: bookshelf.reader) }

    public typealias Move = ReadingMove
    public typealias Result = ReadingResult
    public typealias ResolvedBookmark = ShelfValues.ResolvedBookmark

    /// Opens a session on an eBook; an audiobook is refused with the command that plays it.
    public func session(_ book: ShelfBook, width: Int) throws -> ReadingSession {
        ReadingSession(try reader.session(book, width: width))
    }

    /// Moves, shows and saves: the position is written (one transaction, full sync) before the page is returned.
    public func read(_ book: ShelfBook, move: Move, width: Int) throws -> Result {
        try reader.read(book, move: move, width: width)
    }

    /// The same in a session kept open (the terminal reader's and the browser's, turning many pages).
    public func read(in session: ReadingSession, move: Move) throws -> Result {
        try reader.read(in: session.session, move: move)
    }

    /// The place as the browser keeps it: the saved locator, with the page it stands for (`opening`: recorded as an
    /// opening of the book).
    public func place(in session: ReadingSession, opening: Bool) throws -> ReadingPlace {
        try reader.place(in: session.session, opening: opening)
    }

    /// Saves a place given as a locator, without rendering the book as text.
    public func savePlace(in session: ReadingSession, _ locator: Locator) throws -> ReadingPlace {
        try reader.savePlace(in: session.session, locator)
    }

    /// The place a locator stands for, to `save` (`writable` false while the file is another book: the note says so).
    public func locate(in session: ReadingSession, _ locator: Locator) throws -> (place: ReadingPlace, writable: Bool) {
        try reader.locate(in: session.session, locator)
    }

    /// Writes a place `locate` gave (one transaction, full sync), with the saves other threads make meanwhile (a
    /// group commit): what a front end saving many at once calls.
    public func save(_ place: ReadingPlace, bookID: String) throws { try reader.save(place, bookID: bookID) }

    /// Bookmarks the page `page`, the place `locator`, or (neither) the page the patron is on.
    public func addBookmark(_ book: ShelfBook, page: Int? = nil, locator: Locator? = nil, note: String? = nil) throws
        -> (bookmark: Bookmark, page: ReadingPage)
    {
        try reader.addBookmark(book, page: page, locator: locator, note: note)
    }

    /// The book's bookmarks, each found again in the file on the shelf now.
    public func bookmarks(_ book: ShelfBook) throws -> [ResolvedBookmark] { try reader.bookmarks(book) }

    /// Removes bookmark `id`; whether there was one.
    @discardableResult
    public func removeBookmark(id: Int64) throws -> Bool { try reader.bookshelf.database.removeBookmark(id: id) }

    /// The passage at page `page`, at `locator`, or (neither) on the page the patron is on.
    public func share(_ book: ShelfBook, page: Int? = nil, locator: Locator? = nil) throws -> SharedPassage {
        try reader.share(book, page: page, locator: locator)
    }
}
