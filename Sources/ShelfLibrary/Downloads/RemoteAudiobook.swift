import ShelfPlugins
import ShelfPlayback
import ShelfCore
import Foundation
import Glibc

/// An audiobook whose manifest is on the network: the manifest fetched afresh (it may hold
/// signed URLs that expire, so it is never trusted from cache while the network answers), its
/// tracks downloaded as parts into `<cache>/audiobooks/<key>/`, and an AudioBook over it that
/// plays each part as soon as it is whole.
public final class RemoteAudiobook: Sendable {
    public let url: URL
    public let directory: URL
    public let manifestFile: URL
    public let book: AudioBook
    public let downloader: PartDownloader
    public let id: String

    /// Fetches the manifest and prepares the downloader (nothing else is downloaded yet) in `cache` (shelf's cache
    /// folder; nil without one). `router` (the facade's, whose plugins load on first use) opens the manifest.
    public init(
        url: URL, cache: URL?, router: @autoclosure () -> FormatRouter, client: HTTPClient = HTTPClient(),
        concurrency: Int = 3
    ) throws {
        self.url = url
        guard let cache else {
            throw ShelfError(
                .ioError, "shelf has no cache folder to download into", subject: url.absoluteString,
                hint: "Set HOME or SHELF_HOME.")
        }
        id = Self.key(url)
        directory = cache.appendingPathComponent("audiobooks").appendingPathComponent(id)
        manifestFile = directory.appendingPathComponent("manifest.json")
        // Without the folder, writing the manifest below fails and says where.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try Self.fetchManifest(url, to: manifestFile, client: client)
        } catch {
            // Offline: a manifest fetched before still plays what was downloaded.
            guard FileManager.default.fileExists(atPath: manifestFile.path) else { throw Self.shelfError(error, url) }
        }
        let router = router()
        book = try AudioBook(path: manifestFile.path, uri: url.absoluteString, router: router)
        let urls = try Self.trackURLs(book)
        downloader = PartDownloader(
            manifestURL: url, trackURLs: urls, directory: directory, client: client, concurrency: concurrency)
        let (manifestURL, manifestFile) = (url, manifestFile)
        downloader.refreshURLs = {
            try Self.fetchManifest(manifestURL, to: manifestFile, client: client)
            let fresh = try AudioBook(path: manifestFile.path, uri: manifestURL.absoluteString, router: router)
            return try Self.trackURLs(fresh)
        }
        for part in downloader.snapshot where part.state == .complete {
            book.adoptLocalFile(part.destination.path, track: part.index)
        }
    }

    /// Marks the parts that are whole as playable files of the book; returns the indices newly added. Safe from
    /// any thread (the downloader's, as parts arrive, and the player's).
    @discardableResult
    public func adoptCompletedParts() -> [Int] {
        downloader.snapshot.filter {
            $0.state == .complete && book.adoptLocalFile($0.destination.path, track: $0.index)
        }.map(\.index)
    }

    /// The `.part` file of a part still downloading (or left by an interrupted run), once it holds enough to start
    /// playing from (GrowingTrack); nil when the part is whole, failed or has too little yet.
    public func growingFile(_ index: Int) -> String? {
        downloader.snapshot.first(where: { $0.index == index }).flatMap(Self.growingFile)
    }

    /// The file a part still on its way can play from: what it has written so far (`.part`), or, in the moment
    /// between the rename that makes it whole and its state saying so, the whole file, which is then where the
    /// `.part` was (a book started at that moment was refused: "no track of this audiobook has been downloaded yet").
    static func growingFile(of part: DownloadPart) -> String? {
        guard part.state != .complete, part.state != .failed else { return nil }
        return [part.destination.path + ".part", part.destination.path].first {
            GrowingTrack.size($0) >= GrowingTrack.minimumBytes
        }
    }

    static func trackURLs(_ book: AudioBook) throws -> [URL] {
        try book.tracks.map { t in
            guard t.isRemote, let u = URL(string: t.href) else {
                throw ShelfError(
                    .badData, "track \(t.index + 1) of the remote audiobook is not a URL (\(t.href))",
                    subject: book.input.uri)
            }
            return u
        }
    }

    static func fetchManifest(_ url: URL, to file: URL, client: HTTPClient) throws {
        let response = try client.send(HTTPRequest(.get, url))
        guard (200..<300).contains(response.status) else {
            throw ShelfError(
                .unavailable, "the server answered \(response.status) for the audiobook manifest",
                subject: url.absoluteString)
        }
        // A manifest is a JSON object. Anything else (a maintenance page with 200, an answer cut short) must not take
        // the place of one fetched before: that one still plays the parts already downloaded.
        guard (try? JSONSerialization.jsonObject(with: response.body)) is [String: Any] else {
            let type = response.headers["Content-Type"].map { " (\($0))" } ?? ""
            throw ShelfError(
                .temporary, "the server answered something that is not an audiobook manifest\(type)",
                subject: url.absoluteString,
                hint:
                    "Servers answer so while busy or down for maintenance: try again later; if it lasts, check the address."
            )
        }
        let temp = file.appendingPathExtension("tmp")
        try response.body.write(to: temp)
        guard rename(temp.path, file.path) == 0 else {
            throw ShelfError(.ioError, "cannot store the audiobook manifest", subject: file.path)
        }
    }

    static func shelfError(_ error: Error, _ url: URL) -> Error {
        if error is ShelfError { return error }
        return ShelfError(
            .temporary, "the audiobook manifest cannot be fetched (\(error))", subject: url.absoluteString,
            hint: "Check the network and try again.")
    }

    /// The URL without its query (signed URLs change it every time), hashed.
    static func key(_ url: URL) -> String {
        var c = URLComponents(url: url, resolvingAgainstBaseURL: false)
        c?.query = nil
        c?.fragment = nil
        let text = c?.string ?? url.absoluteString
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(format: "%016llx", hash)
    }
}
