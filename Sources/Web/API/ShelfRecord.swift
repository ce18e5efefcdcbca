import Foundation
import Host

/// A book on the shelf by library id, read in process, with its record as the API answers it (docs/json.md,
/// ShelfBook). The reader and the player both start from it.
enum ShelfRecord {
    static func find(_ id: String, in app: WebApp) throws -> (book: ShelfBook, record: ShelfBookJSON) {
        guard let book = try app.bookshelf().book(id: id) else {
            throw WebError(404, RequestProblem.notOnShelf(id: id), kind: "not-found")
        }
        return (book, ShelfBookJSON(book))
    }
}
