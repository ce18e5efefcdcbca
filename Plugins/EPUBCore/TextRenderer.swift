import Foundation

/// Columns a character takes in a terminal: 2 for East Asian wide and full-width characters,
/// 0 for combining marks, 1 otherwise.
enum DisplayWidth {
    static func of(_ c: Character) -> Int {
        guard let s = c.unicodeScalars.first else { return 0 }
        return of(scalar: s)
    }

    static func of(scalar s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }
        if v < 0x1100 {
            return s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .enclosingMark
                ? 0 : 1
        }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }

    static func of(_ s: String) -> Int { s.unicodeScalars.reduce(0) { $0 + of(scalar: $1) } }

    /// Characters after which a line may break without a space (CJK ideographs and kana).
    static func breaksFreely(_ c: Character) -> Bool { of(c) == 2 }
}

/// A child of an element, as the text renderer reads it. Text comes as the UTF-8 bytes the tree
/// holds, valid for the duration of the call: no String is made per text node.
public enum TextItem<E> {
    case text(UnsafeBufferPointer<UInt8>)
    case element(E)
}

/// What the text renderer needs of an element: the copied tree (XElement) and libxml2's own tree
/// read in place (LibXMLElement) both provide it.
public protocol TextElement {
    var name: String { get }
    var ns: String? { get }
    func attribute(_ local: String, ns: String?) -> String?
    /// The children in order, until `body` returns false.
    func forEachChild(_ body: (TextItem<Self>) -> Bool)
    /// The subtree's text as written.
    var text: String { get }
    /// The subtree's text with a space at element boundaries (for content flattened past the depth limit).
    var separatedText: String { get }
}

extension XElement: TextElement {
    public func attribute(_ local: String, ns: String?) -> String? { attr(local, ns: ns) }

    public func forEachChild(_ body: (TextItem<XElement>) -> Bool) {
        for c in children {
            let more: Bool
            switch c {
            case .text(var t): more = t.withUTF8 { body(.text($0)) }
            case .element(let e): more = body(.element(e))
            }
            if !more { return }
        }
    }

    public var separatedText: String {
        var out = ""
        var stack: [XNode] = children.reversed()
        while let n = stack.popLast() {
            switch n {
            case .text(let t): out += t
            case .element(let e): out += " "; stack.append(contentsOf: e.children.reversed())
            }
        }
        return out
    }
}

extension LibXMLElement: TextElement {
    public func attribute(_ local: String, ns: String?) -> String? { attr(local, ns: ns) }
    public var separatedText: String { XML.subtreeText(node) }
}

/// Renders an XHTML (or DTBook, or SVG) content document as readable plain text.
///
/// `decorate` adds the reader's cues (heading underlines, list bullets, "[Image: alt]", footnote
/// brackets) and wraps to `width`; without it the output is the bare text, one paragraph a line,
/// which is what search and text comparison use.
///
/// Works on UTF-8 bytes throughout (the pending inline text, paragraphs, the output), as a full
/// book's text goes through here: Strings only for the short things (alt text, headings' width).
public struct TextRenderer {
    public var width: Int
    public var decorate: Bool

    /// Finished lines, each followed by a newline.
    private var out: [UInt8] = []
    /// Empty lines at the end of `out` (dropped when the rendering ends).
    private var trailingEmptyLines = 0
    private var inline: [UInt8] = []
    private var prefixes: [String] = []
    private var firstLinePrefix: String?
    private var listCounters: [Int?] = []  // nil: bulleted list
    /// Stop after this many bytes of output (for quotes from the start of an item).
    private var limit = Int.max
    private var emitted = 0
    /// Where each element with an id (or an `a` with a name) starts in the output, when asked for:
    /// what a fragment of a table of contents entry points at.
    private var anchors: [String: Int]?
    /// What the document's style sheets hide (HiddenStyles): left out as the `hidden` attribute is.
    private var hidden = HiddenStyles()

    /// The line-break sentinel <br> leaves in the inline text: U+2028, which source text never
    /// breaks a line at (it is white space there).
    static let lineBreak: [UInt8] = [0xE2, 0x80, 0xA8]

    public init(width: Int = 72, decorate: Bool = true) {
        self.width = max(10, width)
        self.decorate = decorate
    }

    /// How the renderer treats an element, by local name: looked up once per element instead of
    /// comparing the name with each case in turn.
    enum Tag {
        case skipped, title, rt, rp, br, img, image, hr, a, sup, pre, table, tr, blockquote, dd, listItem
        case heading(underline: UInt8?)
        case list(ordered: Bool?)  // nil: DTBook <list>, ordered when type="ol"
        case block, inline
    }

    static let tags: [String: Tag] = {
        var t: [String: Tag] = [:]
        for n in [
            "p", "div", "section", "article", "aside", "header", "footer", "nav", "main",
            "figure", "figcaption", "address", "center", "dl", "dt", "body", "html",
            "caption", "thead", "tbody", "tfoot", "details", "summary",
            "fieldset", "form", "hgroup", "level1", "level2", "level3", "level4", "level5",
            "level6", "level", "book", "frontmatter", "bodymatter", "rearmatter",
            "docauthor", "sidebar", "note", "prodnote", "poem", "linegroup",
            "line", "epigraph", "byline", "dateline", "imggroup", "dtbook",
            "svg", "text", "tspan", "math"
        ] { t[n] = .block }
        for n in [
            "head", "script", "style", "template", "noscript", "meta", "link",
            "annotation-xml", "param", "source", "track"
        ] { t[n] = .skipped }
        for n in ["h3", "h4", "h5", "h6", "bridgehead"] { t[n] = .heading(underline: nil) }
        t["h1"] = .heading(underline: UInt8(ascii: "=")); t["doctitle"] = .heading(underline: UInt8(ascii: "="))
        t["h2"] = .heading(underline: UInt8(ascii: "-"))
        t["ul"] = .list(ordered: false); t["ol"] = .list(ordered: true); t["list"] = .list(ordered: nil)
        t["li"] = .listItem; t["item"] = .listItem
        t["title"] = .title; t["rt"] = .rt; t["rp"] = .rp; t["br"] = .br; t["img"] = .img; t["image"] = .image
        t["hr"] = .hr; t["a"] = .a; t["sup"] = .sup; t["pre"] = .pre; t["table"] = .table; t["tr"] = .tr
        t["blockquote"] = .blockquote; t["dd"] = .dd
        return t
    }()

    public static func render<E: TextElement>(
        _ root: E, width: Int = 72, decorate: Bool = true, limit: Int = .max, hidden: HiddenStyles = HiddenStyles()
    ) -> String {
        String(
            decoding: renderUTF8(root, width: width, decorate: decorate, limit: limit, hidden: hidden), as: UTF8.self)
    }

    /// The rendering as UTF-8 bytes, valid as they are: libxml2 holds its text as UTF-8 (it
    /// converts, or reads bytes it cannot decode as Latin-1) and the renderer breaks lines only
    /// between characters. A book's text needs no second pass to validate it.
    public static func renderUTF8<E: TextElement>(
        _ root: E, width: Int = 72, decorate: Bool = true, limit: Int = .max, hidden: HiddenStyles = HiddenStyles()
    ) -> [UInt8] {
        var r = TextRenderer(width: width, decorate: decorate)
        r.limit = limit
        r.hidden = hidden
        let start = firstChild(of: root, named: "body") ?? firstChild(of: root, named: "book") ?? root
        r.walk(start, depth: 0)
        r.flush()
        r.out.removeLast(r.trailingEmptyLines)
        return r.out
    }

    /// The bare text (one paragraph a line, as search reads it) and where each element with an id
    /// starts in it, in UTF-8 bytes: how a fragment (`chapter.xhtml#sec3`) becomes a place in the
    /// item's text. An element the rendering leaves out (hidden, in the head) is not there.
    public static func anchoredText<E: TextElement>(_ root: E, hidden: HiddenStyles = HiddenStyles()) -> (
        text: [UInt8], anchors: [String: Int]
    ) {
        var r = TextRenderer(width: 100_000, decorate: false)
        r.anchors = [:]
        r.hidden = hidden
        let start = firstChild(of: root, named: "body") ?? firstChild(of: root, named: "book") ?? root
        r.walk(start, depth: 0)
        r.flush()
        r.out.removeLast(r.trailingEmptyLines)
        let end = r.out.count
        return (r.out, r.anchors!.mapValues { min($0, end) })
    }

    /// Records where `e` starts (and, for the elements rendered as one line, where each element
    /// inside it starts: the heading's own line). A block flushes the text before it first, as it
    /// would a moment later; an inline element starts after the pending text, collapsed.
    private mutating func markAnchors<E: TextElement>(_ e: E, tag: Tag) {
        let here: Int
        let oneLine: Bool
        switch tag {
        case .inline, .a, .sup, .br, .img, .image:
            var pending = inline
            let count = pending.withUnsafeMutableBufferPointer { XML.collapse(inPlace: $0) }
            let spaced = count > 0 && [0x20, 0x0A, 0x09, 0x0D].contains(inline.last ?? 0)
            here = out.count + count + (spaced ? 1 : 0)
            oneLine = false
        case .heading, .tr, .pre:
            flush()
            here = out.count
            oneLine = true
        default:
            flush()
            here = out.count
            oneLine = false
        }
        func mark(_ e: E) {
            if let id = e.attribute("id", ns: nil), anchors?[id] == nil { anchors?[id] = here }
            if e.name == "a", let name = e.attribute("name", ns: nil), anchors?[name] == nil { anchors?[name] = here }
        }
        mark(e)
        guard oneLine else { return }
        var stack = TextRenderer.elementChildren(of: e)
        while let next = stack.popLast() {
            mark(next)
            stack.append(contentsOf: TextRenderer.elementChildren(of: next))
        }
    }

    /// Nesting deeper than this is read as plain text (iteratively), so that a hostile document
    /// cannot exhaust the stack of the host's thread (512 KiB is common for worker threads).
    static let maxDepth = 40

    private mutating func walk<E: TextElement>(_ e: E, depth: Int) {
        guard emitted <= limit else { return }
        guard depth < TextRenderer.maxDepth else {
            append(" " + e.separatedText + " ")
            return
        }
        let tag = TextRenderer.tags[e.name] ?? .inline
        switch tag {
        case .title:
            // An SVG's title is its text alternative; any other title is metadata.
            guard e.ns == NS.svg else { return }
            let t = XML.collapse(e.text)
            if !t.isEmpty { append(decorate ? " [Image: \(t)] " : " \(t) ") }
            return
        case .skipped:
            return
        case .rt, .rp:
            // Ruby: the reading goes in parentheses when reading; search sees the base text only.
            if decorate, case .rt = tag { append("(" + XML.collapse(e.text) + ")") }
            return
        default:
            break
        }
        if e.attribute("hidden", ns: nil) != nil || hidden.hides(e) { return }
        if anchors != nil { markAnchors(e, tag: tag) }
        switch tag {
        case .br:
            inline.append(contentsOf: TextRenderer.lineBreak)
            return
        case .img, .image:
            // described by the svg title
            if case .image = tag, e.ns == NS.svg, e.attribute("alt", ns: nil) == nil { return }
            let alt = XML.collapse(e.attribute("alt", ns: nil) ?? e.attribute("title", ns: nil) ?? "")
            if decorate {
                if e.attribute("alt", ns: nil) == nil {
                    append(" [Image] ")
                } else if !alt.isEmpty {
                    append(" [Image: \(alt)] ")
                }
            } else if !alt.isEmpty {
                append(" \(alt) ")
            }
            return
        case .hr:
            flush()
            if decorate { emitLine("* * *".utf8); emptyLine() }
            return
        case .a:
            if decorate {
                let noteref =
                    TextRenderer.contains(e.attribute("type", ns: NS.epub), "noteref")
                    || TextRenderer.contains(e.attribute("role", ns: nil), "noteref")
                if noteref || (e.attribute("href", ns: nil)?.utf8.contains(UInt8(ascii: "#")) == true && isNoteLike(e))
                {
                    append("[\(XML.collapse(e.text))]")
                    return
                }
            }
        case .sup:
            if decorate, let a = TextRenderer.firstChild(of: e, named: "a"),
                TextRenderer.elementChildren(of: e).count == 1,
                a.attribute("href", ns: nil)?.utf8.contains(UInt8(ascii: "#")) == true
            {
                append("[\(XML.collapse(e.text))]")
                return
            }
        case .heading(let underline):
            flush()
            let text = XML.collapse(inlineText(e, depth: depth))
            if !text.isEmpty {
                Array(text.utf8).withUnsafeBufferPointer { emitWrapped($0) }
                if decorate, let underline {
                    let w = min(width - prefixWidth, DisplayWidth.of(text))
                    emitLine(repeatElement(underline, count: max(3, w)))
                }
                emptyLine()
            }
            return
        case .list(let ordered):
            flush()
            let isOrdered = ordered ?? (e.attribute("type", ns: nil) == "ol")
            listCounters.append(
                isOrdered ? min(max(Int(e.attribute("start", ns: nil) ?? "") ?? 1, -1_000_000), 1_000_000_000) : nil)
            prefixes.append(decorate ? "  " : "")
            visitChildren(of: e, depth: depth)
            flush()
            prefixes.removeLast()
            listCounters.removeLast()
            return
        case .listItem:
            flush()
            if decorate, let last = listCounters.last {
                if let n = last {
                    firstLinePrefix = "\(n). "
                    listCounters[listCounters.count - 1] = n < Int.max ? n + 1 : n
                } else {
                    firstLinePrefix = "• "
                }
            }
            prefixes.append(decorate ? String(repeating: " ", count: DisplayWidth.of(firstLinePrefix ?? "")) : "")
            visitChildren(of: e, depth: depth)
            flush(blank: false)
            prefixes.removeLast()
            firstLinePrefix = nil
            return
        case .blockquote, .dd:
            flush()
            if case .dd = tag { prefixes.append(decorate ? "    " : "") } else { prefixes.append(decorate ? "> " : "") }
            visitChildren(of: e, depth: depth)
            flush()
            prefixes.removeLast()
            return
        case .tr:
            flush()
            let cells = TextRenderer.elementChildren(of: e).filter { $0.name == "td" || $0.name == "th" }.map {
                XML.collapse(inlineText($0, depth: depth))
            }
            let row = cells.filter { !$0.isEmpty }.joined(separator: decorate ? " | " : " ")
            if !row.isEmpty { Array(row.utf8).withUnsafeBufferPointer { emitWrapped($0) } }
            return
        case .table:
            flush()
            visitChildren(of: e, depth: depth)
            flush()
            return
        case .pre:
            flush()
            // Split as Characters, as written: a CR LF pair is one character and no line break.
            for l in e.text.split(separator: "\n", omittingEmptySubsequences: false) { emitLine(l.utf8) }
            emptyLine()
            return
        default:
            break
        }
        let isBlock: Bool
        if case .block = tag { isBlock = true } else { isBlock = false }
        if isBlock { flush() }
        visitChildren(of: e, depth: depth)
        if isBlock { flush() }
    }

    /// The children of `e`, until the output passes the limit (nothing after it is read).
    private mutating func visitChildren<E: TextElement>(of e: E, depth: Int) {
        e.forEachChild {
            visit($0, depth: depth)
            return emitted <= limit
        }
    }

    private mutating func visit<E: TextElement>(_ n: TextItem<E>, depth: Int) {
        switch n {
        case .text(let t): inline.append(contentsOf: t)
        case .element(let c): walk(c, depth: depth + 1)
        }
    }

    private mutating func append(_ s: String) { inline.append(contentsOf: s.utf8) }

    /// Whether `haystack` holds `needle`, byte for byte.
    static func contains(_ haystack: String?, _ needle: String) -> Bool {
        guard let haystack else { return false }
        let h = Array(haystack.utf8), n = Array(needle.utf8)
        guard !n.isEmpty else { return true }
        guard h.count >= n.count else { return false }
        return (0...(h.count - n.count)).contains { i in h[i..<(i + n.count)].elementsEqual(n) }
    }

    private func isNoteLike<E: TextElement>(_ a: E) -> Bool {
        let t = XML.collapse(a.text)
        guard !t.isEmpty, t.count <= 4 else { return false }
        let cls = (a.attribute("class", ns: nil) ?? "").lowercased()
        return TextRenderer.contains(cls, "note") || TextRenderer.contains(cls, "fn")
            || t.allSatisfy { $0.isNumber || $0 == "*" || $0 == "†" }
    }

    /// Text of an element for one-line uses (headings, cells), with images as alt text: its lines
    /// joined by spaces.
    private func inlineText<E: TextElement>(_ e: E, depth: Int) -> String {
        var r = TextRenderer(width: 100_000, decorate: decorate)
        r.hidden = hidden
        e.forEachChild {
            r.visit($0, depth: depth + 1); return true
        }
        r.flush(blank: false)
        if !r.out.isEmpty { r.out.removeLast() }
        for i in r.out.indices where r.out[i] == 0x0A { r.out[i] = 0x20 }
        return String(decoding: r.out, as: UTF8.self)
    }

    static func firstChild<E: TextElement>(of e: E, named name: String) -> E? {
        var found: E?
        e.forEachChild { item in
            if case .element(let c) = item, c.name == name { found = c }
            return found == nil
        }
        return found
    }

    static func elementChildren<E: TextElement>(of e: E) -> [E] {
        var out: [E] = []
        e.forEachChild {
            if case .element(let c) = $0 { out.append(c) }; return true
        }
        return out
    }

    private var prefixWidth: Int { prefixes.reduce(0) { $0 + DisplayWidth.of($1) } }

    /// Ends the pending inline text: each run between <br>s becomes a paragraph, white space
    /// collapsed (source newlines are white space).
    private mutating func flush(blank: Bool = true) {
        guard !inline.isEmpty else { return }
        // The pending text moves out (its buffer comes back for the next run).
        var text: [UInt8] = []
        swap(&text, &inline)
        var wrote = false
        text.withUnsafeMutableBufferPointer { all in
            // Each paragraph is collapsed in place (it only shrinks) and wrapped from there.
            func emit(_ r: inout TextRenderer, _ lo: Int, _ hi: Int) {
                let count = XML.collapse(inPlace: UnsafeMutableBufferPointer(rebasing: all[lo..<hi]))
                if count > 0 { r.emitWrapped(UnsafeBufferPointer(rebasing: all[lo..<(lo + count)])); wrote = true }
            }
            // <br> sentinels: U+2028 is E2 80 A8, and E2 is rare enough for memchr to skip to it.
            var start = 0
            var i = 0
            let n = all.count
            while i + 2 < n, let hit = memchr(all.baseAddress! + i, 0xE2, n - 2 - i) {
                i = all.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if all[i + 1] == 0x80 && all[i + 2] == 0xA8 {
                    emit(&self, start, i)
                    i += 3
                    start = i
                } else {
                    i += 1
                }
            }
            emit(&self, start, n)
        }
        text.removeAll(keepingCapacity: true)
        swap(&text, &inline)
        if wrote && blank && decorate { emptyLine() }
    }

    /// One output line, after its prefixes.
    private mutating func emitLine<C: Collection>(_ s: C) where C.Element == UInt8 {
        let start = out.count
        beginLine()
        out.append(contentsOf: s)
        trailingEmptyLines = out.count == start ? trailingEmptyLines + 1 : 0
        out.append(0x0A)
        emitted += s.count + 1
    }

    /// The prefixes of the blocks a line is in (the list marker on an item's first line).
    private mutating func beginLine() {
        let whole = firstLinePrefix == nil ? prefixes.count : max(0, prefixes.count - 1)
        for p in prefixes[0..<whole] { out.append(contentsOf: p.utf8) }
        if let f = firstLinePrefix {
            out.append(contentsOf: f.utf8)
            firstLinePrefix = nil
        }
    }

    /// A blank line between blocks: no prefix, and not counted towards the limit.
    private mutating func emptyLine() {
        out.append(0x0A)
        trailingEmptyLines += 1
    }

    /// Greedy wrapping by display width, over the UTF-8 bytes: lines break at spaces and around
    /// East Asian wide characters; a word wider than the line is cut between characters. Lines
    /// are written straight into the output.
    private mutating func emitWrapped(_ bytes: UnsafeBufferPointer<UInt8>) {
        let avail = max(8, width - prefixWidth)
        // UTF-8 length bounds the display width from above: short paragraphs need no wrapping.
        guard decorate, bytes.count > avail else { emitLine(bytes); return }
        let n = bytes.count
        var lineStart = -1  // where the current line's text starts in `out`; -1 while it has none
        var lineWidth = 0
        var wordStart = -1
        var wordWidth = 0
        var spaceBeforeWord = false
        var lastWasSpace = false

        /// The scalar at `i`: its byte length and display width.
        func scalar(at i: Int) -> (length: Int, width: Int) {
            let b = bytes[i]
            if b < 0x80 { return (1, 1) }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            guard i + length <= n else { return (1, 1) }
            var v = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length { v = v << 6 | (UInt32(bytes[i + k]) & 0x3F) }
            guard let sc = Unicode.Scalar(v) else { return (length, 1) }
            return (length, DisplayWidth.of(scalar: sc))
        }
        func put(_ r: inout TextRenderer, _ lo: Int, _ hi: Int) {
            if lineStart < 0 {
                r.beginLine()
                lineStart = r.out.count
            }
            r.out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lo..<hi]))
        }
        func flushLine(_ r: inout TextRenderer) {
            r.emitted += r.out.count - lineStart + 1
            r.out.append(0x0A)
            r.trailingEmptyLines = 0
            lineStart = -1
            lineWidth = 0
        }
        func placeWord(_ r: inout TextRenderer, upTo end: Int) {
            guard wordStart >= 0 else { return }
            defer { wordStart = -1; wordWidth = 0 }
            let needSpace = lineStart >= 0 && spaceBeforeWord
            let extra = needSpace ? 1 : 0
            if lineWidth + extra + wordWidth <= avail {
                if needSpace { r.out.append(0x20) }
                put(&r, wordStart, end)
                lineWidth += extra + wordWidth
                return
            }
            if lineStart >= 0 { flushLine(&r) }
            // Cut a word wider than the line, never inside a UTF-8 sequence or before a mark.
            var i = wordStart
            while i < end {
                let (len, w) = scalar(at: i)
                if lineWidth + w > avail, lineStart >= 0, w > 0 { flushLine(&r) }
                put(&r, i, min(end, i + len))
                lineWidth += w
                i += len
            }
        }
        var i = 0
        while i < n {
            let b = bytes[i]
            if b == 0x20 {
                placeWord(&self, upTo: i)
                lastWasSpace = true
                i += 1
                continue
            }
            if b < 0x80 || (b >= 0xC0 && b < 0xCC && i + 1 < n) {
                // A run of characters below U+0300 (one column each, ASCII or two bytes), the bulk
                // of Latin text, extends the word without decoding each one.
                if wordStart < 0 { wordStart = i; spaceBeforeWord = lastWasSpace }
                var j = i
                while j < n {
                    let c = bytes[j]
                    if c == 0x20 { break }
                    if c < 0x80 { j += 1 } else if c >= 0xC0 && c < 0xCC && j + 1 < n { j += 2 } else { break }
                    wordWidth += 1
                }
                lastWasSpace = false
                i = j
                continue
            }
            let (len, w) = scalar(at: i)
            if w == 2 {
                // Each wide character is a word of its own that joins its neighbours without a space.
                placeWord(&self, upTo: i)
                if lastWasSpace && lineStart >= 0 && lineWidth + 1 <= avail { out.append(0x20); lineWidth += 1 }
                if lineWidth + 2 > avail, lineStart >= 0 { flushLine(&self) }
                put(&self, i, min(n, i + len))
                lineWidth += 2
            } else if w == 0 && wordStart < 0 && lineStart >= 0 {
                // A combining mark after a wide character stays with it.
                put(&self, i, min(n, i + len))
            } else {
                if wordStart < 0 { wordStart = i; spaceBeforeWord = lastWasSpace }
                wordWidth += w
            }
            lastWasSpace = false
            i += len
        }
        placeWord(&self, upTo: n)
        if lineStart >= 0 { flushLine(&self) }
    }
}
