import Foundation

extension LibraryDatabase {
    /// Whether a copy of the feed at `url` is cached.
    public func hasCachedFeed(url: String) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM cached_feeds WHERE url = ?", [url], as: Int.self) ?? 0 > 0
    }

    /// Forgets the cached copy of a feed (a full answer without validators replaced it).
    public func deleteCachedFeed(url: String) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM cached_feeds WHERE url = ?", [url])
        }
    }
}
