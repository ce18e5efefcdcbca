import Foundation

extension LibraryDatabase {
    /// Forgets the cached copy of a feed (a full answer without validators replaced it).
    public func deleteCachedFeed(url: String) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM cached_feeds WHERE url = ?", [url])
        }
    }
}
