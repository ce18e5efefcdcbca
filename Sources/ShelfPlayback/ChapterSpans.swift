import Foundation
import ShelfValues
import Readium

/// Where each entry of an audiobook's table of contents starts on the book's timeline and how long it lasts, from
/// the tracks' durations and the entries' `#t=` fragments: an entry lasts until the next one that is not inside it
/// (a part holds its chapters), the last until the end of the book. For `shelf toc` and its --json.
public enum ChapterSpans {
    public struct Span: Equatable, Sendable {
        public let start: Double
        public let duration: Double
    }

    /// The spans of `manifest.toc` in its own order (depth first), nil for an entry that names no track; empty when
    /// a track's duration is unknown (no start could be placed).
    public static func of(_ manifest: Manifest) -> [Span?] {
        var trackStarts: [String: Double] = [:]
        var total = 0.0
        for item in manifest.readingOrder {
            guard let d = item.duration else { return [] }
            trackStarts[trackKey(item.href)] = trackStarts[trackKey(item.href)] ?? total
            total += d
        }
        var entries: [(depth: Int, start: Double?)] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                let start = trackStarts[trackKey(link.href)].map { $0 + (Chapters.fragmentSeconds(link.href) ?? 0) }
                entries.append((depth, start.map { min($0, total) }))
                if depth < 16 { walk(link.children ?? [], depth: depth + 1) }
            }
        }
        walk(manifest.toc ?? [], depth: 0)
        return entries.indices.map { i in
            guard let start = entries[i].start else { return nil }
            let next = entries[(i + 1)...].first { $0.depth <= entries[i].depth && ($0.start ?? -1) >= start }
            let end = next?.start ?? total
            return Span(start: start, duration: max(0, end - start))
        }
    }

    /// The table of contents with each entry's length as its `duration` (seconds, as Readium links say it).
    public static func annotatedTOC(_ manifest: Manifest) -> [Link] {
        let spans = of(manifest)
        var i = 0
        func walk(_ links: [Link], depth: Int) -> [Link] {
            links.map { link in
                var out = link
                if spans.indices.contains(i), let span = spans[i] {
                    out.duration = (span.duration * 1000).rounded() / 1000
                }
                i += 1
                if depth < 16, let children = link.children { out.children = walk(children, depth: depth + 1) }
                return out
            }
        }
        return walk(manifest.toc ?? [], depth: 0)
    }

    private static func trackKey(_ href: String) -> String {
        let bare = Chapter.stripFragment(href)
        return bare.removingPercentEncoding ?? bare
    }
}
