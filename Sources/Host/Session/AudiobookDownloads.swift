import Foundation
import Glibc

/// The remote audiobooks being downloaded and the state of each part, as `shelf downloads` and the browser app
/// show them. Safe from several threads: the store writes through the database's lock.
public struct AudiobookDownloads {
    public let shelf: Shelf
    public let store: DownloadStore

    /// Opens shelf's database; an error says why the downloads cannot be listed or recorded.
    public init(shelf: Shelf) throws {
        self.shelf = shelf
        store = DownloadStore(database: try shelf.openDatabase(losing: "downloads cannot be listed or recorded"))
    }

    /// Reads the audiobook manifest at `url` and makes its parts' downloader (`concurrency` parts at once), resuming
    /// any part an interrupted run left in the cache. Nothing downloads until the downloader is run.
    public func remote(_ url: URL, concurrency: Int) throws -> RemoteAudiobook {
        try RemoteAudiobook(url: url, shelf: shelf, concurrency: concurrency)
    }

    /// Records the download and keeps each part's state up to date as it changes (`then` runs after each record).
    public func track(_ remote: RemoteAudiobook, then: ((PartDownloader.Part) -> Void)? = nil) {
        Self.track(remote, in: store, then: then)
    }

    static func track(_ remote: RemoteAudiobook, in store: DownloadStore, then: ((PartDownloader.Part) -> Void)? = nil) {
        // The record only feeds `shelf downloads`; the download itself goes on without it.
        try? store.record(id: remote.id, manifestURL: remote.url, title: remote.book.title, directory: remote.directory, pid: getpid())
        remote.downloader.onChange = { part in
            // As above: a part's state missing from the listing does not stop the part.
            try? store.update(id: remote.id, part: part)
            then?(part)
        }
    }

    /// Records every part's state as it is now (a resumed download starts with parts already whole).
    public func recordParts(of remote: RemoteAudiobook) {
        // As in `track`: the listing may lag, the download does not.
        for part in remote.downloader.snapshot { try? store.update(id: remote.id, part: part) }
    }

    /// Every download; a part left "downloading" by a process that is gone shows as paused (it resumes next time).
    public func all() throws -> [AudiobookDownloadJSON] {
        try store.all().map { d in
            let alive = d.pid.map { kill($0, 0) == 0 } ?? false
            let parts = d.parts.map { p -> PartReport in
                var p = p
                if p.state == .downloading, !alive { p.state = .paused; p.reason = "the download stopped; `shelf fetch` resumes it" }
                return PartReport(p)
            }
            return AudiobookDownloadJSON(id: d.id, title: d.title, url: d.manifestURL, directory: d.directory, active: alive, parts: parts)
        }
    }
}
