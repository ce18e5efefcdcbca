import Foundation
import PluginKit

/// Where a track's bytes are.
enum TrackSource: Hashable {
    case file(String)  // an absolute local path
    case zipEntry(String)  // an entry of the package the publication was opened from
    case remote(URL)  // not here: the host downloads it and passes the file to the decoder
}

struct Track {
    /// The href as written in the output manifest (relative for local books, absolute for remote).
    var href: String
    var source: TrackSource
    var type: String?
    var title: String?
    /// Seconds: measured for local tracks, the manifest's for remote ones until measured.
    var duration: Double?
    var bitrate: Double?
    var properties: [String: JSONValue]?
}

struct TocEntry {
    var title: String?
    var trackIndex: Int
    var offset: Double
    var children: [TocEntry]
}

/// An audiobook as every input form becomes it, before it is written as a WebPub manifest.
struct BookModel {
    var title: String
    var authors: [String] = []
    var narrators: [String] = []
    var identifier: String?
    var language: [String] = []
    var publisher: String?
    var extraMetadata: [String: JSONValue] = [:]
    var tracks: [Track]
    var toc: [TocEntry] = []
    var links: [Link] = []
    var resources: [Link] = []

    func manifest() -> Manifest {
        var metadata: [String: JSONValue] = extraMetadata
        metadata["@type"] = .string("http://schema.org/Audiobook")
        metadata["conformsTo"] = .string("https://readium.org/webpub-manifest/profiles/audiobook")
        metadata["title"] = .string(title)
        if !authors.isEmpty { metadata["author"] = .array(authors.map { .string($0) }) }
        if !narrators.isEmpty { metadata["narrator"] = .array(narrators.map { .string($0) }) }
        if let identifier { metadata["identifier"] = .string(identifier) }
        if language.count == 1 { metadata["language"] = .string(language[0]) }
        if language.count > 1 { metadata["language"] = .array(language.map { .string($0) }) }
        if let publisher { metadata["publisher"] = .string(publisher) }
        let durations = tracks.compactMap(\.duration)
        if durations.count == tracks.count, !durations.isEmpty {
            metadata["duration"] = .number(Self.rounded(durations.reduce(0, +)))
        }
        let order = tracks.map { t -> Link in
            var props = t.properties
            if case .remote = t.source {
                props = props ?? [:]
                props?["shelf:remote"] = .bool(true)
            }
            return Link(
                href: t.href, type: t.type ?? "audio/mpeg", title: t.title, properties: props,
                duration: t.duration.map(Self.rounded))
        }
        return Manifest(
            metadata: metadata, links: links, readingOrder: order,
            resources: resources.isEmpty ? nil : resources, toc: toc.isEmpty ? nil : tocLinks(toc))
    }

    private func tocLinks(_ entries: [TocEntry]) -> [Link] {
        entries.compactMap { e in
            guard tracks.indices.contains(e.trackIndex) else { return nil }
            let t = tracks[e.trackIndex]
            let kids = tocLinks(e.children)
            return Link(
                href: t.href + "#t=" + Self.fragmentTime(e.offset), type: t.type ?? "audio/mpeg",
                title: e.title, children: kids.isEmpty ? nil : kids)
        }
    }

    static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Media-fragment seconds with at most three decimals: "0", "12.5", "3600.125".
    static func fragmentTime(_ seconds: Double) -> String {
        let ms = Int64((max(0, seconds.isFinite ? seconds : 0) * 1000).rounded())
        let whole = ms / 1000, frac = ms % 1000
        if frac == 0 { return "\(whole)" }
        var f = String(format: "%03lld", frac)
        while f.hasSuffix("0") { f.removeLast() }
        return "\(whole).\(f)"
    }

    /// "#t=12.5", "#t=npt:12.5", "#t=00:01:02.5", "#t=12,20": the start in seconds.
    static func fragmentSeconds(_ href: String) -> Double? {
        guard let hash = href.firstIndex(of: "#") else { return nil }
        let fragment = href[href.index(after: hash)...]
        for part in fragment.split(separator: "&") where part.hasPrefix("t=") {
            var value = part.dropFirst(2)
            if value.hasPrefix("npt:") { value = value.dropFirst(4) }
            let start = value.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
            let pieces = start.split(separator: ":").map { Double($0) }
            guard !pieces.isEmpty, pieces.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { return nil }
            return pieces.reduce(0.0) { $0 * 60 + $1! }
        }
        return nil
    }

    static func stripFragment(_ href: String) -> String {
        href.firstIndex(of: "#").map { String(href[..<$0]) } ?? href
    }

    /// One entry per track when a book has no table of contents of its own.
    mutating func tocFromTracks() {
        toc = tracks.indices.map {
            TocEntry(title: tracks[$0].title ?? "Track \($0 + 1)", trackIndex: $0, offset: 0, children: [])
        }
    }
}
