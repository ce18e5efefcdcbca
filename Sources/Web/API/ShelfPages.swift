import Foundation
import Host

/// The shelf's pages as last answered, kept while the library database is unchanged. My Books asks for the shelf
/// on every visit, and reading 50 books and encoding them took a few milliseconds of CPU an answer (most of it
/// JSONEncoder), which a loaded machine turns into long waits; an unchanged shelf is now answered with the bytes
/// of last time.
///
/// The database is unchanged while two numbers are: `PRAGMA data_version`, which moves when another connection
/// commits (the command line, the library session, a listening session), and `total_changes()`, this connection's
/// own changes. Both are read before the shelf is, so a change made meanwhile only costs the next answer a miss.
final class ShelfPages: @unchecked Sendable {
    private struct Version: Equatable {
        let others: Int64
        let own: Int64
    }

    private let lock = NSLock()
    private var version: Version?
    private var pages: [String: Data] = [:]

    func response(for request: WebRequest, database: LibraryDatabase) throws -> WebResponse {
        let now = Version(others: try database.connection.scalar("PRAGMA data_version") ?? 0,
                          own: try database.connection.scalar("SELECT total_changes()") ?? 0)
        let key = (request.query["limit"] ?? "") + "\n" + (request.query["cursor"] ?? "")
        if let kept = lock.withLock({ version == now ? pages[key] : nil }) { return .json(kept) }
        let response = try Paging.response(try database.shelfBooks().map(ShelfBookJSON.init), for: request)
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
