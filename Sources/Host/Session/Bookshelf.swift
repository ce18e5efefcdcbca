internal import ShelfReader
internal import ShelfLibrary
import Foundation
import Readium
import ShelfValues

/// The patron's bookshelf as a front end sees it: books added from files or downloaded from a library, found by the
/// name a patron gives, added and removed (the books, settings and bookmarks it lists and changes are in
/// ShelfBooks.swift and ReaderSettingsChange.swift). The reader subsystem's bookshelf does the work; this holds it and
/// forwards what the front ends call, so that a publication (what `open` hands out) stays behind the facade.
///
/// Safe to call from several threads at once (the browser app shares one across its requests): it holds only
/// constants, every read and write of the shelf goes through the library database, which serialises its calls under
/// its lock, and the router it opens books with is the Shelf's, made once under the Shelf's lock.
public final class Bookshelf {
    let reader: ShelfReader.Bookshelf

    init(_ reader: ShelfReader.Bookshelf) { self.reader = reader }

    /// The library database the bookshelf keeps its books in, for the host's own sessions.
    var database: LibraryDatabase { reader.database }

    public typealias Added = AddedBook
    public typealias Removed = RemovedBook

    /// The book `text` names (BookReference): at once for reading; for a change, exactly or once `confirm` agrees.
    public func find(_ text: String, for purpose: BookPurpose = .read, confirm: ((ShelfBook) -> Bool)? = nil) throws
        -> ShelfBook
    {
        try reader.find(text, for: purpose, confirm: confirm)
    }

    /// Puts a file on the shelf (copied, or with `link` kept where it is); a book with the same identifier replaces
    /// the earlier edition. `id` gives the book its library id instead of the publication's (the tests' corpus).
    public func add(path: String, link: Bool = false, id: String? = nil) throws -> Added {
        try reader.add(path: path, link: link, id: id)
    }

    /// Takes the book off the shelf with its position and bookmarks; deletes shelf's own copy of the file.
    public func remove(_ book: ShelfBook) throws -> Removed { try reader.remove(book) }
}
