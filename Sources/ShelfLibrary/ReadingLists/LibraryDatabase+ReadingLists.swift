import ShelfValues
import ShelfCore
import ConnectorShapes
import ShelfPlugins
import Foundation

public struct QueuedPush: Sendable {
    public var service: String
    public var key: String
    public var entry: ReadingListEntry
    public var bookID: String?
    public var queuedAt: Date
    public var pushedAt: Date?
    public var outcome: String?
    public var message: String?
}

extension LibraryDatabase {
    // MARK: Services

    public func saveService(_ s: ConnectedService) throws {
        try connection.execute(
            """
            INSERT INTO reading_list_services (service, plugin_id, settings, connected_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(service) DO UPDATE SET plugin_id = excluded.plugin_id, settings = excluded.settings,
                connected_at = excluded.connected_at
            """, [s.service, s.pluginID, ReadingListJSON.string(s.settings), s.connectedAt.databaseMilliseconds])
    }

    public func services() throws -> [ConnectedService] {
        try connection.query("SELECT * FROM reading_list_services ORDER BY service").map { row in
            let service: String = try row.get("service")
            let settings: [String: String]
            do {
                settings = try JSONDecoder().decode(
                    [String: String].self, from: Data((try row.get("settings") as String).utf8))
            } catch {
                // The patron's choices for the service: damaged, not empty (a connector run without them would
                // act on defaults the patron did not choose).
                throw DatabaseError(
                    kind: .damaged, path: path,
                    message:
                        "the library database at \(path) holds settings of \(service) that cannot be read (\(error))")
            }
            return ConnectedService(
                service: service, pluginID: try row.get("plugin_id"), settings: settings,
                connectedAt: Date(databaseMilliseconds: try row.get("connected_at")),
                pulledAt: (try row.get("pulled_at") as Int64?).map(Date.init(databaseMilliseconds:)),
                pullError: try row.get("pull_error"))
        }
    }

    public func deleteService(_ service: String) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM reading_list_services WHERE service = ?", [service])
            try connection.execute("DELETE FROM reading_list_entries WHERE service = ?", [service])
        }
    }

    public func setPullResult(service: String, error: String?, at date: Date = Date()) throws {
        if let error {
            try connection.execute(
                "UPDATE reading_list_services SET pull_error = ? WHERE service = ?", [error, service])
        } else {
            try connection.execute(
                "UPDATE reading_list_services SET pull_error = NULL, pulled_at = ? WHERE service = ?",
                [date.databaseMilliseconds, service])
        }
    }

    // MARK: Entries

    /// Replaces what a service's reading list holds, in one transaction (a failed pull changes nothing).
    public func replaceEntries(service: String, _ entries: [ReadingListEntry], at date: Date = Date()) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM reading_list_entries WHERE service = ?", [service])
            let statement = try connection.prepare(
                """
                INSERT OR REPLACE INTO reading_list_entries (service, entry_key, shelf, title, isbn, entry, pulled_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            let when = date.databaseMilliseconds
            for e in entries {
                try statement.run([
                    service, e.key(service: service), e.shelf, e.title, e.isbn, ReadingListJSON.string(e), when
                ])
            }
        }
    }

    public func readingListEntries(service: String? = nil, shelf: String? = nil) throws -> [StoredReadingListEntry] {
        var sql = "SELECT service, entry FROM reading_list_entries WHERE 1 = 1"
        var parameters: [any SQLiteValueConvertible] = []
        if let service { sql += " AND service = ?"; parameters.append(service) }
        if let shelf { sql += " AND shelf = ?"; parameters.append(shelf) }
        sql += " ORDER BY service, shelf, title COLLATE NOCASE"
        return try connection.query(sql, parameters).compactMap { row in
            // A pulled entry is the service's copy, pulled again at each `shelf lists pull`: one that cannot be read is left out.
            guard
                let entry = try? JSONDecoder().decode(
                    ReadingListEntry.self, from: Data((try row.get("entry") as String).utf8))
            else { return nil }
            return StoredReadingListEntry(service: try row.get("service"), entry: entry)
        }
    }

    // MARK: Pushes

    /// Queues a push; a push already queued (or done) for the same book and shelf is left as it is.
    @discardableResult
    public func queuePush(service: String, entry: ReadingListEntry, bookID: String?, at date: Date = Date()) throws
        -> Bool
    {
        let key = entry.key(service: service) + "|" + entry.shelf
        let before =
            try connection.scalar(
                "SELECT COUNT(*) FROM reading_list_pushes WHERE service = ? AND push_key = ?", [service, key],
                as: Int.self) ?? 0
        try connection.execute(
            """
            INSERT OR IGNORE INTO reading_list_pushes (service, push_key, shelf, book_id, entry, queued_at) VALUES (?, ?, ?, ?, ?, ?)
            """, [service, key, entry.shelf, bookID, ReadingListJSON.string(entry), date.databaseMilliseconds])
        return before == 0
    }

    public func pushes(service: String? = nil, pendingOnly: Bool = false) throws -> [QueuedPush] {
        var sql = "SELECT * FROM reading_list_pushes WHERE 1 = 1"
        var parameters: [any SQLiteValueConvertible] = []
        if let service { sql += " AND service = ?"; parameters.append(service) }
        if pendingOnly { sql += " AND pushed_at IS NULL" }
        sql += " ORDER BY queued_at, push_key"
        return try connection.query(sql, parameters).compactMap { row in
            let key: String = try row.get("push_key")
            let entry: ReadingListEntry
            do {
                entry = try JSONDecoder().decode(
                    ReadingListEntry.self, from: Data((try row.get("entry") as String).utf8))
            } catch {
                // A queued push left out would never be sent, and never said: damaged, as a book row is.
                throw DatabaseError(
                    kind: .damaged, path: path,
                    message:
                        "the library database at \(path) holds a queued push (\(key)) that cannot be read (\(error))")
            }
            return QueuedPush(
                service: try row.get("service"), key: key, entry: entry, bookID: try row.get("book_id"),
                queuedAt: Date(databaseMilliseconds: try row.get("queued_at")),
                pushedAt: (try row.get("pushed_at") as Int64?).map(Date.init(databaseMilliseconds:)),
                outcome: try row.get("outcome"), message: try row.get("message"))
        }
    }

    /// Records a push's outcome; `done` marks it pushed so that it is never sent again.
    public func recordPush(
        service: String, key: String, outcome: String, message: String?, done: Bool, at date: Date = Date()
    ) throws {
        try connection.execute(
            """
            UPDATE reading_list_pushes SET outcome = ?, message = ?, pushed_at = CASE WHEN ? THEN ? ELSE pushed_at END
            WHERE service = ? AND push_key = ?
            """, [outcome, message, done, date.databaseMilliseconds, service, key])
    }

    // MARK: Wishes

    public struct NewWish: Sendable {
        public var source: String
        public var title: String
        public var authors: [String]
        public var isbn: String?
        public init(source: String, title: String, authors: [String], isbn: String?) {
            self.source = source
            self.title = title
            self.authors = authors
            self.isbn = isbn
        }
        /// ISBN-13 when known, else folded title and author surname: one wish per book.
        public var key: String {
            isbn.map { "isbn:\($0)" } ?? "t:\(Fold.title(title))|\(Fold.surname(authors.first ?? ""))"
        }
    }

    /// Adds wishes in one transaction, skipping those whose key exists; returns how many were new.
    @discardableResult
    public func addWishes(_ wishes: [NewWish], at date: Date = Date()) throws -> Int {
        guard !wishes.isEmpty else { return 0 }
        return try connection.transaction {
            let before = try connection.scalar("SELECT COUNT(*) FROM wishes", as: Int.self) ?? 0
            let statement = try connection.prepare(
                """
                INSERT OR IGNORE INTO wishes (wish_key, source, title, authors, isbn, added_at) VALUES (?, ?, ?, ?, ?, ?)
                """)
            let when = date.databaseMilliseconds
            for w in wishes {
                try statement.run([w.key, w.source, w.title, ReadingListJSON.string(w.authors), w.isbn, when])
            }
            return (try connection.scalar("SELECT COUNT(*) FROM wishes", as: Int.self) ?? 0) - before
        }
    }

    /// Adds a wish unless one with the same key exists; returns the wish.
    @discardableResult
    public func addWish(source: String, title: String, authors: [String], isbn: String?, at date: Date = Date()) throws
        -> Wish
    {
        let wish = NewWish(source: source, title: title, authors: authors, isbn: isbn)
        try addWishes([wish], at: date)
        return try wishes().first { $0.key == wish.key }!
    }

    public func wishes() throws -> [Wish] {
        let decoder = JSONDecoder()
        // With its matched entry's last sighting (catalog_entries.seen_at), for how old the availability is.
        return try connection.query(
            """
            SELECT w.*, c.seen_at AS entry_seen_at FROM wishes w
            LEFT JOIN catalog_entries c ON c.account_id = w.account_id AND c.entry_id = w.entry_id
            ORDER BY w.added_at, w.id
            """
        ).map { row in
            let authorsText: String = try row.get("authors")
            let authors: [String]
            do {
                authors = authorsText == "[]" ? [] : try decoder.decode([String].self, from: Data(authorsText.utf8))
            } catch {
                // The patron's wish, damaged: matched without its authors it could announce another book.
                throw DatabaseError(
                    kind: .damaged, path: path,
                    message: "the library database at \(path) holds a wish whose authors cannot be read (\(error))")
            }
            return Wish(
                id: try row.get("id"), key: try row.get("wish_key"), source: try row.get("source"),
                title: try row.get("title"),
                authors: authors,
                isbn: try row.get("isbn"), addedAt: Date(databaseMilliseconds: try row.get("added_at")),
                accountID: try row.get("account_id"), entryID: try row.get("entry_id"),
                matchedBy: try row.get("matched_by"),
                availability: try row.get("availability"), available: try row.get("available"),
                checkedAt: (try row.get("checked_at") as Int64?).map(Date.init(databaseMilliseconds:)),
                notifiedAt: (try row.get("notified_at") as Int64?).map(Date.init(databaseMilliseconds:)),
                seenAt: (try row.get("entry_seen_at") as Int64?).map(Date.init(databaseMilliseconds:)))
        }
    }

    public func deleteWish(id: Int64) throws -> Bool {
        let before = try connection.scalar("SELECT COUNT(*) FROM wishes WHERE id = ?", [id], as: Int.self) ?? 0
        try connection.execute("DELETE FROM wishes WHERE id = ?", [id])
        return before > 0
    }

    public func updateWishMatch(_ wish: Wish, at date: Date = Date()) throws {
        try connection.execute(
            """
            UPDATE wishes SET account_id = ?, entry_id = ?, matched_by = ?, availability = ?, available = ?, checked_at = ?, notified_at = ?
            WHERE id = ?
            """,
            [
                wish.accountID, wish.entryID, wish.matchedBy, wish.availability, wish.available,
                date.databaseMilliseconds,
                wish.notifiedAt?.databaseMilliseconds, wish.id
            ])
    }

    /// The wish list check's writes, one prepared statement for the whole list: a wish whose match is as it was only
    /// has its `checked_at` moved.
    struct WishMatchUpdate {
        let full: SQLiteStatement
        let checked: SQLiteStatement

        func run(_ wish: Wish, changed: Bool, at date: Date) throws {
            if changed {
                try full.run([
                    wish.accountID, wish.entryID, wish.matchedBy, wish.availability, wish.available,
                    date.databaseMilliseconds,
                    wish.notifiedAt?.databaseMilliseconds, wish.id
                ])
            } else {
                try checked.run([date.databaseMilliseconds, wish.id])
            }
        }
    }

    func wishMatchUpdate() throws -> WishMatchUpdate {
        WishMatchUpdate(
            full: try connection.prepare(
                """
                UPDATE wishes SET account_id = ?, entry_id = ?, matched_by = ?, availability = ?, available = ?, checked_at = ?, notified_at = ?
                WHERE id = ?
                """), checked: try connection.prepare("UPDATE wishes SET checked_at = ? WHERE id = ?"))
    }

    /// Every remembered catalog entry with its account, for wish matching.
    public func catalogEntriesForMatching() throws -> [(accountID: String, entry: CatalogEntry)] {
        try connection.query("SELECT account_id, entry FROM catalog_entries").compactMap { row in
            // Remembered catalog pages are the library's copy, read again when browsed: one that cannot be read matches nothing.
            guard
                let entry = try? JSONDecoder().decode(
                    CatalogEntry.self, from: Data((try row.get("entry") as String).utf8))
            else { return nil }
            return (try row.get("account_id"), entry)
        }
    }
}
