import ShelfCore
/// The library database's tables for library accounts and circulation (issue 5), appended to
/// `LibrarySchema.migrations` as one step.
///
/// Loans and holds belong to their account and go with it. A sync replaces an account's loans and holds in one
/// transaction, and only after the whole shelf feed has been fetched and parsed: a failed sync changes nothing.
enum CatalogSchema {
    static let step = SchemaMigration("library accounts, cached feeds, catalog entries, loans and holds", sql: sql)

    private static let sql = """
        CREATE TABLE accounts (
            id                 TEXT PRIMARY KEY NOT NULL,
            title              TEXT NOT NULL,
            catalog_url        TEXT NOT NULL,
            auth_document_url  TEXT,
            auth_document      TEXT CHECK (auth_document IS NULL OR json_valid(auth_document)),
            shelf_url          TEXT,
            added_at           INTEGER NOT NULL,
            synced_at          INTEGER,
            sync_error         TEXT
        );
        CREATE TABLE cached_feeds (
            url           TEXT PRIMARY KEY NOT NULL,
            account_id    TEXT REFERENCES accounts(id) ON DELETE CASCADE,
            etag          TEXT,
            last_modified TEXT,
            content_type  TEXT,
            body          BLOB NOT NULL,
            fetched_at    INTEGER NOT NULL
        );
        CREATE TABLE catalog_entries (
            account_id  TEXT NOT NULL DEFAULT '',
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            feed_url    TEXT,
            entry       TEXT NOT NULL CHECK (json_valid(entry)),
            seen_at     INTEGER NOT NULL,
            PRIMARY KEY (account_id, entry_id)
        );
        CREATE INDEX catalog_entries_seen ON catalog_entries (seen_at);
        CREATE TABLE loans (
            account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            authors     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors)),
            format      TEXT NOT NULL,
            starts_at   INTEGER,
            ends_at     INTEGER,
            entry       TEXT NOT NULL CHECK (json_valid(entry)),
            book_id     TEXT,
            updated_at  INTEGER NOT NULL,
            PRIMARY KEY (account_id, entry_id)
        );
        CREATE TABLE holds (
            account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            authors     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors)),
            format      TEXT NOT NULL,
            state       TEXT NOT NULL CHECK (state IN ('reserved', 'ready')),
            position    INTEGER,
            queue_size  INTEGER,
            starts_at   INTEGER,
            ends_at     INTEGER,
            branch      TEXT,
            entry       TEXT NOT NULL CHECK (json_valid(entry)),
            updated_at  INTEGER NOT NULL,
            PRIMARY KEY (account_id, entry_id)
        );
        """

    /// The loans and holds changed here (borrow, reserve, return, cancel), in order: a sync keeps what was changed after
    /// it asked the library, whose answer is older (`LibraryDatabase.replaceShelf`). AUTOINCREMENT, so that a number
    /// is never given twice even after the rows a sync forgets.
    static let localChanges = SchemaMigration(
        "loans and holds changed here, newer than a sync's answer",
        sql: """
            CREATE TABLE circulation_changes (
                seq         INTEGER PRIMARY KEY AUTOINCREMENT,
                account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                entry_id    TEXT NOT NULL
            );
            CREATE INDEX circulation_changes_account ON circulation_changes (account_id, seq);
            """)

    /// The entry columns without `json_valid`: sqlite parsed every entry again on every write, a tenth of a sync of
    /// 1,000 loans, and the column is written only by `CatalogEntryJSON`. The authors columns keep their check.
    ///
    /// sqlite cannot drop a constraint, so the three tables are made again and their rows (with their rowids) copied
    /// over in this step's one transaction: a crash leaves the old tables whole.
    static let uncheckedEntries = SchemaMigration(
        "catalog entries, loans and holds without a JSON check per write",
        sql: uncheckedEntriesSQL)

    private static let uncheckedEntriesSQL = """
        CREATE TABLE catalog_entries_new (
            account_id  TEXT NOT NULL DEFAULT '',
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            feed_url    TEXT,
            entry       TEXT NOT NULL,
            seen_at     INTEGER NOT NULL,
            PRIMARY KEY (account_id, entry_id)
        );
        INSERT INTO catalog_entries_new (rowid, account_id, entry_id, title, feed_url, entry, seen_at)
            SELECT rowid, account_id, entry_id, title, feed_url, entry, seen_at FROM catalog_entries;
        DROP TABLE catalog_entries;
        ALTER TABLE catalog_entries_new RENAME TO catalog_entries;
        CREATE INDEX catalog_entries_seen ON catalog_entries (seen_at);

        CREATE TABLE loans_new (
            account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            authors     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors)),
            format      TEXT NOT NULL,
            starts_at   INTEGER,
            ends_at     INTEGER,
            entry       TEXT NOT NULL,
            book_id     TEXT,
            updated_at  INTEGER NOT NULL,
            PRIMARY KEY (account_id, entry_id)
        );
        INSERT INTO loans_new (rowid, account_id, entry_id, title, authors, format, starts_at, ends_at, entry, book_id, updated_at)
            SELECT rowid, account_id, entry_id, title, authors, format, starts_at, ends_at, entry, book_id, updated_at FROM loans;
        DROP TABLE loans;
        ALTER TABLE loans_new RENAME TO loans;

        CREATE TABLE holds_new (
            account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            authors     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors)),
            format      TEXT NOT NULL,
            state       TEXT NOT NULL CHECK (state IN ('reserved', 'ready')),
            position    INTEGER,
            queue_size  INTEGER,
            starts_at   INTEGER,
            ends_at     INTEGER,
            branch      TEXT,
            entry       TEXT NOT NULL,
            updated_at  INTEGER NOT NULL,
            PRIMARY KEY (account_id, entry_id)
        );
        INSERT INTO holds_new (rowid, account_id, entry_id, title, authors, format, state, position, queue_size, starts_at,
                               ends_at, branch, entry, updated_at)
            SELECT rowid, account_id, entry_id, title, authors, format, state, position, queue_size, starts_at,
                   ends_at, branch, entry, updated_at FROM holds;
        DROP TABLE holds;
        ALTER TABLE holds_new RENAME TO holds;
        """

    /// Holds keyed by their branch as well: an e-book hold and a hold on a physical copy at a branch of the same title
    /// are two holds, and before this step the second replaced the first. The branch is '' for a hold that is not a
    /// branch's (a primary key's NULLs would never be equal). The rows and their rowids are copied over in this step's
    /// one transaction, as in `uncheckedEntries`.
    static let holdsPerBranch = SchemaMigration(
        "holds keyed by title and branch, so an e-book hold and a branch hold of a title are both kept",
        sql: """
            CREATE TABLE holds_new (
                account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                entry_id    TEXT NOT NULL,
                title       TEXT NOT NULL,
                authors     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors)),
                format      TEXT NOT NULL,
                state       TEXT NOT NULL CHECK (state IN ('reserved', 'ready')),
                position    INTEGER,
                queue_size  INTEGER,
                starts_at   INTEGER,
                ends_at     INTEGER,
                branch      TEXT NOT NULL DEFAULT '',
                entry       TEXT NOT NULL,
                updated_at  INTEGER NOT NULL,
                PRIMARY KEY (account_id, entry_id, branch)
            );
            INSERT INTO holds_new (rowid, account_id, entry_id, title, authors, format, state, position, queue_size,
                                   starts_at, ends_at, branch, entry, updated_at)
                SELECT rowid, account_id, entry_id, title, authors, format, state, position, queue_size, starts_at,
                       ends_at, ifnull(branch, ''), entry, updated_at FROM holds;
            DROP TABLE holds;
            ALTER TABLE holds_new RENAME TO holds;
            """)
}
