import ShelfCore
import Foundation
import Glibc

/// An audiobook manifest downloaded from a library (`shelf download ID`) made whole on disk: every
/// track fetched by the part downloader into a folder next to it, and the manifest rewritten to
/// point at those files, so that `shelf play` plays it offline. The manifest as the library sent it
/// is kept in that folder (`manifest.json`).
///
/// A part refused with 401 or 403 makes `refresh` run: for a loan, that goes through the loan's
/// fulfil link again (a fresh manifest with fresh signed URLs), not only the manifest's own URL.
public enum AudiobookParts {
    /// The tracks of a manifest, in reading order (`readingOrder`, or the old `spine`), resolved
    /// against `base`. Nil when the data is not a manifest shelf can read this way.
    public static func trackURLs(_ data: Data, base: URL) -> [URL]? {
        // Nil is the answer for data that is not such a manifest (see above); callers say what they expected.
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let order = (root["readingOrder"] ?? root["spine"]) as? [Any], !order.isEmpty
        else { return nil }
        var urls: [URL] = []
        for item in order {
            guard let o = item as? [String: Any], let href = (o["href"] ?? o["url"]) as? String,
                let url = resolve(href, base: base)
            else { return nil }
            urls.append(url)
        }
        return urls
    }

    /// `href` without its fragment, absolute.
    static func resolve(_ href: String, base: URL) -> URL? {
        let bare =
            href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? href
        guard !bare.isEmpty, let url = URL(string: bare, relativeTo: base)?.absoluteURL else { return nil }
        return url
    }

    /// The folder the tracks of `manifest` go to: its path without the extension.
    public static func folder(for manifest: URL) -> URL {
        manifest.deletingPathExtension()
    }

    /// Downloads every track of the manifest at `file` (which came from `source`) into
    /// `folder(for: file)`, then rewrites `file` to point at them. Progress is reported in total.
    /// Throws when a part cannot be downloaded (what arrived stays, and the next run resumes it).
    ///
    /// With `arrived`, the book is listened to while it downloads: `file` names every track by its absolute address
    /// until the end (a player takes each part from the folder as it arrives, as it does a remote book's), and
    /// `arrived` is told of each part that is whole (from the downloader's thread), those already here first.
    @discardableResult
    public static func download(
        manifest file: URL, source: URL, client: HTTPClient, store: DownloadStore?, id: String, title: String,
        concurrency: Int = 3, refresh: (() throws -> (data: Data, url: URL))?,
        progress: ((DownloadProgress) -> Void)? = nil, arrived: ((Int) -> Void)? = nil
    ) throws -> [DownloadPart] {
        let data = try Data(contentsOf: file)
        guard let urls = trackURLs(data, base: source) else {
            throw ShelfError(
                .badData, "the audiobook manifest lists no tracks shelf can download", subject: source.absoluteString)
        }
        let directory = folder(for: file)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let original = directory.appendingPathComponent("manifest.json")
        try write(data, to: original)
        // Unchecked Sendable: written by the one refresh callback at a time (the downloader calls it under its lock), read after.
        final class Latest: @unchecked Sendable {
            var data: Data; var url: URL; init(_ d: Data, _ u: URL) { data = d; url = u }
        }
        let latest = Latest(data, source)
        let downloader = PartDownloader(
            manifestURL: source, trackURLs: urls, directory: directory, client: client, concurrency: concurrency)
        if let refresh {
            downloader.refreshURLs = {
                let fresh = try refresh()
                guard let urls = trackURLs(fresh.data, base: fresh.url) else {
                    throw ShelfError(
                        .badData, "the refreshed audiobook manifest lists no tracks", subject: fresh.url.absoluteString)
                }
                try write(fresh.data, to: original)
                latest.data = fresh.data
                latest.url = fresh.url
                return urls
            }
        }
        // The record only feeds `shelf downloads`; the download itself goes on without it (as AudiobookDownloads.track).
        try? store?.record(id: id, manifestURL: source, title: title, directory: directory, pid: getpid())
        if arrived != nil { try write(try remoteManifest(data, base: source), to: file) }
        let tick = NSLock()
        var last = Date.distantPast
        downloader.onChange = { part in
            // As above: the listing may lag, the download does not.
            try? store?.update(id: id, part: part)
            if part.state == .complete { arrived?(part.index) }
            guard let progress else { return }
            tick.lock()
            defer { tick.unlock() }
            guard Date().timeIntervalSince(last) > 0.1 || part.state != .downloading else { return }
            last = Date()
            let t = downloader.totals
            progress(DownloadProgress(bytesWritten: t.bytes, totalBytes: t.total))
        }
        // As above.
        for part in downloader.snapshot { try? store?.update(id: id, part: part) }
        for part in downloader.snapshot where part.state == .complete { arrived?(part.index) }
        downloader.run()
        let parts = downloader.snapshot
        let missing = parts.filter { $0.state != .complete }
        guard missing.isEmpty else {
            let reasons = missing.prefix(3).map { "part \($0.index + 1): \($0.reason ?? $0.state.rawValue)" }.joined(
                separator: "; ")
            throw ShelfError(
                .temporary, "\(missing.count) of \(parts.count) parts of \(title) could not be downloaded (\(reasons))",
                subject: source.absoluteString,
                hint: "Run the download again: what arrived is kept and the rest resumes.")
        }
        let rewritten = try localManifest(
            latest.data, base: latest.url, parts: parts, folderName: directory.lastPathComponent)
        try write(rewritten, to: file)
        return parts
    }

    /// The manifest with every href that names a track (in the reading order, the TOC or anywhere
    /// else, fragment kept) pointing at its downloaded file, relative to the manifest.
    static func localManifest(_ data: Data, base: URL, parts: [DownloadPart], folderName: String) throws -> Data {
        try rewritten(data, base: base) { i, _ in
            parts.indices.contains(i) ? folderName + "/" + parts[i].destination.lastPathComponent : nil
        }
    }

    /// The manifest with every href that names a track made absolute (fragment kept), so that the file, read where it
    /// is kept, names the tracks on the network until they are here.
    static func remoteManifest(_ data: Data, base: URL) throws -> Data {
        try rewritten(data, base: base) { _, url in url.absoluteString }
    }

    /// The manifest with the href of each track (by its index in the reading order and its address) replaced by
    /// what `place` gives, when it gives one.
    private static func rewritten(_ data: Data, base: URL, place: (Int, URL) -> String?) throws -> Data {
        guard var root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let urls = trackURLs(data, base: base)
        else {
            throw ShelfError(.badData, "the audiobook manifest cannot be rewritten", subject: base.absoluteString)
        }
        var local: [String: String] = [:]
        for (i, url) in urls.enumerated() { local[url.absoluteString] = place(i, url) }
        func rewrite(_ value: Any) -> Any {
            if let array = value as? [Any] { return array.map(rewrite) }
            guard var o = value as? [String: Any] else { return value }
            for (key, v) in o {
                if (key == "href" || key == "url"), let href = v as? String, let url = resolve(href, base: base),
                    let path = local[url.absoluteString]
                {
                    let fragment = href.firstIndex(of: "#").map { String(href[$0...]) } ?? ""
                    o[key] = path + fragment
                } else {
                    o[key] = rewrite(v)
                }
            }
            return o
        }
        // The self link would make the manifest's relative hrefs resolve against the library again.
        if let links = root["links"] as? [[String: Any]] {
            root["links"] = links.filter { link in
                let rel = link["rel"]
                return !((rel as? String) == "self" || ((rel as? [String])?.contains("self") ?? false))
            }
        }
        root = rewrite(root) as? [String: Any] ?? root
        return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
    }

    static func write(_ data: Data, to file: URL) throws {
        let temp = file.path + ".tmp"
        do {
            try data.write(to: URL(fileURLWithPath: temp))
            guard rename(temp, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw ShelfError(
                .ioError, "cannot store the audiobook manifest (\(error.localizedDescription))", subject: file.path)
        }
    }
}
