internal import ShelfCore
internal import ShelfLibrary
import Foundation

// Notifications another process made (`shelf watch`, `shelf sync` beside `shelf serve`), for a front end that must
// pass them on while it runs: a stamp cheap enough to read every second or two, and the notifications after the
// last one passed on.

extension LibrarySession {
    /// Changes other connections (other processes) committed to the library database: equal stamps, nothing new
    /// from elsewhere (SQLite's `data_version`, read on this session's own connection).
    public func othersChangeStamp() throws -> Int64 {
        try database.connection.scalar("PRAGMA data_version") ?? 0
    }

    /// The highest notification number so far (0 with none).
    public func newestNotificationID() throws -> Int64 {
        try database.connection.scalar("SELECT COALESCE(MAX(id), 0) FROM notifications") ?? 0
    }

    /// The notifications numbered above `id`, oldest first, withdrawn ones included (a front end shows what it is
    /// told; one withdrawn already is said as it stands).
    public func notifications(after id: Int64) throws -> [NotificationRecord] {
        try database.notifications(includeWithdrawn: true).filter { $0.id > id }.sorted { $0.id < $1.id }
    }
}
