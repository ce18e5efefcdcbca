import ShelfCore
/// The library database's tables for the bookshelf (issue 8), appended to `LibrarySchema.migrations` as one step.
///
/// Everything hangs off `books` and goes with it (ON DELETE CASCADE): how the file is kept, how far the patron has
/// read, and their bookmarks. Reader settings are keyed by scope: `*` for everyone's default, or a book id.
enum BookshelfSchema {
    static let step = SchemaMigration("bookshelf: shelf items, reading progress, bookmarks, reader settings", sql: sql)

    /// What each book is (BookIdentity), to notice a file that is no longer the book that was added (issue 19).
    static let identities = SchemaMigration(
        "bookshelf: book identities",
        sql: """
            CREATE TABLE book_identities (
                book_id     TEXT PRIMARY KEY NOT NULL REFERENCES books(id) ON DELETE CASCADE,
                identifier  TEXT,
                fingerprint TEXT NOT NULL
            );
            """)

    /// How far the patron has listened to each audiobook, in seconds of its length, for the shelf (issue 20).
    static let listening = SchemaMigration(
        "bookshelf: listening progress",
        sql: """
            CREATE TABLE listening_progress (
                book_id     TEXT PRIMARY KEY NOT NULL REFERENCES books(id) ON DELETE CASCADE,
                seconds     REAL NOT NULL CHECK (seconds >= 0),
                duration    REAL NOT NULL CHECK (duration >= 0),
                updated_at  INTEGER NOT NULL
            );
            """)

    /// The publisher's font as a value of the font setting (issue 37): sqlite cannot change a CHECK, so the table is
    /// made again with the values it holds.
    static let publisherFont = SchemaMigration(
        "bookshelf: the publisher's font",
        sql: """
            CREATE TABLE reader_settings_new (
                scope       TEXT PRIMARY KEY NOT NULL,
                font_scale  INTEGER CHECK (font_scale IS NULL OR font_scale BETWEEN 25 AND 800),
                font        TEXT CHECK (font IS NULL OR font IN ('publisher', 'serif', 'sans')),
                theme       TEXT CHECK (theme IS NULL OR theme IN ('day', 'night', 'sepia')),
                updated_at  INTEGER NOT NULL
            );
            INSERT INTO reader_settings_new (scope, font_scale, font, theme, updated_at)
                SELECT scope, font_scale, font, theme, updated_at FROM reader_settings;
            DROP TABLE reader_settings;
            ALTER TABLE reader_settings_new RENAME TO reader_settings;
            """)

    /// The patron's hyphenation (publisher's, on or off) as a reader setting (issue 38).
    static let hyphenation = SchemaMigration(
        "bookshelf: hyphenation",
        sql: """
            ALTER TABLE reader_settings ADD COLUMN hyphens TEXT
                CHECK (hyphens IS NULL OR hyphens IN ('publisher', 'on', 'off'));
            """)

    private static let sql = """
        CREATE TABLE shelf_items (
            book_id     TEXT PRIMARY KEY NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            storage     TEXT NOT NULL CHECK (storage IN ('copy', 'link', 'download', 'sample')),
            is_sample   INTEGER NOT NULL DEFAULT 0,
            link        TEXT
        );
        CREATE TABLE reading_progress (
            book_id     TEXT PRIMARY KEY NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            page        INTEGER NOT NULL,
            pages       INTEGER NOT NULL,
            updated_at  INTEGER NOT NULL
        );
        CREATE TABLE bookmarks (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            book_id     TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            locator     TEXT NOT NULL CHECK (json_valid(locator)),
            note        TEXT,
            created_at  INTEGER NOT NULL
        );
        CREATE INDEX bookmarks_book ON bookmarks (book_id, id);
        CREATE TABLE reader_settings (
            scope       TEXT PRIMARY KEY NOT NULL,
            font_scale  INTEGER CHECK (font_scale IS NULL OR font_scale BETWEEN 25 AND 800),
            font        TEXT CHECK (font IS NULL OR font IN ('serif', 'sans')),
            theme       TEXT CHECK (theme IS NULL OR theme IN ('day', 'night', 'sepia')),
            updated_at  INTEGER NOT NULL
        );
        """
}
