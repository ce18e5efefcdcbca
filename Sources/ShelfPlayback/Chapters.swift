import Foundation
import Readium
import ShelfValues

public enum Chapters {
    /// The TOC flattened in reading order; entries whose href is not a track are left out. A book
    /// without a TOC gets one chapter per track.
    public static func from(_ manifest: Manifest) -> [Chapter] {
        // The first track of each href, as written and decoded: a book read aloud has hundreds of tracks and
        // entries, and looking through the tracks for each entry took longer than the rest of opening it.
        var tracks: [String: Int] = [:]
        var decoded: [String: Int] = [:]
        for (i, link) in manifest.readingOrder.enumerated() {
            let href = Chapter.stripFragment(link.href)
            if tracks[href] == nil { tracks[href] = i }
            if decoded[href.removingPercentEncoding ?? href] == nil {
                decoded[href.removingPercentEncoding ?? href] = i
            }
        }
        var out: [Chapter] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                let href = Chapter.stripFragment(link.href)
                if let track = tracks[href] ?? href.removingPercentEncoding.flatMap({ decoded[$0] }) {
                    out.append(
                        Chapter(
                            index: out.count, title: link.title ?? "Chapter \(out.count + 1)", depth: depth,
                            track: track, offset: fragmentSeconds(link.href) ?? 0, href: link.href))
                }
                if depth < 16 { walk(link.children ?? [], depth: depth + 1) }
            }
        }
        walk(manifest.toc ?? [], depth: 0)
        if out.isEmpty {
            out = manifest.readingOrder.enumerated().map { i, l in
                Chapter(index: i, title: l.title ?? "Track \(i + 1)", depth: 0, track: i, offset: 0, href: l.href)
            }
        }
        // Reading order: by track, then by time; a stable sort keeps parents before children at one time.
        let sorted = out.enumerated().sorted { a, b in
            (a.element.track, a.element.offset, a.offset) < (b.element.track, b.element.offset, b.offset)
        }.map(\.element)
        return sorted.enumerated().map { i, c in
            Chapter(index: i, title: c.title, depth: c.depth, track: c.track, offset: c.offset, href: c.href)
        }
    }

    /// "#t=12.5", "#t=npt:1:02.5", "#t=12,20": the start in seconds.
    public static func fragmentSeconds(_ href: String) -> Double? {
        guard let hash = href.firstIndex(of: "#") else { return nil }
        for part in href[href.index(after: hash)...].split(separator: "&") where part.hasPrefix("t=") {
            var value = part.dropFirst(2)
            if value.hasPrefix("npt:") { value = value.dropFirst(4) }
            let start = value.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
            let pieces = start.split(separator: ":").map { Double($0) }
            guard !pieces.isEmpty, pieces.allSatisfy({ ($0 ?? -1) >= 0 && $0!.isFinite }) else { return nil }
            return pieces.reduce(0.0) { $0 * 60 + $1! }
        }
        return nil
    }
}
