import ShelfCore
/// The library database's tables for audiobook part downloads (issue 4), appended to
/// `LibrarySchema.migrations` as one step. One row per remote audiobook, one per part, so that
/// `shelf downloads` can tell every part's state after the player (or the fetching process) is gone.
enum DownloadSchema {
    static let step = SchemaMigration("audiobook part downloads", sql: sql)

    private static let sql = """
        CREATE TABLE audio_downloads (
            id            TEXT PRIMARY KEY NOT NULL,
            manifest_url  TEXT NOT NULL,
            title         TEXT NOT NULL,
            directory     TEXT NOT NULL,
            pid           INTEGER,
            created_at    INTEGER NOT NULL,
            updated_at    INTEGER NOT NULL
        );
        CREATE TABLE audio_download_parts (
            download_id   TEXT NOT NULL REFERENCES audio_downloads(id) ON DELETE CASCADE,
            part_index    INTEGER NOT NULL CHECK (part_index >= 0),
            url           TEXT NOT NULL,
            path          TEXT NOT NULL,
            state         TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'paused', 'failed', 'complete')),
            bytes         INTEGER NOT NULL DEFAULT 0,
            total         INTEGER,
            reason        TEXT,
            updated_at    INTEGER NOT NULL,
            PRIMARY KEY (download_id, part_index)
        );
        """
}
