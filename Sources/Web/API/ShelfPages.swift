import Foundation
import Host

/// The shelf's pages as last answered, kept while the library database is unchanged. My Books asks for the shelf
/// on every visit, and reading 50 books and encoding them took a few milliseconds of CPU an answer (most of it
/// JSONEncoder), which a loaded machine turns into long waits; an unchanged shelf is now answered with the bytes
/// of last time.
///
/// Whether the shelf is unchanged is the host's to say (`Bookshelf.changeStamp()`), read before the shelf is.
/// Unchecked Sendable: the pages kept and their version are read and written under `lock`.
final class ShelfPages: @unchecked Sendable {
    private let lock = NSLock()
    private var version: ShelfChangeStamp?
    private var pages: [String: Data] = [:]

    func response(for request: WebRequest, bookshelf: Bookshelf) throws -> WebResponse {
        let now = try bookshelf.changeStamp()
        let key = (request.query["limit"] ?? "") + "\n" + (request.query["cursor"] ?? "")
        if let kept = lock.withLock({ version == now ? pages[key] : nil }) { return .json(kept) }
        let response = try Paging.response(try bookshelf.books().map(ShelfBookJSON.init), for: request)
        if let bytes = response.bytes {
            lock.withLock {
                if version != now {
                    version = now
                    pages = [:]
                }
                pages[key] = bytes
            }
        }
        return response
    }
}
