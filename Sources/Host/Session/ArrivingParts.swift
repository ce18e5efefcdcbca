internal import ShelfLibrary
internal import ShelfPlayback
import Foundation
import Glibc

/// The parts of a book on the shelf that may arrive while it plays: a loan's audiobook listened to as it downloads
/// (its manifest names the tracks by their addresses until the download ends, and the parts go to the folder beside
/// it, `AudiobookParts.folder`), or a remote book's manifest kept in the cache (the parts beside it). A part found
/// whole there is adopted as its track's file, when the book opens and whenever a player asks for the track; the
/// download's record (the one `shelf downloads` reads) says how far the others are.
///
/// Unchecked Sendable: the book adopts files under its own lock; the last bytes seen are kept under `lock`.
final class ArrivingParts: @unchecked Sendable {
    let book: AudioBook
    /// Where the parts are looked for.
    let folders: [URL]
    /// The download's record, named by the shelf's id of the book (a loan's download is recorded under it).
    let downloadID: String?
    let store: DownloadStore
    /// The loan whose download brings the parts, as a command names it (nil for a remote book's manifest).
    let loan: PartsArriving.Loan?

    private let lock = NSLock()
    private var lastBytes: Int64 = -1
    private var lastByteAt = Date()

    /// No byte for this long and the rest is said to be waiting for the library (as a download's progress is).
    static let stall: TimeInterval = 3

    /// Nil for a book whose tracks are all its own (nothing arrives).
    init?(book: AudioBook, cache: URL?, downloadID: String?, store: DownloadStore, loan: PartsArriving.Loan? = nil) {
        let manifest = URL(fileURLWithPath: book.input.path).standardizedFileURL
        var folders: [URL] = []
        if book.tracks.contains(where: \.isRemote) { folders.append(AudiobookParts.folder(for: manifest)) }
        // A remote book's manifest in the cache (`<cache>/audiobooks/<key>/manifest.json`) has its parts beside it,
        // stored under the downloader's names while the manifest names the publisher's files (relative or not).
        if let cache,
            manifest.deletingLastPathComponent().deletingLastPathComponent().path
                == cache.appendingPathComponent("audiobooks").standardizedFileURL.path
        {
            folders.append(manifest.deletingLastPathComponent())
        }
        guard !folders.isEmpty else { return nil }
        (self.book, self.folders, self.downloadID, self.store, self.loan) = (book, folders, downloadID, store, loan)
    }

    /// Whether track `index` can play: its part whole in one of the folders (adopted then), or a track of the
    /// book's own.
    func isHere(_ index: Int) -> Bool {
        book.localFile(index) != nil || adopt(index) || !book.tracks[index].isRemote
    }

    /// Adopts track `index`'s part when it is whole in one of the folders.
    private func adopt(_ index: Int) -> Bool {
        let track = book.tracks[index]
        guard
            let url = URL(string: track.href)
                ?? URL(string: track.href.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
        else { return false }
        for folder in folders {
            let part = PartDownloader.destination(of: index, url: url, in: folder)
            if FileManager.default.fileExists(atPath: part.path) {
                book.adoptLocalFile(part.path, track: index)
                return true
            }
        }
        return false
    }

    /// Whether any track can play yet.
    var anyHere: Bool { book.tracks.indices.contains(where: isHere) }

    /// The download's record, as `shelf downloads` reads it; nil when there is none (or it cannot be read: the
    /// listing may lag behind the parts, written as they go, and is then taken as saying nothing yet).
    private var record: DownloadStore.Download? {
        downloadID.flatMap { id in (try? store.all())?.first { $0.id == id } }
    }

    /// What is wrong with a part whose download gave up or stopped, in the words a player says after the track's
    /// name; nil while it may still arrive (as a remote book's, `ListeningSession.failure`).
    func failure(of index: Int) -> String? {
        guard !isHere(index), let record, let part = record.parts.first(where: { $0.index == index }) else {
            return nil
        }
        if part.state == .failed { return "cannot be downloaded (\(part.reason ?? "unknown reason"))" }
        return Self.isRunning(record) ? nil : "has not arrived, as its download stopped"
    }

    /// Whether a download goes on: its process is alive and a part is still on its way (not one that gave up or
    /// was paused).
    static func isRunning(_ record: DownloadStore.Download) -> Bool {
        (record.pid.map { kill($0, 0) == 0 } ?? false)
            && record.parts.contains { $0.state == .queued || $0.state == .downloading }
    }

    /// How far the parts have arrived; nil once every part is here.
    func report() -> PartsArriving? {
        let here = book.tracks.indices.filter(isHere).count
        guard here < book.tracks.count else { return nil }
        let record = self.record
        let rest = (record?.parts ?? []).filter { $0.state != .complete }
        let bytes = rest.reduce(Int64(0)) { $0 + $1.bytes }
        let total: Int64? =
            rest.isEmpty || rest.contains { $0.total == nil } ? nil : rest.reduce(Int64(0)) { $0 + ($1.total ?? 0) }
        let running = record.map(Self.isRunning) ?? false
        let waiting = lock.withLock {
            if bytes != lastBytes { (lastBytes, lastByteAt) = (bytes, Date()) }
            return Date().timeIntervalSince(lastByteAt) >= Self.stall
        }
        return PartsArriving(
            here: here, count: book.tracks.count, bytes: bytes, total: total, waiting: running && waiting,
            stopped: !running, loan: loan)
    }
}
