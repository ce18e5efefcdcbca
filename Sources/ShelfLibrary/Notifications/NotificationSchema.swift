import ShelfCore
/// The library database's tables for notifications (issue 6), appended to `LibrarySchema.migrations` as one step.
///
/// `notifications` keeps every notification shelf made, live or withdrawn: at most one live notification per
/// loan, hold or wished title and kind (the partial unique index), which is what makes each fire once and survive restarts.
/// `notification_loans` is the list of loans as the last successful sync saw them, so that a loan which left the
/// feed can be told apart: its end passed ("has been returned") or it went early (returned, no notification).
enum NotificationSchema {
    static let step = SchemaMigration("notifications for holds and loans", sql: sql)

    /// A notice its successor replaced ("one week left" by "one day left", "N days to complete checkout" by
    /// "1 day left"): withdrawn, and marked as superseded rather than simply no longer holding.
    static let superseded = SchemaMigration(
        "notifications superseded by their successor",
        sql: "ALTER TABLE notifications ADD COLUMN superseded_at INTEGER;")

    /// The kinds a sync makes from changes the library made (loan ended early, hold cancelled or lapsed): the
    /// table is rebuilt, as sqlite cannot change a CHECK in place.
    static let libraryChanges = SchemaMigration(
        "notifications of changes the library made",
        sql: """
            CREATE TABLE notifications_new (
                id            INTEGER PRIMARY KEY AUTOINCREMENT,
                account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                entry_id      TEXT NOT NULL,
                kind          TEXT NOT NULL CHECK (kind IN ('hold-ready', 'hold-last-day', 'loan-week', 'loan-day',
                    'loan-returned', 'wish-available', 'loan-ended', 'hold-cancelled', 'hold-lapsed',
                    'sign-in-refused')),
                title         TEXT NOT NULL,
                text          TEXT NOT NULL,
                route         TEXT NOT NULL,
                book_route    TEXT NOT NULL,
                ends_at       INTEGER,
                created_at    INTEGER NOT NULL,
                withdrawn_at  INTEGER,
                read_at       INTEGER,
                terminal_at   INTEGER,
                desktop_at    INTEGER,
                desktop_id    INTEGER,
                superseded_at INTEGER
            );
            INSERT INTO notifications_new (id, account_id, entry_id, kind, title, text, route, book_route, ends_at,
                created_at, withdrawn_at, read_at, terminal_at, desktop_at, desktop_id, superseded_at)
                SELECT id, account_id, entry_id, kind, title, text, route, book_route, ends_at, created_at,
                    withdrawn_at, read_at, terminal_at, desktop_at, desktop_id, superseded_at FROM notifications;
            DROP TABLE notifications;
            ALTER TABLE notifications_new RENAME TO notifications;
            CREATE UNIQUE INDEX notifications_live ON notifications (account_id, entry_id, kind)
                WHERE withdrawn_at IS NULL;
            """)

    private static let sql = """
        CREATE TABLE notifications (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            entry_id      TEXT NOT NULL,
            kind          TEXT NOT NULL CHECK (kind IN ('hold-ready', 'hold-last-day', 'loan-week', 'loan-day', 'loan-returned', 'wish-available')),
            title         TEXT NOT NULL,
            text          TEXT NOT NULL,
            route         TEXT NOT NULL,
            book_route    TEXT NOT NULL,
            ends_at       INTEGER,
            created_at    INTEGER NOT NULL,
            withdrawn_at  INTEGER,
            read_at       INTEGER,
            terminal_at   INTEGER,
            desktop_at    INTEGER,
            desktop_id    INTEGER
        );
        CREATE UNIQUE INDEX notifications_live ON notifications (account_id, entry_id, kind) WHERE withdrawn_at IS NULL;
        CREATE TABLE notification_loans (
            account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            entry_id    TEXT NOT NULL,
            title       TEXT NOT NULL,
            ends_at     INTEGER,
            PRIMARY KEY (account_id, entry_id)
        );
        """
}
