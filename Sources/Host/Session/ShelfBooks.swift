internal import ShelfReader
import Foundation

// The books on the shelf as a front end lists them, and the questions it asks about a file or a loan.

extension Bookshelf {
    /// Every book on the shelf, most recently opened first.
    public func books() throws -> [ShelfBook] { try database.shelfBooks() }

    /// The books on the shelf that are loans from a library (downloaded with `shelf download`).
    public func booksOnLoan() throws -> [ShelfBook] { try database.shelfBooks().filter { $0.loanAccountID != nil } }

    /// The book with library id `id`, or nil when none on the shelf has it (ids only: no path or title is tried).
    public func book(id: String) throws -> ShelfBook? { try database.shelfBook(id: id) }

    /// The path of the book's file, without opening it; a book with none here yet (a loan not downloaded) is refused
    /// as `open` refuses it, saying how to get it.
    public func file(of book: ShelfBook) throws -> String { try ShelfReader.Bookshelf.file(of: book) }

    /// Whether the file at `path` is on the shelf (by the path it has there or the one it was added from); titles
    /// are not looked at.
    public func holdsFile(_ path: String) throws -> Bool { try !books(onFile: path).isEmpty }

    /// The books the file at `path` is on the shelf as (by the path it has there or the one it was added from);
    /// titles are not looked at.
    public func books(onFile path: String) throws -> [ShelfBook] {
        try BookReference.candidates(path, in: database, byTitle: false)
    }

    /// The book the file at `path` is on the shelf as, put there first as `shelf add FILE` does when it is not
    /// (or when it names several books, which only a part of a title can).
    public func shelved(file path: String) throws -> ShelfBook {
        let found = try books(onFile: path)
        return found.count == 1 ? found[0] : try add(path: path).book
    }

    /// A value that stays the same while the shelf is unchanged, for a front end that keeps what it last answered:
    /// `PRAGMA data_version` moves when another connection commits (the command line, the library session, a
    /// listening session) and `total_changes()` counts this connection's own changes. Read it before the shelf,
    /// so a change made meanwhile only costs the next answer a miss.
    public func changeStamp() throws -> ShelfChangeStamp {
        ShelfChangeStamp(
            others: try database.connection.scalar("PRAGMA data_version") ?? 0,
            own: try database.connection.scalar("SELECT total_changes()") ?? 0)
    }

    /// Removes bookmark `id`; the bookmark as it was, or nil when there is none with that number.
    public func removeBookmark(id: Int64) throws -> Bookmark? {
        guard let bookmark = try database.bookmark(id: id) else { return nil }
        try database.removeBookmark(id: id)
        return bookmark
    }
}

/// See `Bookshelf.changeStamp()`: equal stamps, an unchanged shelf.
public struct ShelfChangeStamp: Equatable, Sendable {
    let others: Int64
    let own: Int64
}
