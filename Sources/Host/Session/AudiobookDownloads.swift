internal import ShelfLibrary
internal import ShelfReader
internal import ShelfCore
import Foundation
import Glibc

/// The remote audiobooks being downloaded and the state of each part, as `shelf downloads` and the browser app
/// show them. Safe from several threads: the store writes through the database's lock.
public struct AudiobookDownloads: Sendable {
    public let shelf: Shelf
    let store: DownloadStore

    /// Opens shelf's database; an error says why the downloads cannot be listed or recorded.
    public init(shelf: Shelf) throws {
        self.shelf = shelf
        store = DownloadStore(database: try shelf.openDatabase(losing: "downloads cannot be listed or recorded"))
    }

    /// Reads the audiobook manifest at `url` and makes its parts' downloader (`concurrency` parts at once), resuming
    /// any part an interrupted run left in the cache. Nothing downloads until the downloader is run.
    func remote(_ url: URL, concurrency: Int) throws -> RemoteAudiobook {
        try RemoteAudiobook(url: url, cache: shelf.directories?.cache, router: shelf.router, concurrency: concurrency)
    }

    /// Records the download and keeps each part's state up to date as it changes (`then` runs after each record).
    func track(_ remote: RemoteAudiobook, then: ((DownloadPart) -> Void)? = nil) {
        Self.track(remote, in: store, then: then)
    }

    static func track(_ remote: RemoteAudiobook, in store: DownloadStore, then: ((DownloadPart) -> Void)? = nil) {
        // The record only feeds `shelf downloads`; the download itself goes on without it.
        try? store.record(
            id: remote.id, manifestURL: remote.url, title: remote.book.title, directory: remote.directory, pid: getpid()
        )
        remote.downloader.onChange = { part in
            // As above: a part's state missing from the listing does not stop the part.
            try? store.update(id: remote.id, part: part)
            then?(part)
        }
    }

    /// Records every part's state as it is now (a resumed download starts with parts already whole).
    func recordParts(of remote: RemoteAudiobook) {
        // As in `track`: the listing may lag, the download does not.
        for part in remote.downloader.snapshot { try? store.update(id: remote.id, part: part) }
    }

    /// Downloads every part of the audiobook at `url` (`concurrency` at once) into the cache, resuming what an
    /// interrupted run left, and records each part's state for `shelf downloads`; `progress` sees each change of a
    /// part with the totals so far. Returns, when every part is whole or has failed or Ctrl-C stopped it, the book,
    /// where its parts are and each part's state (docs/json.md, `shelf fetch`).
    public func fetch(
        _ url: URL, concurrency: Int,
        progress: ((DownloadPart, (bytes: Int64, total: Int64?, complete: Int, count: Int)) -> Void)? = nil
    )
        throws -> FetchReport
    {
        let remote = try self.remote(url, concurrency: concurrency)
        track(remote) { part in progress?(part, remote.downloader.totals) }
        recordParts(of: remote)
        remote.downloader.run()
        return FetchReport(remote)
    }

    /// Hands `shelf fetch URL` to a shelf process of its own (its own session, so that it goes on after this
    /// command, the player or the terminal is gone), its output written to a log in the cache: the process and the
    /// log. An error when the log or the process cannot be made.
    public func fetchInBackground(_ url: URL, concurrency: Int) throws -> (pid: Int32, log: String) {
        let folder: String
        // A cache folder that cannot be made (or no folders at all) puts the log in the temporary folder, which the
        // patron is told; the download's own parts need the cache and say so in that log.
        if let directories = shelf.directories, (try? directories.createCache()) != nil {
            folder = directories.cache.path
        } else {
            folder = NSTemporaryDirectory()
        }
        let log = (folder as NSString).appendingPathComponent("fetch-\(getpid()).log")
        guard FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log)
        else {
            throw ShelfError(
                .ioError, "the background download's log cannot be written", subject: log,
                next: NextStep(
                    terminal: "Check that you may write there, or run `shelf fetch` without --background.",
                    browser: "Check that you may write there."))
        }
        let process = Process()
        let executable = shelf.executablePath
        let arguments = ["fetch", url.absoluteString, "--parallel", "\(concurrency)"]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = [executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process.processIdentifier, log)
    }

    /// Every download; a part left "downloading" by a process that is gone shows as paused (it resumes next time).
    public func all() throws -> [AudiobookDownloadJSON] {
        try store.all().map { d in
            let alive = d.pid.map { kill($0, 0) == 0 } ?? false
            // What resumes it, as typed: a loan's download (recorded under its book's id) is the loan's; any other,
            // the fetch of its manifest.
            let loan = ListeningSession.loan(of: try? store.database.shelfBook(id: d.id), database: store.database)
            let resume =
                loan.map { NextStep.resumeCommand(entryID: $0.entryID, account: $0.account) }
                ?? "`shelf fetch \(d.manifestURL)`"
            let parts = d.parts.map { p -> PartReport in
                var p = p
                if p.state == .downloading, !alive {
                    p.state = .paused; p.reason = "the download stopped; \(resume) resumes it"
                }
                return PartReport(p)
            }
            return AudiobookDownloadJSON(
                id: d.id, title: d.title, url: d.manifestURL, directory: d.directory, active: alive, parts: parts)
        }
    }
}
