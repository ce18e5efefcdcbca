import ShelfCore
import ShelfValues
import Foundation

/// The patron's library: books, where they are in each, and small facts about the database itself.
///
/// Every write is one `BEGIN IMMEDIATE` transaction on a WAL database with full sync, so a saved position is on
/// disk when the call returns, and two shelf processes may write at once.
public final class LibraryDatabase: Sendable {
    /// The schema version this build writes (the number of migration steps it knows).
    public static var schemaVersion: Int { LibrarySchema.migrations.count }

    public let connection: SQLiteConnection
    public var path: String { connection.path }
    /// The places saved from many threads at once (the browser's page turns), committed together: one sync for
    /// all the saves that arrive while one is being written (`saveReadingPlace`).
    public let places: GroupCommit

    /// Opens (or creates) the library database at `path` and brings its schema up to date.
    public init(path: String, busyTimeout: TimeInterval = 5) throws {
        connection = try SQLiteConnection(
            path: path, options: .init(busyTimeout: busyTimeout, label: "library database"))
        places = GroupCommit(connection)
        try SchemaMigrator.migrate(connection, steps: LibrarySchema.migrations)
    }

    /// Opens the library database in shelf's data folder.
    public convenience init(directories: ShelfDirectories) throws {
        try self.init(path: directories.databaseFile.path)
    }

    public func close() { connection.close() }

    // MARK: Books

    /// Adds the book, or updates every field of the book with the same id except when it was added.
    ///
    /// An upsert rather than INSERT OR REPLACE: a replace deletes the row first, which would cascade to the
    /// book's position.
    public func upsertBook(_ book: BookRecord) throws {
        let authors = try Self.encodeAuthors(book.authors)
        try connection.transaction {
            try connection.execute(
                """
                INSERT INTO books (id, path, source_uri, media_type, plugin_id, title, authors, added_at, opened_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    path = excluded.path, source_uri = excluded.source_uri, media_type = excluded.media_type,
                    plugin_id = excluded.plugin_id, title = excluded.title, authors = excluded.authors,
                    opened_at = excluded.opened_at
                """,
                [
                    book.id, book.path, book.sourceURI, book.mediaType, book.pluginID, book.title, authors,
                    book.addedAt.databaseMilliseconds, book.openedAt?.databaseMilliseconds
                ])
        }
    }

    public func book(id: String) throws -> BookRecord? {
        try connection.query("SELECT \(Self.bookColumns) FROM books WHERE id = ?", [id]).first.map(decodeBook)
    }

    /// Every book, by title (case-insensitive), then id so that the order is stable.
    public func books() throws -> [BookRecord] {
        try connection.query("SELECT \(Self.bookColumns) FROM books ORDER BY title COLLATE NOCASE, id")
            .map(decodeBook)
    }

    /// Records that the book was opened now (or at `date`); false when there is no such book.
    @discardableResult
    public func markOpened(id: String, at date: Date = Date()) throws -> Bool {
        try connection.transaction {
            try connection.execute("UPDATE books SET opened_at = ? WHERE id = ?", [date.databaseMilliseconds, id])
            return connection.changes > 0
        }
    }

    /// Removes the book and, with it, its position. False when there was no such book.
    @discardableResult
    public func deleteBook(id: String) throws -> Bool {
        try connection.transaction {
            try connection.execute("DELETE FROM books WHERE id = ?", [id])
            return connection.changes > 0
        }
    }

    // MARK: Positions

    /// Saves where the patron is in a book, replacing the previous position. The book must be in the library
    /// (a `.constraint` error otherwise) and `locator` must be JSON.
    public func savePosition(_ position: ReadingPosition) throws {
        try connection.transaction {
            try connection.execute(
                """
                INSERT INTO positions (book_id, locator, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (book_id) DO UPDATE SET locator = excluded.locator, updated_at = excluded.updated_at
                """, [position.bookID, position.locator, position.updatedAt.databaseMilliseconds])
        }
    }

    public func position(bookID: String) throws -> ReadingPosition? {
        guard
            let row = try connection.query(
                "SELECT book_id, locator, updated_at FROM positions WHERE book_id = ?", [bookID]
            ).first
        else { return nil }
        return ReadingPosition(
            bookID: try row.get("book_id"), locator: try row.get("locator"),
            updatedAt: Date(databaseMilliseconds: try row.get("updated_at")))
    }

    // MARK: Meta

    public func setMeta(_ key: String, _ value: String?) throws {
        try connection.transaction {
            try connection.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [key, value])
        }
    }

    public func meta(_ key: String) throws -> String? {
        try connection.query("SELECT value FROM meta WHERE key = ?", [key]).first?.get(0)
    }

    // MARK: Encoding

    private static let bookColumns =
        "id, path, source_uri, media_type, plugin_id, title, authors, added_at, opened_at"

    private func decodeBook(_ row: SQLiteRow) throws -> BookRecord {
        let authorsJSON: String = try row.get("authors")
        guard let authors = try? JSONDecoder().decode([String].self, from: Data(authorsJSON.utf8)) else {
            throw DatabaseError(
                kind: .damaged, path: path,
                message: "the library database at \(path) holds authors that are not a list of names "
                    + "(\(authorsJSON)) for the book \(try row.get("id", as: String.self))")
        }
        let openedAt: Int64? = try row.get("opened_at")
        return BookRecord(
            id: try row.get("id"), path: try row.get("path"), sourceURI: try row.get("source_uri"),
            mediaType: try row.get("media_type"), pluginID: try row.get("plugin_id"),
            title: try row.get("title"), authors: authors,
            addedAt: Date(databaseMilliseconds: try row.get("added_at")),
            openedAt: openedAt.map(Date.init(databaseMilliseconds:)))
    }

    private static func encodeAuthors(_ authors: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(authors), as: UTF8.self)
    }
}
