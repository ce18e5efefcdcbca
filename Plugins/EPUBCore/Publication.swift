import Foundation
import PluginAPI
import PluginKit
import LibZip
import TextFolding

/// The publication handle both EPUB plugins return: manifest, resources, render, positions, search.
public final class EPUBPublication: RenderingPublication, PositionedPublication, SearchablePublication {
    public let book: EPUBBook
    private var cachedManifest: Manifest?
    private var cachedPositions: [[Locator]]?
    private let fragmentPlaces = FragmentPlaces()
    var cachedOpening: Opening?

    public init(book: EPUBBook) {
        self.book = book
    }

    public convenience init(path: String, limits: ZipLimits = .default) throws {
        self.init(book: try EPUBBook(path: path, limits: limits))
    }

    public var warnings: [String] { book.warnings }
    /// Where the warnings found while the manifest is built (its media overlays) go: the plugin's log.
    var logWarning: ((String) -> Void)?

    public func manifest() throws -> Manifest {
        if let cachedManifest { return cachedManifest }
        let m = book.buildManifest()
        cachedManifest = m
        for w in book.overlayWarnings { logWarning?(w) }
        return m
    }

    public func resource(href: String) throws -> Data {
        try book.resource(href: href)
    }

    // MARK: Positions (as Readium computes them)

    /// Positions grouped by reading-order item: one per 1024 bytes of the item's archive entry
    /// length (compressed or stored, as Readium's recommended strategy), one per item in a fixed
    /// layout book; totalProgression = (position - 1) / count.
    public func positionsByItem() -> [[Locator]] {
        if let cachedPositions { return cachedPositions }
        var groups: [[Locator]] = []
        var last = 0
        let fixed = book.isFixedLayout
        for r in book.readingOrder {
            let type = r.item.mediaType.isEmpty ? "text/html" : r.item.mediaType
            if fixed {
                last += 1
                groups.append([
                    Locator(
                        href: r.href, type: type, title: r.title,
                        locations: .init(position: last, progression: 0))
                ])
                continue
            }
            guard let length = book.storedLength(ofEntry: r.item.path) else {
                groups.append([])
                continue
            }
            // Divide before rounding: no overflow.
            let count = max(1, Int(length / 1024 + (length % 1024 == 0 ? 0 : 1)))
            var group: [Locator] = []
            group.reserveCapacity(count)
            for i in 1...count {
                group.append(
                    Locator(
                        href: r.href, type: type, title: r.title,
                        locations: .init(position: last + i, progression: Double(i - 1) / Double(count))))
            }
            last += count
            groups.append(group)
        }
        let total = groups.reduce(0) { $0 + $1.count }
        if total > 0 {
            for g in groups.indices {
                for i in groups[g].indices {
                    if let p = groups[g][i].locations.position {
                        groups[g][i].locations.totalProgression = Double(p - 1) / Double(total)
                    }
                }
            }
        }
        cachedPositions = groups
        return groups
    }

    public func positions() throws -> [Locator] { positionsByItem().flatMap { $0 } }

    /// Reading-order indexes by entry path (the item's, and the rendered content's when it differs):
    /// every render looks its href up, and a scan of the reading order made a book's renders quadratic.
    private lazy var indexesByPath: [String: [Int]] = {
        var map: [String: [Int]] = [:]
        for (i, r) in book.readingOrder.enumerated() {
            map[r.item.path, default: []].append(i)
            if r.content.path != r.item.path { map[r.content.path, default: []].append(i) }
        }
        return map
    }()

    /// The reading-order index an href points to (matching the path, ignoring the fragment).
    func itemIndex(href: String, position: Int? = nil) -> Int? {
        guard let path = book.entryPath(forHref: href) ?? Paths.resolve(href, against: "") else { return nil }
        let candidates = indexesByPath[path] ?? []
        if candidates.count <= 1 { return candidates.first }
        // One file listed several times (items pointing at fragments of it): the position decides,
        // then the exact href.
        if let position {
            let groups = positionsByItem()
            if let i = candidates.first(where: { i in
                guard let f = groups[safe: i]?.first?.locations.position,
                    let l = groups[safe: i]?.last?.locations.position
                else { return false }
                return position >= f && position <= l
            }) {
                return i
            }
        }
        return candidates.first { book.readingOrder[$0].href == href } ?? candidates.first
    }

    func itemIndex(position: Int) -> Int? {
        for (i, g) in positionsByItem().enumerated() {
            if let f = g.first?.locations.position, let l = g.last?.locations.position, position >= f, position <= l {
                return i
            }
        }
        return nil
    }

    public func locate(_ locator: Locator) throws -> Locator {
        let groups = positionsByItem()
        if !locator.href.isEmpty, let i = itemIndex(href: locator.href, position: locator.locations.position),
            i < groups.count
        {
            let g = groups[i]
            guard !g.isEmpty else {
                throw PluginFailure.notFound("'\(locator.href)' has no positions (its resource is missing)")
            }
            if let p = locator.locations.position, let f = g.first?.locations.position, p >= f, p - f < g.count {
                return g[p - f]
            }
            // A fragment names an element: the position that holds it (see FragmentPlaces).
            if locator.locations.progression == nil, let id = FragmentPlaces.elementID(locator),
                let place = fragmentPlaces.place(of: id, item: i, in: self)
            {
                var out = g[min(g.count - 1, Int(place.progression * Double(g.count)))]
                out.locations.progression = place.progression
                out.locations.fragments = [id]
                out.text = place.quote ?? locator.text
                return out
            }
            let raw = locator.locations.progression ?? 0
            let progression = raw.isFinite ? min(max(raw, 0), 1) : 0
            let k = min(g.count - 1, Int(progression * Double(g.count)))
            var out = g[max(0, k)]
            out.locations.fragments = locator.locations.fragments
            out.text = locator.text
            return out
        }
        if locator.href.isEmpty || locator.href == "#" {
            if let p = locator.locations.position, let i = itemIndex(position: p),
                let f = groups[i].first?.locations.position
            {
                return groups[i][p - f]
            }
            if let raw = locator.locations.totalProgression, raw.isFinite {
                let t = min(max(raw, 0), 1)
                let all = groups.flatMap { $0 }
                guard !all.isEmpty else { throw PluginFailure.notFound("the book has no positions") }
                return all[min(all.count - 1, max(0, Int(t * Double(all.count))))]
            }
        }
        throw PluginFailure.notFound(
            "the locator points outside this book (\(locator.href.isEmpty ? "no href" : locator.href))")
    }

    // MARK: Render

    public func render(at locator: Locator?, settings: RenderSettings) throws -> Rendered {
        let index: Int
        var located: Locator?
        if let locator {
            if locator.href.isEmpty, let p = locator.locations.position {
                guard let i = itemIndex(position: p) else {
                    throw PluginFailure.notFound(
                        "position \(p) is outside this book (it has \(positionsByItem().reduce(0) { $0 + $1.count }) positions)"
                    )
                }
                index = i
                // The page renders either way; a place that cannot be refined is reported as the item's start.
                located = try? locate(locator)
            } else if let i = itemIndex(href: locator.href, position: locator.locations.position) {
                index = i
                // The page renders either way; a place that cannot be refined is reported as the item's start.
                located = try? locate(locator)
            } else if let p = locator.locations.position, let i = itemIndex(position: p) {
                index = i
                // As above.
                located = try? locate(Locator(href: "", type: "", locations: .init(position: p)))
            } else if let path = book.entryPath(forHref: locator.href), let item = book.manifestItem(path: path),
                EPUBBook.contentTypes.contains(item.mediaType)
            {
                // A content document outside the reading order (non-linear notes, a nav page): it
                // renders as well, without positions.
                let spine =
                    book.opf.spine.first { $0.idref == item.id }
                    ?? SpineItem(idref: item.id, linear: false, properties: [])
                let extra = EPUBBook.ReadingItem(
                    item: item, content: item, spine: spine, href: Paths.href(forEntry: path), title: nil)
                let (content, plain) = try renderContent(extra, settings: settings, quoteAt: 0)
                var whereOut = Locator(
                    href: extra.href, type: item.mediaType,
                    locations: .init(
                        progression: 0,
                        fragments: Paths.splitFragment(locator.href).fragment.map { [$0] }))
                if let plain { whereOut.text = EPUBPublication.quote(plain, progression: 0) }
                return Rendered(content: content, locator: whereOut)
            } else {
                throw PluginFailure.notFound("the locator points outside this book ('\(locator.href)')")
            }
        } else {
            let opening = opening()
            if let fragment = opening.fragment, let item = book.readingOrder[safe: opening.index] {
                return try render(
                    at: Locator(
                        href: Paths.splitFragment(item.href).path, type: item.item.mediaType,
                        locations: .init(fragments: [fragment])), settings: settings)
            }
            index = opening.index
        }
        guard index < book.readingOrder.count else { throw PluginFailure.notFound("the book has no reading order") }
        let item = book.readingOrder[index]
        let where_ =
            located ?? positionsByItem()[safe: index]?.first
            ?? Locator(href: item.href, type: item.item.mediaType, title: item.title, locations: .init(progression: 0))
        var whereOut = where_
        whereOut.title = item.title ?? whereOut.title
        let (content, plain) = try renderItemAndText(
            index, settings: settings, quoteAt: whereOut.locations.progression ?? 0)
        if whereOut.text == nil, let plain,
            let quote = EPUBPublication.quote(plain, progression: whereOut.locations.progression ?? 0)
        {
            whereOut.text = quote
        }
        return Rendered(content: content, locator: whereOut)
    }

    /// A text quote at a progression of an item's text (for sharing, and to find the place again in
    /// another edition): about 100 characters from a word start there, with a little context before.
    static func quote(_ text: String, progression: Double) -> Locator.Text? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        let p = progression.isFinite ? min(max(progression, 0), 1) : 0
        var start = min(bytes.count - 1, Int(p * Double(bytes.count)))
        let floor = max(0, start - 60)
        // Back to the start of a word (or of a UTF-8 sequence at least).
        while start > floor, bytes[start - 1] != 0x20, bytes[start - 1] != 0x0A { start -= 1 }
        return quote(bytes, from: start)
    }

    /// The quote of the text from byte `start` (an element's start, a word's).
    static func quote(_ bytes: [UInt8], from start: Int) -> Locator.Text? {
        var start = max(0, start)
        while start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
        guard start < bytes.count else { return nil }
        var end = min(bytes.count, start + 400)
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        var before = max(0, start - 120)
        while before < start, bytes[before] & 0xC0 == 0x80 { before += 1 }
        let highlight = String(Snippet.squeeze(XML.collapse(bytes: bytes[start..<end])).prefix(100))
        guard !highlight.isEmpty else { return nil }
        let lead = Snippet.squeeze(String(decoding: bytes[before..<start], as: UTF8.self))
        return Locator.Text(before: lead.isEmpty ? nil : String(lead.suffix(40)), highlight: highlight, after: nil)
    }

    public func renderItem(_ index: Int, settings: RenderSettings) throws -> String {
        String(decoding: try renderItemAndText(index, settings: settings).content, as: UTF8.self)
    }

    /// The rendered item, and its text (for the where-locator's quote) when it has any.
    func renderItemAndText(_ index: Int, settings: RenderSettings, quoteAt progression: Double = 0) throws -> (
        content: Data, text: String?
    ) {
        // A quote at the start needs the first few hundred bytes of text only.
        guard index >= 0, index < book.readingOrder.count else {
            throw PluginFailure.notFound("no reading-order item \(index + 1)")
        }
        return try renderContent(book.readingOrder[index], settings: settings, quoteAt: progression)
    }

    func renderContent(_ item: EPUBBook.ReadingItem, settings: RenderSettings, quoteAt progression: Double) throws -> (
        content: Data, text: String?
    ) {
        let quoteLimit = progression > 0 ? Int.max : 600
        let target = item.content
        if target.mediaType.hasPrefix("image/") && target.mediaType != "image/svg+xml" {
            let href = Paths.href(forEntry: target.path)
            if settings.as == .html {
                let body =
                    "<img src=\"\(HTMLRenderer.escapeAttr(href))\" alt=\"\(HTMLRenderer.escapeAttr(item.title ?? "page"))\"/>"
                return (
                    Data(
                        "<!DOCTYPE html>\n<html \(HTMLRenderer.rootNamespaces)>\n<head>\n<meta charset=\"utf-8\"/>\n<style id=\"shelf-settings\">\n\(HTMLRenderer.css(.init(fontScale: settings.fontScale, font: settings.font, theme: settings.theme)))\n</style>\n</head>\n<body>\(body)</body>\n</html>\n"
                            .utf8), nil
                )
            }
            return (Data("[Image: \(item.title ?? href)]\n".utf8), nil)
        }
        if let why = book.encryption.protection(of: target.path) { throw PluginFailure.protected(why, at: target.path) }
        switch settings.as {
        case .text:
            // One pass over libxml2's own tree: no copy.
            let raw = try book.rawDocument(at: target.path)
            guard let root = raw.root else { return (Data("[This page has no text]\n".utf8), nil) }
            let hidden = book.hiddenStyles(of: root, path: target.path)
            let text = TextRenderer.renderUTF8(root, width: settings.width, decorate: true, hidden: hidden)
            if text.contains(where: { $0 > 0x20 }) {
                return (
                    Data(text),
                    TextRenderer.render(root, width: 100_000, decorate: false, limit: quoteLimit, hidden: hidden)
                )
            }
            // A page of pictures (fixed layout, SVG spine items): say so rather than print nothing.
            let images = root.descendants().filter { $0.isNamed("img") || $0.isNamed("image") }.count
            return (
                Data((images > 0 ? "[Image\(images > 1 ? "s: \(images)" : "")]\n" : "[This page has no text]\n").utf8),
                nil
            )
        case .html:
            let doc = try book.document(at: target.path)
            let html = HTMLRenderer.render(
                doc, path: target.path,
                settings: .init(fontScale: settings.fontScale, font: settings.font, theme: settings.theme),
                title: item.title ?? book.title, language: book.languages.first,
                pageProgression: book.opf.pageProgression)
            return (Data(html.utf8), TextRenderer.render(doc.root, width: 100_000, decorate: false, limit: quoteLimit))
        }
    }

    /// Plain text of a reading-order item (no decorations), for search and comparison.
    public func plainText(_ index: Int) throws -> String {
        guard index >= 0, index < book.readingOrder.count else { return "" }
        let target = book.readingOrder[index].content
        guard !target.mediaType.hasPrefix("image/") || target.mediaType == "image/svg+xml" else { return "" }
        if let why = book.encryption.protection(of: target.path) { throw PluginFailure.protected(why, at: target.path) }
        guard let root = try book.rawDocument(at: target.path).root else { return "" }
        // What the page hides is not found either: search reads the text the terminal shows.
        return TextRenderer.render(
            root, width: 100_000, decorate: false, hidden: book.hiddenStyles(of: root, path: target.path))
    }

    // MARK: Search

    public func search(_ query: String, limit: Int) throws -> [Locator] {
        // Case, diacritics and width do not count (TextFolding); an empty (or all white space) query matches nothing.
        let needle = FoldedText(query, keep: .text)
        guard !needle.scalars.isEmpty else { return [] }
        var results: [Locator] = []
        var folder = ScalarFolder()
        let groups = positionsByItem()
        for (index, item) in book.readingOrder.enumerated() {
            // A document whose text cannot be had has nothing to find in it; reading it says what is wrong.
            guard let text = try? plainText(index), !text.isEmpty else { continue }
            let folded = FoldedText(text, keep: .text, folder: &folder)
            let scalars = Array(text.unicodeScalars)
            for hit in folded.occurrences(of: needle.scalars, overlapping: false) {
                guard results.count < limit else { return results }
                let s = folded.origins[hit.lowerBound]
                let e = min(scalars.count, folded.origins[hit.upperBound - 1] + 1)
                let before = String(String.UnicodeScalarView(scalars[max(0, s - 60)..<s]))
                let highlight = String(String.UnicodeScalarView(scalars[s..<e]))
                let after = String(String.UnicodeScalarView(scalars[e..<min(scalars.count, e + 60)]))
                let progression = scalars.isEmpty ? 0 : Double(s) / Double(scalars.count)
                var loc: Locator
                if let g = groups[safe: index], !g.isEmpty {
                    let k = min(g.count - 1, Int(progression * Double(g.count)))
                    loc = g[k]
                } else {
                    loc = Locator(href: item.href, type: item.item.mediaType, title: item.title)
                }
                loc.locations.progression = progression
                loc.text = Locator.Text(
                    before: Snippet.squeeze(before), highlight: highlight,
                    after: Snippet.squeeze(after))
                results.append(loc)
            }
        }
        return results
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}

/// Snippets around a search hit: white space runs (newlines included) become one space; edges are
/// kept so snippets join.
enum Snippet {
    static func squeeze(_ s: String) -> String {
        var s = s
        return s.withUTF8 { u in
            var out: [UInt8] = []
            out.reserveCapacity(u.count)
            var space = false
            var i = 0
            while i < u.count {
                let b = u[i]
                if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C {
                    space = true
                } else if b == 0xE2, i + 2 < u.count, u[i + 1] == 0x80, u[i + 2] == 0xA8 || u[i + 2] == 0xA9 {
                    // U+2028 / U+2029 separators are white space too.
                    space = true
                    i += 3
                    continue
                } else {
                    if space { out.append(0x20); space = false }
                    out.append(b)
                }
                i += 1
            }
            if space { out.append(0x20) }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
