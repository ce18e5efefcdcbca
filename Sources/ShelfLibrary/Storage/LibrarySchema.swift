import ShelfCore
/// The library database's history, oldest first. To change the schema, append a step; never edit a released one.
enum LibrarySchema {
    static let migrations: [SchemaMigration] = [
        SchemaMigration("books, reading positions and meta", sql: version1),
        CatalogSchema.step,
        NotificationSchema.step,
        DownloadSchema.step,
        ReadingListSchema.step,
        BookshelfSchema.step,
        AnnotationSchema.step,
        CatalogSchema.uncheckedEntries,
        NotificationSchema.superseded,
        BookshelfSchema.identities,
        BookshelfSchema.listening,
        CatalogSchema.localChanges,
        NotificationSchema.libraryChanges,
        BookshelfSchema.publisherFont,
        CatalogSchema.holdsPerBranch,
        BookshelfSchema.hyphenation
    ]

    // Times are integer milliseconds since 1970 (UTC): they sort, compare and survive any locale.
    // JSON columns are checked by sqlite, so a bad write fails at once instead of at the next read (except catalog
    // entries, written only by CatalogEntryJSON: see CatalogSchema.uncheckedEntries).
    // Positions hang off their book and go with it (ON DELETE CASCADE); one current position per book.
    private static let version1 = """
        CREATE TABLE books (
            id          TEXT PRIMARY KEY NOT NULL,
            path        TEXT,
            source_uri  TEXT,
            media_type  TEXT NOT NULL,
            plugin_id   TEXT,
            title       TEXT NOT NULL,
            authors     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors) AND json_type(authors) = 'array'),
            added_at    INTEGER NOT NULL,
            opened_at   INTEGER
        );
        CREATE TABLE positions (
            book_id     TEXT PRIMARY KEY NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            locator     TEXT NOT NULL CHECK (json_valid(locator)),
            updated_at  INTEGER NOT NULL
        );
        CREATE TABLE meta (
            key         TEXT PRIMARY KEY NOT NULL,
            value       TEXT
        );
        """
}
