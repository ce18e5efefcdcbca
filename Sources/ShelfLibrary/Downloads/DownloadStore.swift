import ShelfCore
import Foundation

/// Audiobook downloads as the library database keeps them (see DownloadSchema).
public final class DownloadStore: Sendable {
    public let database: LibraryDatabase
    public init(database: LibraryDatabase) { self.database = database }

    public struct Download: Sendable, Equatable {
        public var id: String
        public var manifestURL: String
        public var title: String
        public var directory: String
        public var pid: Int32?
        public var parts: [DownloadPart]
    }

    public func record(id: String, manifestURL: URL, title: String, directory: URL, pid: Int32?) throws {
        let now = Date().databaseMilliseconds
        try database.connection.transaction {
            try database.connection.execute(
                """
                INSERT INTO audio_downloads (id, manifest_url, title, directory, pid, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET manifest_url = excluded.manifest_url, title = excluded.title,
                    directory = excluded.directory, pid = excluded.pid, updated_at = excluded.updated_at
                """, [id, manifestURL.absoluteString, title, directory.path, pid.map { Int64($0) }, now, now])
        }
    }

    public func update(id: String, part: DownloadPart) throws {
        let now = Date().databaseMilliseconds
        try database.connection.transaction {
            try database.connection.execute(
                """
                INSERT INTO audio_download_parts (download_id, part_index, url, path, state, bytes, total, reason, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (download_id, part_index) DO UPDATE SET url = excluded.url, path = excluded.path,
                    state = excluded.state, bytes = excluded.bytes, total = excluded.total, reason = excluded.reason,
                    updated_at = excluded.updated_at
                """,
                [
                    id, Int64(part.index), Self.redacted(part.url), part.destination.path, part.state.rawValue,
                    part.bytes,
                    part.total, part.reason, now
                ])
            try database.connection.execute("UPDATE audio_downloads SET updated_at = ? WHERE id = ?", [now, id])
        }
    }

    /// Signed URLs carry secrets in their query: keep only the path.
    static func redacted(_ url: URL) -> String {
        guard var c = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        if c.query != nil { c.query = "…" }
        c.user = nil
        c.password = nil
        return c.string ?? url.absoluteString
    }

    public func all() throws -> [Download] {
        let rows = try database.connection.query(
            "SELECT id, manifest_url, title, directory, pid FROM audio_downloads ORDER BY created_at, id")
        return try rows.map { row in
            let id: String = try row.get("id")
            let pid: Int64? = try row.get("pid")
            let partRows = try database.connection.query(
                """
                SELECT part_index, url, path, state, bytes, total, reason FROM audio_download_parts
                WHERE download_id = ? ORDER BY part_index
                """, [id])
            let parts = try partRows.map { p -> DownloadPart in
                let stateText: String = try p.get("state")
                let path: String = try p.get("path")
                let urlText: String = try p.get("url")
                return DownloadPart(
                    index: Int(try p.get("part_index", as: Int64.self)),
                    url: URL(string: urlText) ?? URL(fileURLWithPath: "/"),
                    destination: URL(fileURLWithPath: path),
                    state: DownloadPart.State(rawValue: stateText) ?? .failed,
                    bytes: try p.get("bytes"), total: try p.get("total"), reason: try p.get("reason"))
            }
            return Download(
                id: id, manifestURL: try row.get("manifest_url"), title: try row.get("title"),
                directory: try row.get("directory"), pid: pid.map { Int32(truncatingIfNeeded: $0) }, parts: parts)
        }
    }
}
