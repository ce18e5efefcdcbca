import ShelfCore
/// The library database's table for annotation sync (issue 8, item 7), appended to `LibrarySchema.migrations`.
///
/// One row per bookmark this computer and the library's annotation service both know: which local bookmark is
/// which annotation on the server. A row whose bookmark is gone here is a removal to send (DELETE); a row whose
/// annotation is gone from the server is a removal made on another device. Rows go with their book.
enum AnnotationSchema {
    static let step = SchemaMigration("annotation sync: which local bookmark is which server annotation", sql: sql)

    private static let sql = """
        CREATE TABLE synced_bookmarks (
            book_id        TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            annotation_id  TEXT NOT NULL,
            bookmark_id    INTEGER NOT NULL,
            PRIMARY KEY (book_id, annotation_id)
        );
        """
}
