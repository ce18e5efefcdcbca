import Foundation
import Readium
import ShelfValues

public enum Chapters {
    /// The TOC flattened in reading order; entries whose href is not a track are left out. A book
    /// without a TOC gets one chapter per track.
    public static func from(_ manifest: Manifest) -> [Chapter] {
        let hrefs = manifest.readingOrder.map { Chapter.stripFragment($0.href) }
        var out: [Chapter] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                if let track = hrefs.firstIndex(of: Chapter.stripFragment(link.href))
                    ?? hrefs.firstIndex(where: {
                        ($0.removingPercentEncoding ?? $0)
                            == (Chapter.stripFragment(link.href).removingPercentEncoding ?? "")
                    })
                {
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
