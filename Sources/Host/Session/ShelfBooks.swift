import Foundation

// The books on the shelf as a front end lists them, and the questions it asks about a file or a loan.

extension Bookshelf {
    /// Every book on the shelf, most recently opened first.
    public func books() throws -> [ShelfBook] { try database.shelfBooks() }

    /// The books on the shelf that are loans from a library (downloaded with `shelf download`).
    public func booksOnLoan() throws -> [ShelfBook] { try database.shelfBooks().filter { $0.loanAccountID != nil } }

    /// Whether the file at `path` is on the shelf (by the path it has there or the one it was added from); titles
    /// are not looked at.
    public func holdsFile(_ path: String) throws -> Bool {
        try !BookReference.candidates(path, in: database, byTitle: false).isEmpty
    }

    /// Removes bookmark `id`; the bookmark as it was, or nil when there is none with that number.
    public func removeBookmark(id: Int64) throws -> Bookmark? {
        guard let bookmark = try database.bookmark(id: id) else { return nil }
        try database.removeBookmark(id: id)
        return bookmark
    }
}
