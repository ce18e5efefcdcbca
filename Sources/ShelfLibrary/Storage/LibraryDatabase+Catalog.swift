import ShelfCore
import Foundation

/// Accounts, cached feeds, catalog entries seen, loans and holds. Every write is one transaction.
extension LibraryDatabase {
    // MARK: Accounts

    public func upsertAccount(_ account: AccountRecord) throws {
        try connection.transaction {
            try connection.execute(
                """
                INSERT INTO accounts (id, title, catalog_url, auth_document_url, auth_document, shelf_url, added_at,
                                      synced_at, sync_error)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET title = excluded.title, catalog_url = excluded.catalog_url,
                    auth_document_url = excluded.auth_document_url, auth_document = excluded.auth_document,
                    shelf_url = excluded.shelf_url
                """,
                [
                    account.id, account.title, account.catalogURL, account.authDocumentURL, account.authDocument,
                    account.shelfURL, account.addedAt.databaseMilliseconds, account.syncedAt?.databaseMilliseconds,
                    account.syncError
                ])
        }
    }

    public func accounts() throws -> [AccountRecord] {
        try connection.query("SELECT * FROM accounts ORDER BY added_at, id").map(decodeAccount)
    }

    public func account(id: String) throws -> AccountRecord? {
        try connection.query("SELECT * FROM accounts WHERE id = ?", [id]).first.map(decodeAccount)
    }

    /// Removes the account with its loans, holds and cached feeds.
    @discardableResult
    public func deleteAccount(id: String) throws -> Bool {
        try connection.transaction {
            try connection.execute("DELETE FROM catalog_entries WHERE account_id = ?", [id])
            try connection.execute("DELETE FROM accounts WHERE id = ?", [id])
            let removed = connection.changes > 0
            if try meta(Self.defaultAccountKey) == id { try setMeta(Self.defaultAccountKey, nil) }
            return removed
        }
    }

    static let defaultAccountKey = "catalog.default-account"

    public var defaultAccountID: String? {
        get throws { try meta(Self.defaultAccountKey) }
    }

    public func setDefaultAccount(_ id: String?) throws { try setMeta(Self.defaultAccountKey, id) }

    public func setSyncResult(accountID: String, error: String?, at date: Date = Date()) throws {
        try connection.transaction {
            if let error {
                try connection.execute("UPDATE accounts SET sync_error = ? WHERE id = ?", [error, accountID])
            } else {
                try connection.execute(
                    "UPDATE accounts SET sync_error = NULL, synced_at = ? WHERE id = ?",
                    [date.databaseMilliseconds, accountID])
            }
        }
    }

    private func decodeAccount(_ row: SQLiteRow) throws -> AccountRecord {
        let synced: Int64? = try row.get("synced_at")
        return AccountRecord(
            id: try row.get("id"), title: try row.get("title"), catalogURL: try row.get("catalog_url"),
            authDocumentURL: try row.get("auth_document_url"), authDocument: try row.get("auth_document"),
            shelfURL: try row.get("shelf_url"),
            addedAt: Date(databaseMilliseconds: try row.get("added_at")),
            syncedAt: synced.map(Date.init(databaseMilliseconds:)), syncError: try row.get("sync_error"))
    }

    // MARK: Cached feeds

    public func cachedFeed(url: String) throws -> CachedFeed? {
        guard
            let row = try connection.query(
                "SELECT url, etag, last_modified, content_type, body, fetched_at FROM cached_feeds WHERE url = ?", [url]
            ).first
        else { return nil }
        return CachedFeed(
            url: try row.get("url"),
            validators: HTTPValidators(etag: try row.get("etag"), lastModified: try row.get("last_modified")),
            contentType: try row.get("content_type"), body: try row.get("body"),
            fetchedAt: Date(databaseMilliseconds: try row.get("fetched_at")))
    }

    public func storeFeed(_ feed: CachedFeed, accountID: String?) throws {
        try connection.transaction {
            try connection.execute(
                """
                INSERT INTO cached_feeds (url, account_id, etag, last_modified, content_type, body, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (url) DO UPDATE SET account_id = excluded.account_id, etag = excluded.etag,
                    last_modified = excluded.last_modified, content_type = excluded.content_type, body = excluded.body,
                    fetched_at = excluded.fetched_at
                """,
                [
                    feed.url, accountID, feed.validators.etag, feed.validators.lastModified, feed.contentType,
                    feed.body, feed.fetchedAt.databaseMilliseconds
                ])
        }
    }

    // MARK: Catalog entries seen while browsing

    /// Forgets a catalog entry the library no longer has (its loans and holds, kept elsewhere, stay).
    public func forgetEntry(accountID: String?, entryID: String) throws {
        try connection.execute(
            "DELETE FROM catalog_entries WHERE account_id = ? AND entry_id = ?", [accountID ?? "", entryID])
    }

    /// When the library last said `entryID`'s entry at `accountID` (catalog_entries.seen_at), or nil when not seen.
    public func entrySeenAt(accountID: String?, entryID: String) throws -> Date? {
        try connection.scalar(
            "SELECT seen_at FROM catalog_entries WHERE account_id = ? AND entry_id = ?", [accountID ?? "", entryID],
            as: Int64.self
        ).map(Date.init(databaseMilliseconds:))
    }

    /// Remembers entries so that `shelf book ID` and `shelf borrow ID` find them later.
    public func rememberEntries(_ entries: [CatalogEntry], accountID: String?, feedURL: String?, at date: Date = Date())
        throws
    {
        guard !entries.isEmpty else { return }
        try connection.transaction {
            for entry in entries {
                try rememberEntry(
                    entry, json: CatalogEntryJSON.encode(entry), accountID: accountID, feedURL: feedURL, at: date)
            }
        }
    }

    private func rememberEntry(_ entry: CatalogEntry, json: String, accountID: String?, feedURL: String?, at date: Date)
        throws
    {
        try connection.execute(
            """
            INSERT INTO catalog_entries (account_id, entry_id, title, feed_url, entry, seen_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (account_id, entry_id) DO UPDATE SET title = excluded.title, feed_url = excluded.feed_url,
                entry = excluded.entry, seen_at = excluded.seen_at
            """, [accountID ?? "", entry.id, entry.title, feedURL, json, date.databaseMilliseconds])
    }

    /// What shelf has seen (loans, holds, catalog entries) that a patron's words name: an identifier or a title, whole
    /// or in part. See `CatalogNameMatches`.
    public func findEntries(matching text: String, accountID: String?, partialLimit: Int = 5) throws
        -> CatalogNameMatches
    {
        let scope = accountID ?? ""
        let tables = ["loans", "holds", "catalog_entries"]
        func stored(_ id: String) throws -> CatalogEntry? {
            for table in tables {
                // A stored entry that cannot be read is damaged, as everywhere else, not "no such title".
                if let row = try connection.query(
                    "SELECT entry FROM \(table) WHERE account_id = ? AND entry_id = ?", [scope, id]
                ).first {
                    do {
                        return try CatalogEntryJSON.decode(try row.get("entry"))
                    } catch {
                        throw DatabaseError(
                            kind: .damaged, path: path,
                            message:
                                "the library database at \(path) holds \(id) in a form that cannot be read (\(error)); "
                                + "browsing the catalog or `shelf sync` fetches it again")
                    }
                }
            }
            return nil
        }
        if let byID = try stored(text) { return CatalogNameMatches(exact: [byID], partial: [], partialCount: 0) }
        // Every identifier and title once (a loan's own record first), compared here: sqlite's lower() knows only ASCII.
        var titles: [String: String] = [:]
        for table in tables {
            for row in try connection.query("SELECT entry_id, title FROM \(table) WHERE account_id = ?", [scope]) {
                let id: String = try row.get("entry_id")
                if titles[id] == nil { titles[id] = try row.get("title") }
            }
        }
        let wanted = CatalogNameMatches.key(text)
        guard !wanted.isEmpty else { return CatalogNameMatches(exact: [], partial: [], partialCount: 0) }
        var exact: [(id: String, title: String)] = []
        var partial: [(id: String, title: String)] = []
        for (id, title) in titles {
            let key = CatalogNameMatches.key(title)
            if key == wanted {
                exact.append((id, title))
            } else if key.contains(wanted) || CatalogNameMatches.key(id).contains(wanted) {
                partial.append((id, title))
            }
        }
        let order: ((id: String, title: String), (id: String, title: String)) -> Bool = {
            ($0.title, $0.id) < ($1.title, $1.id)
        }
        return CatalogNameMatches(
            exact: try exact.sorted(by: order).compactMap { try stored($0.id) },
            partial: try partial.sorted(by: order).prefix(partialLimit).compactMap { try stored($0.id) },
            partialCount: partial.count)
    }

    // MARK: Loans and holds

    /// The entries of one page of a feed, as `rememberEntries` takes them.
    public struct FeedPage: Sendable {
        public var url: String?
        public var entries: [CatalogEntry]

        public init(url: String?, entries: [CatalogEntry]) {
            self.url = url
            self.entries = entries
        }
    }

    /// Replaces the account's loans and holds with what a complete, successful fetch of the shelf feed said,
    /// in one transaction: either all of it is stored or nothing changes. Downloaded books stay linked.
    ///
    /// `pages`, the shelf feed's own entries, are remembered in the same transaction (as `rememberEntries` does, under
    /// `pagesAccountID`). A loan or hold whose entry is the feed's as it came is encoded once for both tables.
    /// Returns the loans and holds as stored: with the books downloaded before, and a loan or hold the library said
    /// again unchanged as it was (its row is left alone, so a sync that finds the same shelf writes nothing).
    ///
    /// `then` runs last in the same transaction, with the loans and holds as stored: what it writes (a sync's notifications)
    /// commits with the shelf or not at all. Called inside a transaction of its own, a sync's writes would run in a
    /// savepoint, and sqlite copies every page a savepoint changes to a journal first: twice the writing.
    @discardableResult
    ///
    /// `mark` is `circulationChangeMark()` as it was before the library was asked: a loan or hold changed here after it
    /// (a borrow while the feed was on its way) is newer than the feed, so it is kept as stored and the feed's word on
    /// that title waits for the next sync.
    public func replaceShelf(
        accountID: String, loans: [LoanRecord], holds: [HoldRecord], remembering pages: [FeedPage] = [],
        pagesAccountID: String? = nil, at date: Date = Date(), changesAfter mark: Int64? = nil,
        then: (_ loans: [LoanRecord], _ holds: [HoldRecord]) -> Void = { _, _ in }
    )
        throws -> (loans: [LoanRecord], holds: [HoldRecord])
    {
        try connection.transaction {
            var (loans, holds) = (loans, holds)
            if let mark {
                let newer = try circulationChanges(accountID: accountID, after: mark)
                if !newer.isEmpty {
                    loans =
                        loans.filter { !newer.contains($0.entry.id) }
                        + (try self.loans(accountID: accountID)).filter { newer.contains($0.entry.id) }
                    holds =
                        holds.filter { !newer.contains($0.entry.id) }
                        + (try self.holds(accountID: accountID)).filter { newer.contains($0.entry.id) }
                }
                try forgetCirculationChanges(accountID: accountID, through: mark)
            }
            var encoded: [String: (entry: CatalogEntry, json: String)] = [:]
            for page in pages {
                for entry in page.entries {
                    let json = CatalogEntryJSON.encode(entry)
                    try rememberEntry(entry, json: json, accountID: pagesAccountID, feedURL: page.url, at: date)
                    encoded[entry.id] = (entry, json)
                }
            }
            func json(_ entry: CatalogEntry) -> String {
                if let known = encoded[entry.id], known.entry == entry { return known.json }
                return CatalogEntryJSON.encode(entry)
            }
            let storedLoans = try rows(of: "loans", columns: Self.loanColumns, accountID: accountID)
            loans = loans.map { loan in
                var loan = loan
                // Downloaded books stay linked.
                if loan.bookID == nil, case .text(let book)? = storedLoans[loan.entry.id]?[8] { loan.bookID = book }
                return loan
            }
            let loansLeft = try replaceRows(
                of: "loans", columns: Self.loanColumns, accountID: accountID, stored: storedLoans,
                with: loans.map { Self.values(of: $0, json: json($0.entry)) })
            let holdsLeft = try replaceRows(
                of: "holds", columns: Self.holdColumns, accountID: accountID,
                stored: rows(of: "holds", columns: Self.holdColumns, accountID: accountID),
                with: holds.map { Self.values(of: $0, json: json($0.entry)) })
            for i in loans.indices { if let at = loansLeft[loans[i].entry.id] { loans[i].updatedAt = at } }
            for i in holds.indices { if let at = holdsLeft[Self.holdKey(holds[i])] { holds[i].updatedAt = at } }
            try connection.execute(
                "UPDATE accounts SET synced_at = ?, sync_error = NULL WHERE id = ?",
                [date.databaseMilliseconds, accountID])
            then(loans, holds)
            return (loans, holds)
        }
    }

    public func upsertLoan(_ loan: LoanRecord) throws {
        try connection.transaction {
            let existing: String? = try connection.scalar(
                "SELECT book_id FROM loans WHERE account_id = ? AND entry_id = ?", [loan.accountID, loan.entry.id])
            try connection.execute(
                "DELETE FROM loans WHERE account_id = ? AND entry_id = ?", [loan.accountID, loan.entry.id])
            // The title's own hold became the loan; a hold on a physical copy at a branch is another hold and stays.
            try connection.execute(
                "DELETE FROM holds WHERE account_id = ? AND entry_id = ? AND branch = ''",
                [loan.accountID, loan.entry.id])
            var loan = loan
            loan.bookID = loan.bookID ?? existing
            try insertLoan(loan, json: CatalogEntryJSON.encode(loan.entry))
            try noteCirculationChange(accountID: loan.accountID, entryID: loan.entry.id)
        }
    }

    public func upsertHold(_ hold: HoldRecord) throws {
        try connection.transaction {
            try connection.execute(
                "DELETE FROM holds WHERE account_id = ? AND entry_id = ? AND branch = ?",
                [hold.accountID, hold.entry.id, hold.branch ?? ""])
            try insertHold(hold, json: CatalogEntryJSON.encode(hold.entry))
            try noteCirculationChange(accountID: hold.accountID, entryID: hold.entry.id)
        }
    }

    @discardableResult
    public func deleteLoan(accountID: String, entryID: String) throws -> Bool {
        try connection.transaction {
            try connection.execute("DELETE FROM loans WHERE account_id = ? AND entry_id = ?", [accountID, entryID])
            let deleted = connection.changes > 0
            if deleted { try noteCirculationChange(accountID: accountID, entryID: entryID) }
            return deleted
        }
    }

    /// Deletes the title's hold (`branch` nil) or its hold on a physical copy at `branch`.
    @discardableResult
    public func deleteHold(accountID: String, entryID: String, branch: String? = nil) throws -> Bool {
        try connection.transaction {
            try connection.execute(
                "DELETE FROM holds WHERE account_id = ? AND entry_id = ? AND branch = ?",
                [accountID, entryID, branch ?? ""])
            let deleted = connection.changes > 0
            if deleted { try noteCirculationChange(accountID: accountID, entryID: entryID) }
            return deleted
        }
    }

    public func setLoanBook(accountID: String, entryID: String, bookID: String) throws {
        try connection.transaction {
            try connection.execute(
                "UPDATE loans SET book_id = ? WHERE account_id = ? AND entry_id = ?",
                [bookID, accountID, entryID])
        }
    }

    /// Loans, soonest due first (open-ended ones last), then by title.
    public func loans(accountID: String? = nil) throws -> [LoanRecord] {
        let rows =
            try accountID.map {
                try connection.query(
                    "SELECT * FROM loans WHERE account_id = ? ORDER BY ends_at IS NULL, ends_at, title COLLATE NOCASE",
                    [$0])
            } ?? connection.query("SELECT * FROM loans ORDER BY ends_at IS NULL, ends_at, title COLLATE NOCASE")
        return try rows.map { row in
            var loan = LoanRecord(
                accountID: try row.get("account_id"), entry: try decodeEntry(row),
                bookID: try row.get("book_id"),
                updatedAt: Date(databaseMilliseconds: try row.get("updated_at")))
            loan.startsAt = (try row.get("starts_at") as Int64?).map(Date.init(databaseMilliseconds:))
            loan.endsAt = (try row.get("ends_at") as Int64?).map(Date.init(databaseMilliseconds:))
            return loan
        }
    }

    /// Holds, ready ones first, then by place in the queue.
    public func holds(accountID: String? = nil) throws -> [HoldRecord] {
        let order = "ORDER BY state = 'ready' DESC, position IS NULL, position, title COLLATE NOCASE"
        let rows =
            try accountID.map {
                try connection.query("SELECT * FROM holds WHERE account_id = ? \(order)", [$0])
            } ?? connection.query("SELECT * FROM holds \(order)")
        return try rows.map { row in
            var hold = HoldRecord(
                accountID: try row.get("account_id"), entry: try decodeEntry(row),
                branch: (try row.get("branch") as String?).flatMap { $0.isEmpty ? nil : $0 },
                updatedAt: Date(databaseMilliseconds: try row.get("updated_at")))
            hold.isReady = (try row.get("state") as String) == "ready"
            hold.position = try row.get("position")
            hold.queueSize = try row.get("queue_size")
            hold.startsAt = (try row.get("starts_at") as Int64?).map(Date.init(databaseMilliseconds:))
            hold.endsAt = (try row.get("ends_at") as Int64?).map(Date.init(databaseMilliseconds:))
            return hold
        }
    }

    /// Loans in the order `loans()` reads them (its ORDER BY, with ties by identifier), for a caller that has them
    /// in hand.
    static func inShelfOrder(_ loans: [LoanRecord]) -> [LoanRecord] {
        let keys = loans.map {
            ShelfOrderKey(rank: 0, order: $0.endsAt?.databaseMilliseconds, title: $0.entry.title, id: $0.entry.id)
        }
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { loans[$0] }
    }

    /// Holds in the order `holds()` reads them.
    static func inShelfOrder(_ holds: [HoldRecord]) -> [HoldRecord] {
        let keys = holds.map { hold in
            ShelfOrderKey(
                rank: hold.isReady ? 0 : 1, order: hold.position.map(Int64.init), title: hold.entry.title,
                id: hold.entry.id)
        }
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { holds[$0] }
    }

    // Loans and holds as rows: the columns in order, account and entry first, updated_at last.

    private static let loanColumns =
        "account_id, entry_id, title, authors, format, starts_at, ends_at, entry, book_id, updated_at"

    private static func values(of loan: LoanRecord, json: String) -> [SQLiteValue] {
        let values: [any SQLiteValueConvertible] = [
            loan.accountID, loan.entry.id, loan.entry.title, CatalogEntryJSON.encode(strings: loan.entry.authors),
            loan.entry.format.rawValue, loan.startsAt?.databaseMilliseconds, loan.endsAt?.databaseMilliseconds, json,
            loan.bookID, loan.updatedAt.databaseMilliseconds
        ]
        return values.map(\.sqliteValue)
    }

    private static let holdColumns = """
        account_id, entry_id, title, authors, format, state, position, queue_size, starts_at, ends_at, branch, entry, updated_at
        """

    private static func values(of hold: HoldRecord, json: String) -> [SQLiteValue] {
        let values: [any SQLiteValueConvertible] = [
            hold.accountID, hold.entry.id, hold.entry.title, CatalogEntryJSON.encode(strings: hold.entry.authors),
            hold.entry.format.rawValue, hold.isReady ? "ready" : "reserved", hold.position, hold.queueSize,
            hold.startsAt?.databaseMilliseconds, hold.endsAt?.databaseMilliseconds, hold.branch ?? "", json,
            hold.updatedAt.databaseMilliseconds
        ]
        return values.map(\.sqliteValue)
    }

    private func insertLoan(_ loan: LoanRecord, json: String) throws {
        try insertRow(into: "loans", columns: Self.loanColumns, Self.values(of: loan, json: json))
    }

    private func insertHold(_ hold: HoldRecord, json: String) throws {
        try insertRow(into: "holds", columns: Self.holdColumns, Self.values(of: hold, json: json))
    }

    private func insertRow(into table: String, columns: String, _ values: [SQLiteValue]) throws {
        let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
        try connection.execute("INSERT OR REPLACE INTO \(table) (\(columns)) VALUES (\(marks))", values)
    }

    /// The account's rows of `table`, by their key (`rowKey`).
    private func rows(of table: String, columns: String, accountID: String) throws -> [String: [SQLiteValue]] {
        var rows: [String: [SQLiteValue]] = [:]
        for row in try connection.query("SELECT \(columns) FROM \(table) WHERE account_id = ?", [accountID]) {
            if let key = Self.rowKey(table, row.values) { rows[key] = row.values }
        }
        return rows
    }

    /// A row's key within its account: the entry, and for a hold its branch too ('' for the title's own hold; the
    /// branch column is the 11th of `holdColumns`).
    private static func rowKey(_ table: String, _ values: [SQLiteValue]) -> String? {
        guard case .text(let entryID) = values[1] else { return nil }
        guard table == "holds" else { return entryID }
        guard case .text(let branch) = values[10] else { return entryID + "\n" }
        return entryID + "\n" + branch
    }

    /// A hold's key as `rowKey` makes it from its row.
    static func holdKey(_ hold: HoldRecord) -> String { hold.entry.id + "\n" + (hold.branch ?? "") }

    /// Makes `rows` the account's rows of `table`, given those `stored` now. A row the library said again unchanged
    /// is left alone, its updated_at saying when it last changed; returns those, with that time.
    private func replaceRows(
        of table: String, columns: String, accountID: String, stored: [String: [SQLiteValue]],
        with rows: [[SQLiteValue]]
    ) throws -> [String: Date] {
        var current = stored
        var kept = Set<String>()
        var left: [String: Date] = [:]
        for values in rows {
            guard let key = Self.rowKey(table, values) else { continue }
            kept.insert(key)
            if let old = current[key], old.dropLast() == values.dropLast(), case .integer(let at)? = old.last {
                left[key] = Date(databaseMilliseconds: at)
                continue
            }
            left[key] = nil
            try insertRow(into: table, columns: columns, values)
            current[key] = values
        }
        for (key, values) in stored where !kept.contains(key) {
            if table == "holds" {
                try connection.execute(
                    "DELETE FROM holds WHERE account_id = ? AND entry_id = ? AND branch = ?",
                    [values[0], values[1], values[10]])
            } else {
                try connection.execute(
                    "DELETE FROM \(table) WHERE account_id = ? AND entry_id = ?", [values[0], values[1]])
            }
        }
        return left
    }

    private func decodeEntry(_ row: SQLiteRow) throws -> CatalogEntry {
        let text: String = try row.get("entry")
        guard let entry = try? CatalogEntryJSON.decode(text) else {
            throw DatabaseError(
                kind: .damaged, path: path,
                message: "the library database at \(path) holds a loan or hold that cannot be read "
                    + "(\(try row.get("entry_id") as String)); `shelf sync` fetches it again")
        }
        return entry
    }
}
