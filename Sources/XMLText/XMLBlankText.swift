import CXML2

/// Which runs of white space libxml2's tree builder drops under `XML_PARSE_NOBLANKS`, decided without the tree.
///
/// Catalog text used to be read from that tree, so `<p>a<b/> <b/>c</p>` read "a c" while `<p><b/>a<b/> <b/>c</p>`
/// read "ac". libxml2 decides this in `areBlanks` from the tree it is building (is the element's first or last child
/// text?) and from where the run came from, none of which a SAX handler is given: libxml2 2.9's parser only asks
/// when it has a tree node. This replays that decision from what an element has held so far, per element open.
struct XMLBlankText {
    private struct Element {
        var hasChildren = false
        var firstIsText = false
        var lastIsText = false
        /// libxml2's `*ctxt->space == -2`: white space was kept here, so every later run is kept too.
        var keepsBlanks = false
        /// The name the tree gave the element, kept only when the document declares elements.
        var treeName: String?
    }

    private var open: [Element] = []
    /// `<!ELEMENT>` declarations of the internal subset by name (the first counts): libxml2 asks them first.
    private var declared: [String: xmlElementTypeVal] = [:]

    init() { open.reserveCapacity(64) }

    mutating func open(depth: Int, name: @autoclosure () -> String) {
        if depth > 0 { child(depth - 1, isText: false) }
        var element = Element()
        if !declared.isEmpty { element.treeName = name() }
        if open.count <= depth { open.append(element) } else { open[depth] = element }
    }

    mutating func declare(_ name: String, type: xmlElementTypeVal) {
        if declared[name] == nil { declared[name] = type }
    }

    /// A comment, processing instruction or unexpanded entity reference: a child node that is not text.
    mutating func otherNode(depth: Int) { child(depth, isText: false) }

    @inline(__always)
    private mutating func child(_ depth: Int, isText: Bool) {
        if !open[depth].hasChildren {
            open[depth].hasChildren = true
            open[depth].firstIsText = isText
        }
        open[depth].lastIsText = isText
    }

    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Whether the tree would have kept `text`, delivered to the element open at `depth`; records it if so.
    mutating func keeps(_ text: UnsafeBufferPointer<UInt8>, depth: Int, parser: xmlParserCtxtPtr) -> Bool {
        let source = Self.source(of: text, parser: parser)
        // Only character data is ever weighed (references and CDATA are always kept), and of the fast path's runs
        // only those that start with white space.
        let weighed = source == .slowCharacterData || (source == .characterData && Self.isBlank(text[0]))
        if weighed {
            if ignorable(text, element: open[depth], parser: parser) { return false }
            if parser.pointee.space.map({ $0.pointee == -1 || $0.pointee == -2 }) ?? false {
                open[depth].keepsBlanks = true
            }
        }
        child(depth, isText: true)
        return true
    }

    private enum Source { case characterData, slowCharacterData, referenceOrCDATA }

    /// Where libxml2 took the bytes from: its input buffer (the fast path of `xmlParseCharData`), its own copy
    /// (`xmlParseCharDataComplex`), or a character reference, predefined entity or CDATA section just read.
    private static func source(of text: UnsafeBufferPointer<UInt8>, parser: xmlParserCtxtPtr) -> Source {
        guard let input = parser.pointee.input?.pointee, let base = input.base, let cur = input.cur else {
            return .referenceOrCDATA
        }
        let start = UnsafeRawPointer(text.baseAddress!)
        if start >= UnsafeRawPointer(base), start < UnsafeRawPointer(input.end ?? cur) { return .characterData }
        // What was just consumed: `&...;` or `]]>` (character data never contains '&' or "]]>").
        var p = cur
        guard p > base else { return .slowCharacterData }
        p -= 1
        if p.pointee == UInt8(ascii: ">") {
            return p - 2 >= base && (p - 1).pointee == UInt8(ascii: "]") && (p - 2).pointee == UInt8(ascii: "]")
                ? .referenceOrCDATA : .slowCharacterData
        }
        guard p.pointee == UInt8(ascii: ";") else { return .slowCharacterData }
        while p > base {
            p -= 1
            let c = p.pointee
            if c == UInt8(ascii: "&") { return .referenceOrCDATA }
            let nameChar =
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "#") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: ":")
            if !nameChar { return .slowCharacterData }
        }
        return .slowCharacterData
    }

    /// libxml2 2.9's `areBlanks` heuristic, for a document without a DTD saying otherwise.
    private func ignorable(_ text: UnsafeBufferPointer<UInt8>, element: Element, parser: xmlParserCtxtPtr) -> Bool {
        guard let space = parser.pointee.space?.pointee else { return false }
        // xml:space="preserve", or white space already kept in this element.
        if space == 1 || ((space == -1 || space == -2) && element.keepsBlanks) { return false }
        guard text.allSatisfy(Self.isBlank) else { return false }
        // An element declared with element content has only ignorable white space; mixed, ANY or EMPTY has none.
        switch element.treeName.flatMap({ declared[$0] }) {
        case XML_ELEMENT_TYPE_ELEMENT: return true
        case XML_ELEMENT_TYPE_MIXED, XML_ELEMENT_TYPE_ANY, XML_ELEMENT_TYPE_EMPTY: return false
        default: break
        }
        guard let cur = parser.pointee.input?.pointee.cur else { return false }
        let next = cur.pointee
        if next != UInt8(ascii: "<") && next != 0x0D { return false }
        if !element.hasChildren { return !(next == UInt8(ascii: "<") && cur[1] == UInt8(ascii: "/")) }
        return !element.lastIsText && !element.firstIsText
    }
}
