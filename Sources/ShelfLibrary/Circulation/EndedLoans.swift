import ShelfCore
import Foundation

/// A loan the library ended (its period passed, or it was revoked) takes its file with it, as in Palace: a borrowed
/// book is readable only while it is lent (open-access books are not loans and stay). The book's row stays on the
/// shelf without a file, so its place and bookmarks are there again when it is borrowed and downloaded again.
extension Circulation {
    /// Removes the downloaded files of `before`'s loans that `after` no longer lists; the paths removed.
    func removeFilesOfEndedLoans(before: [LoanRecord], after: [LoanRecord]) -> [String] {
        let kept = Set(after.map(\.entry.id))
        var removed: [String] = []
        for loan in before where !kept.contains(loan.entry.id) {
            guard let bookID = loan.bookID else { continue }
            // A file that cannot be let go of now stays until the next sync that sees the loan gone: nothing is lost.
            guard let path = try? database.detachLoanFile(bookID: bookID) else { continue }
            // Gone already (the patron deleted it) is as good as removed.
            try? FileManager.default.removeItem(atPath: path)
            removed.append(path)
        }
        return removed
    }
}

extension LibraryDatabase {
    /// The meta key that holds when the loan `bookID` was downloaded as ended (read by the shelf's listing).
    public static func loanEndedKey(_ bookID: String) -> String { "book.loanEnded." + bookID }

    /// Forgets where a downloaded loan's file is (the row, its place and bookmarks stay); its path, or nil when it had
    /// none.
    func detachLoanFile(bookID: String) throws -> String? {
        try connection.transaction {
            let path: String? = try connection.scalar("SELECT path FROM books WHERE id = ?", [bookID])
            try connection.execute("UPDATE books SET path = NULL WHERE id = ?", [bookID])
            // Why the book has no file, for My Books (ShelfBook.loanEndedAt): its loan ended at the library.
            try connection.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [Self.loanEndedKey(bookID), String(Date().databaseMilliseconds)])
            return path
        }
    }
}
