import ShelfCore
/// The library database's tables for reading lists (issue 7), appended to `LibrarySchema.migrations` as one step.
///
/// `reading_list_services` is each connected service and its non-secret settings (secrets live in the 0600
/// credentials file). `reading_list_entries` is what the last pull of each service saw, replaced whole per
/// service after a pull succeeded. `reading_list_pushes` is the queue of reads and want-to-reads to record: a
/// row is pushed once (pushed_at), which with the primary key makes `shelf lists push` idempotent.
/// `wishes` is the wish list: each wish, the catalog entry it matched and its availability as the last check saw it;
/// `notified_at` makes the availability notice fire once.
enum ReadingListSchema {
    static let step = SchemaMigration("reading lists, pushes and the wish list", sql: sql)

    private static let sql = """
        CREATE TABLE reading_list_services (
            service       TEXT PRIMARY KEY NOT NULL,
            plugin_id     TEXT NOT NULL,
            settings      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
            connected_at  INTEGER NOT NULL,
            pulled_at     INTEGER,
            pull_error    TEXT
        );
        CREATE TABLE reading_list_entries (
            service     TEXT NOT NULL,
            entry_key   TEXT NOT NULL,
            shelf       TEXT NOT NULL,
            title       TEXT NOT NULL,
            isbn        TEXT,
            entry       TEXT NOT NULL CHECK (json_valid(entry)),
            pulled_at   INTEGER NOT NULL,
            PRIMARY KEY (service, entry_key)
        );
        CREATE INDEX reading_list_entries_shelf ON reading_list_entries (shelf);
        CREATE TABLE reading_list_pushes (
            service     TEXT NOT NULL,
            push_key    TEXT NOT NULL,
            shelf       TEXT NOT NULL,
            book_id     TEXT,
            entry       TEXT NOT NULL CHECK (json_valid(entry)),
            queued_at   INTEGER NOT NULL,
            pushed_at   INTEGER,
            outcome     TEXT,
            message     TEXT,
            PRIMARY KEY (service, push_key)
        );
        CREATE TABLE wishes (
            id               INTEGER PRIMARY KEY AUTOINCREMENT,
            wish_key         TEXT NOT NULL UNIQUE,
            source           TEXT NOT NULL,
            title            TEXT NOT NULL,
            authors          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors)),
            isbn             TEXT,
            added_at         INTEGER NOT NULL,
            account_id       TEXT,
            entry_id         TEXT,
            matched_by       TEXT,
            availability     TEXT,
            available        INTEGER NOT NULL DEFAULT 0,
            checked_at       INTEGER,
            notified_at      INTEGER
        );
        """
}
