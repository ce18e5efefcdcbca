import ShelfLibrary
import ShelfCore
import ShelfValues
import Foundation
import Readium

/// The bookshelf's reads and writes. Each write is one transaction (WAL, full sync): a position, a bookmark or a
/// setting is on disk when the call returns, and a crash leaves either the old value or the new one.
extension LibraryDatabase {
    // MARK: Shelf items

    /// Adds or replaces a book with how its file is kept, in one transaction.
    public func putOnShelf(_ book: BookRecord, storage: BookStorage, isSample: Bool = false, link: String? = nil) throws
    {
        try connection.transaction {
            try upsertBook(book)
            try connection.execute(
                """
                INSERT INTO shelf_items (book_id, storage, is_sample, link) VALUES (?, ?, ?, ?)
                ON CONFLICT (book_id) DO UPDATE SET storage = excluded.storage, is_sample = excluded.is_sample,
                    link = coalesce(excluded.link, shelf_items.link)
                """, [book.id, storage.rawValue, isSample, link])
        }
    }

    private static let shelfColumns = """
        b.id, b.path, b.source_uri, b.media_type, b.plugin_id, b.title, b.authors, b.added_at, b.opened_at,
        s.storage, s.is_sample, s.link, p.page, p.pages, p.updated_at AS progress_at,
        lp.seconds AS listened, lp.duration AS listening_duration, lp.updated_at AS listened_at,
        (SELECT l.ends_at FROM loans l WHERE l.book_id = b.id ORDER BY l.ends_at IS NULL, l.ends_at LIMIT 1) AS loan_ends,
        (SELECT l.account_id FROM loans l WHERE l.book_id = b.id LIMIT 1) AS loan_account,
        (SELECT l.entry_id FROM loans l WHERE l.book_id = b.id LIMIT 1) AS loan_entry,
        (SELECT m.value FROM meta m WHERE m.key = 'book.loanEnded.' || b.id) AS loan_ended
        FROM books b LEFT JOIN shelf_items s ON s.book_id = b.id LEFT JOIN reading_progress p ON p.book_id = b.id
        LEFT JOIN listening_progress lp ON lp.book_id = b.id
        """

    /// Every book on the shelf, most recently opened first, then by title.
    public func shelfBooks() throws -> [ShelfBook] {
        try connection.query(
            "SELECT \(Self.shelfColumns) ORDER BY b.opened_at IS NULL, b.opened_at DESC, b.title COLLATE NOCASE, b.id"
        )
        .map(decodeShelfBook)
    }

    public func shelfBook(id: String) throws -> ShelfBook? {
        try connection.query("SELECT \(Self.shelfColumns) WHERE b.id = ?", [id]).first.map(decodeShelfBook)
    }

    /// Books whose file is at `path` (as stored).
    public func shelfBooks(path: String) throws -> [ShelfBook] {
        try connection.query("SELECT \(Self.shelfColumns) WHERE b.path = ?", [path]).map(decodeShelfBook)
    }

    /// Books whose title contains `text`, ignoring case (ASCII) — the candidates for a BOOK argument.
    public func shelfBooks(titleContaining text: String) throws -> [ShelfBook] {
        let pattern =
            "%"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        return try connection.query(
            "SELECT \(Self.shelfColumns) WHERE b.title LIKE ? ESCAPE '\\' ORDER BY b.title COLLATE NOCASE, b.id",
            [pattern]
        ).map(decodeShelfBook)
    }

    /// Removes the book with its position, progress, bookmarks and own settings, in one transaction.
    @discardableResult
    public func removeFromShelf(id: String) throws -> Bool {
        try connection.transaction {
            try connection.execute("DELETE FROM reader_settings WHERE scope = ?", [id])
            try connection.execute("DELETE FROM meta WHERE key = ?", ["warned:" + id])
            try connection.execute("UPDATE loans SET book_id = NULL WHERE book_id = ?", [id])
            return try deleteBook(id: id)
        }
    }

    private func decodeShelfBook(_ row: SQLiteRow) throws -> ShelfBook {
        let authorsJSON: String = try row.get("authors")
        let authors: [String]
        // The fast reader first; what it does not take is read by JSONSerialization, and a column that is no list of
        // names there either is damaged, as `decodeBook` says, never a book without authors.
        if case .array(let items)? = try? JSONReader.parse(authorsJSON), items.allSatisfy({ $0.string != nil }) {
            authors = items.compactMap(\.string)
        } else if let names = (try? JSONSerialization.jsonObject(with: Data(authorsJSON.utf8))) as? [String] {
            // else damaged
            authors = names
        } else {
            throw DatabaseError(
                kind: .damaged, path: path,
                message: "the library database at \(path) holds authors that are not a list of names "
                    + "(\(authorsJSON)) for the book \(try row.get("id", as: String.self))")
        }
        let openedAt: Int64? = try row.get("opened_at")
        let book = BookRecord(
            id: try row.get("id"), path: try row.get("path"), sourceURI: try row.get("source_uri"),
            mediaType: try row.get("media_type"), pluginID: try row.get("plugin_id"),
            title: try row.get("title"), authors: authors,
            addedAt: Date(databaseMilliseconds: try row.get("added_at")),
            openedAt: openedAt.map(Date.init(databaseMilliseconds:)))
        let storage: String? = try row.get("storage")
        let page: Int? = try row.get("page")
        let pages: Int? = try row.get("pages")
        let progressAt: Int64? = try row.get("progress_at")
        var progress: ReadingProgress?
        if let page, let pages, let progressAt {
            progress = ReadingProgress(
                bookID: book.id, page: page, pages: pages, updatedAt: Date(databaseMilliseconds: progressAt))
        }
        let listened: Double? = try row.get("listened")
        let duration: Double? = try row.get("listening_duration")
        let listenedAt: Int64? = try row.get("listened_at")
        var listening: ListeningProgress?
        if let listened, let duration, let listenedAt {
            listening = ListeningProgress(
                seconds: listened, duration: duration, updatedAt: Date(databaseMilliseconds: listenedAt))
        }
        let loanEnds: Int64? = try row.get("loan_ends")
        let isSample: Bool? = try row.get("is_sample")
        return ShelfBook(
            book: book, storage: storage.flatMap(BookStorage.init(rawValue:)) ?? .download,
            isSample: isSample ?? false, link: try row.get("link"), progress: progress, listening: listening,
            loanEndsAt: loanEnds.map(Date.init(databaseMilliseconds:)),
            loanAccountID: try row.get("loan_account"), loanEntryID: try row.get("loan_entry"),
            loanEndedAt: (try row.get("loan_ended") as String?).flatMap { Int64($0) }.map(
                Date.init(databaseMilliseconds:)))
    }

    // MARK: Reading position

    /// Saves where the patron is — the locator, the page counter and when the book was opened — in one transaction,
    /// so that a crash keeps either the previous place or the new one, never half of each; on disk (full sync) when
    /// the call returns. Saves from several threads at once share a transaction (`places`, a group commit): a save
    /// waits for the one being written, then goes with every other save that arrived meanwhile, the newest of a
    /// book kept.
    public func saveReadingPlace(bookID: String, locator: Locator, page: Int, pages: Int, at date: Date = Date()) throws
    {
        let json = locator.jsonString()
        try places.write(key: bookID) { [self] in
            try savePosition(ReadingPosition(bookID: bookID, locator: json, updatedAt: date))
            try connection.execute(
                """
                INSERT INTO reading_progress (book_id, page, pages, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (book_id) DO UPDATE SET page = excluded.page, pages = excluded.pages, updated_at = excluded.updated_at
                """, [bookID, page, pages, date.databaseMilliseconds])
            try connection.execute("UPDATE books SET opened_at = ? WHERE id = ?", [date.databaseMilliseconds, bookID])
        }
    }

    /// Saves where the listener is in an audiobook — the locator, the seconds of its length heard, and when it was
    /// opened — in one transaction, as `saveReadingPlace` does for pages, and through the same group commit under
    /// the same key: a book read and listened to at once (its place is shared) keeps the newest save, never an older
    /// one committed after it. Without a length (parts not measured yet) the progress is left as it was: a
    /// percentage of a wrong length would be said as if true.
    public func saveListeningPlace(
        bookID: String, locator: String, seconds: Double, duration: Double?, at date: Date = Date()
    ) throws {
        try places.write(key: bookID) { [self] in
            try savePosition(ReadingPosition(bookID: bookID, locator: locator, updatedAt: date))
            if let duration {
                try connection.execute(
                    """
                    INSERT INTO listening_progress (book_id, seconds, duration, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (book_id) DO UPDATE SET seconds = excluded.seconds, duration = excluded.duration, updated_at = excluded.updated_at
                    """, [bookID, max(0, seconds), max(0, duration), date.databaseMilliseconds])
            }
            try connection.execute("UPDATE books SET opened_at = ? WHERE id = ?", [date.databaseMilliseconds, bookID])
        }
    }

    // MARK: Identities

    public func saveIdentity(_ identity: BookIdentity, bookID: String) throws {
        try connection.execute(
            """
            INSERT INTO book_identities (book_id, identifier, fingerprint) VALUES (?, ?, ?)
            ON CONFLICT (book_id) DO UPDATE SET identifier = excluded.identifier, fingerprint = excluded.fingerprint
            """, [bookID, identity.identifier, identity.fingerprint])
    }

    public func identity(bookID: String) throws -> BookIdentity? {
        try connection.query("SELECT identifier, fingerprint FROM book_identities WHERE book_id = ?", [bookID]).first
            .map {
                BookIdentity(identifier: try $0.get("identifier"), fingerprint: try $0.get("fingerprint"))
            }
    }

    public func readingLocator(bookID: String) throws -> Locator? {
        guard let saved = try position(bookID: bookID) else { return nil }
        // A place that does not parse is damaged, not absent: a reader opening at the start must say why.
        do {
            return try Locator.parse(saved.locator)
        } catch {
            throw DatabaseError(
                kind: .damaged, path: path,
                message:
                    "the saved place of book \(bookID) in the library database at \(path) cannot be read (\(error))")
        }
    }

    // MARK: Bookmarks

    /// Adds a bookmark and returns it with its id.
    @discardableResult
    public func addBookmark(_ bookmark: Bookmark) throws -> Bookmark {
        try connection.transaction {
            try connection.execute(
                "INSERT INTO bookmarks (book_id, locator, note, created_at) VALUES (?, ?, ?, ?)",
                [
                    bookmark.bookID, bookmark.locator.jsonString(), bookmark.note,
                    bookmark.createdAt.databaseMilliseconds
                ])
            var stored = bookmark
            stored.id = try connection.scalar("SELECT last_insert_rowid()", as: Int64.self) ?? 0
            return stored
        }
    }

    public func bookmarks(bookID: String) throws -> [Bookmark] {
        try connection.query(
            "SELECT id, book_id, locator, note, created_at FROM bookmarks WHERE book_id = ? ORDER BY id", [bookID]
        )
        .compactMap(decodeBookmark)
    }

    public func bookmark(id: Int64) throws -> Bookmark? {
        try connection.query("SELECT id, book_id, locator, note, created_at FROM bookmarks WHERE id = ?", [id])
            .first.flatMap(decodeBookmark)
    }

    @discardableResult
    public func removeBookmark(id: Int64) throws -> Bool {
        try connection.transaction {
            try connection.execute("DELETE FROM bookmarks WHERE id = ?", [id])
            return connection.changes > 0
        }
    }

    private func decodeBookmark(_ row: SQLiteRow) throws -> Bookmark? {
        // A bookmark whose place does not parse is left out, so that the book's other bookmarks still list and open.
        guard let locator = try? Locator.parse(try row.get("locator")) else { return nil }
        return Bookmark(
            id: try row.get("id"), bookID: try row.get("book_id"), locator: locator, note: try row.get("note"),
            createdAt: Date(databaseMilliseconds: try row.get("created_at")))
    }

    // MARK: Reader settings

    /// The settings stored for a book (`bookID`), or the global ones (nil). Unset values are nil.
    public func readerSettings(bookID: String?) throws -> ReaderSettings {
        guard
            let row = try connection.query(
                "SELECT font_scale, font, theme, hyphens FROM reader_settings WHERE scope = ?",
                [bookID ?? ReaderSettings.globalScope]
            ).first
        else { return ReaderSettings() }
        return ReaderSettings(
            fontScale: try row.get("font_scale"), font: try row.get("font"), theme: try row.get("theme"),
            hyphens: try row.get("hyphens"))
    }

    /// Changes the values given (non-nil) in `changes`, keeping the others; `reset` clears the scope first.
    @discardableResult
    public func updateReaderSettings(bookID: String?, _ changes: ReaderSettings, reset: Bool = false) throws
        -> ReaderSettings
    {
        let changes = try changes.validated()
        return try connection.transaction {
            let scope = bookID ?? ReaderSettings.globalScope
            let merged = reset ? changes : changes.over(try readerSettings(bookID: bookID))
            if merged.isEmpty {
                try connection.execute("DELETE FROM reader_settings WHERE scope = ?", [scope])
            } else {
                try connection.execute(
                    """
                    INSERT INTO reader_settings (scope, font_scale, font, theme, hyphens, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (scope) DO UPDATE SET font_scale = excluded.font_scale, font = excluded.font,
                        theme = excluded.theme, hyphens = excluded.hyphens, updated_at = excluded.updated_at
                    """,
                    [scope, merged.fontScale, merged.font, merged.theme, merged.hyphens, Date().databaseMilliseconds])
            }
            return merged
        }
    }

    /// What applies to a book: its own settings over the global ones (not yet filled with defaults).
    public func applicableReaderSettings(bookID: String?) throws -> ReaderSettings {
        let global = try readerSettings(bookID: nil)
        guard let bookID else { return global }
        return try readerSettings(bookID: bookID).over(global)
    }
}
