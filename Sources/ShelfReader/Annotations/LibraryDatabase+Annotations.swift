import ShelfLibrary
import ShelfValues
import Foundation

/// Reads and writes of `synced_bookmarks` (see `AnnotationSchema`), and this computer's device id.
extension LibraryDatabase {
    /// Annotation id → local bookmark id, for the book's bookmarks the server has.
    public func syncedBookmarks(bookID: String) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for row in try connection.query(
            "SELECT annotation_id, bookmark_id FROM synced_bookmarks WHERE book_id = ?", [bookID])
        {
            out[try row.get("annotation_id")] = try row.get("bookmark_id")
        }
        return out
    }

    public func recordSyncedBookmark(bookID: String, annotationID: String, bookmarkID: Int64) throws {
        try connection.transaction {
            try connection.execute(
                """
                INSERT INTO synced_bookmarks (book_id, annotation_id, bookmark_id) VALUES (?, ?, ?)
                ON CONFLICT (book_id, annotation_id) DO UPDATE SET bookmark_id = excluded.bookmark_id
                """, [bookID, annotationID, bookmarkID])
        }
    }

    public func forgetSyncedBookmark(bookID: String, annotationID: String) throws {
        try connection.transaction {
            try connection.execute(
                "DELETE FROM synced_bookmarks WHERE book_id = ? AND annotation_id = ?", [bookID, annotationID])
        }
    }

    /// A bookmark another device made, added here with the record of which annotation it is, in one transaction.
    @discardableResult
    public func addSyncedBookmark(_ bookmark: Bookmark, annotationID: String) throws -> Bookmark {
        try connection.transaction {
            let stored = try addBookmark(bookmark)
            try recordSyncedBookmark(bookID: bookmark.bookID, annotationID: annotationID, bookmarkID: stored.id)
            return stored
        }
    }

    /// A bookmark removed on another device, removed here with its record, in one transaction.
    public func removeSyncedBookmark(bookID: String, annotationID: String, bookmarkID: Int64) throws {
        try connection.transaction {
            try removeBookmark(id: bookmarkID)
            try forgetSyncedBookmark(bookID: bookID, annotationID: annotationID)
        }
    }

    /// This computer's name in annotations (`urn:uuid:…`), made once and kept.
    public func annotationDeviceID() throws -> String {
        if let id = try meta("annotations.device"), !id.isEmpty { return id }
        let id = "urn:uuid:" + UUID().uuidString.lowercased()
        try setMeta("annotations.device", id)
        return id
    }
}
