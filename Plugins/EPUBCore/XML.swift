import CXML2
import Foundation
import PluginAPI
import PluginKit

extension String {
    /// `lowercased()`, without its Unicode machinery for the ASCII strings that need no change
    /// (media types, guide types, attribute values the OPF carries).
    public var lowercasedFast: String {
        func unchanged(_ b: UInt8) -> Bool { b < 0x80 && !(b >= 0x41 && b <= 0x5A) }
        if utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(unchanged) }) ?? utf8.allSatisfy(unchanged) {
            return self
        }
        return lowercased()
    }

    /// Trims ASCII white space (what XML and OPF attribute values carry) without Foundation.
    public var trimmedASCII: String {
        let u = self.utf8
        func ws(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C }
        guard let first = u.firstIndex(where: { !ws($0) }) else { return "" }
        let last = u.lastIndex(where: { !ws($0) })!
        if first == u.startIndex && u.index(after: last) == u.endIndex { return self }
        return String(self[first...last])
    }
}

/// A small immutable XML tree, copied out of libxml2 so that no libxml2 pointer outlives a parse.
public final class XElement {
    public let name: String  // local name (lowercased for HTML-parsed documents)
    public let ns: String?  // namespace URI
    public let attributes: [XAttribute]
    public internal(set) var children: [XNode] = []

    init(name: String, ns: String?, attributes: [XAttribute]) {
        self.name = name
        self.ns = ns
        self.attributes = attributes
    }

    /// The value of an attribute by local name; with `ns`, only in that namespace; without, the
    /// first attribute of that local name in any namespace, preferring no namespace.
    public func attr(_ local: String, ns: String? = nil) -> String? { attributes.value(local, ns: ns) }

    public var elements: [XElement] {
        children.compactMap {
            if case .element(let e) = $0 { return e }; return nil
        }
    }

    public func child(_ local: String, ns: String? = nil) -> XElement? {
        elements.first { $0.name == local && (ns == nil || $0.ns == ns) }
    }

    public func children(_ local: String, ns: String? = nil) -> [XElement] {
        elements.filter { $0.name == local && (ns == nil || $0.ns == ns) }
    }

    /// Every descendant element (document order), iteratively: deep trees cannot overflow the stack.
    public func descendants(_ local: String? = nil) -> [XElement] {
        var out: [XElement] = []
        var stack: [XElement] = elements.reversed()
        while let e = stack.popLast() {
            if local == nil || e.name == local { out.append(e) }
            stack.append(contentsOf: e.elements.reversed())
        }
        return out
    }

    /// Concatenated text of this element and its descendants.
    public var text: String {
        var out = ""
        var stack: [XNode] = children.reversed()
        while let n = stack.popLast() {
            switch n {
            case .text(let t): out += t
            case .element(let e): stack.append(contentsOf: e.children.reversed())
            }
        }
        return out
    }

    /// Text with whitespace runs collapsed and trimmed.
    public var trimmedText: String { XML.collapse(text) }
}

public struct XAttribute: Sendable {
    public let name: String
    public let ns: String?
    public let value: String
}

extension Array where Element == XAttribute {
    /// The value of an attribute by local name; with `ns`, only in that namespace; without, the
    /// first attribute of that local name in any namespace, preferring no namespace.
    public func value(_ local: String, ns: String? = nil) -> String? {
        if let ns { return first { $0.name == local && $0.ns == ns }?.value }
        return first { $0.name == local && $0.ns == nil }?.value ?? first { $0.name == local }?.value
    }
}

/// A libxml2 document owned by Swift: freed when the last reference goes. Hands out element views
/// that read the tree in place, and interns names (libxml2 keeps one pointer per distinct name).
public final class RawDocument {
    let doc: xmlDocPtr
    let html: Bool
    public let wellFormed: Bool
    let ctxtWellFormed: Bool
    var budget = XML.entityBudget
    private var names: [UnsafeRawPointer: String] = [:]

    init(doc: xmlDocPtr, html: Bool, wellFormed: Bool, ctxtWellFormed: Bool) {
        self.doc = doc
        self.html = html
        self.wellFormed = wellFormed
        self.ctxtWellFormed = ctxtWellFormed
    }

    deinit { xmlFreeDoc(doc) }

    public var parsedAsHTML: Bool { html }

    public var root: LibXMLElement? {
        xmlDocGetRootElement(doc).map { LibXMLElement(node: $0, document: self, depth: 0) }
    }

    /// The copied tree (for documents read many times: package, navigation, HTML rendering).
    public func tree() -> XDocument? {
        guard let r = xmlDocGetRootElement(doc), let tree = XML.Converter(self).convert(r, depth: 0) else { return nil }
        return XDocument(root: tree, wellFormed: wellFormed, parsedAsHTML: html)
    }

    /// Bytes of text in the document (to choose between recoveries), without copying it.
    lazy var textLength: Int = {
        var total = 0
        var stack: [xmlNodePtr] = []
        if let r = xmlDocGetRootElement(doc) { stack.append(r) }
        while let n = stack.popLast() {
            if n.pointee.type == XML_TEXT_NODE || n.pointee.type == XML_CDATA_SECTION_NODE {
                if let c = n.pointee.content {
                    total += strlen(UnsafeRawPointer(c).assumingMemoryBound(to: CChar.self))
                }
            } else if n.pointee.type == XML_ELEMENT_NODE {
                var c = n.pointee.children
                while let k = c { stack.append(k); c = k.pointee.next }
            }
        }
        return total
    }()

    func name(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        let key = UnsafeRawPointer(p)
        if let s = names[key] { return s }
        var s = String(cString: p)
        if html { s = s.lowercased() }
        names[key] = s
        return s
    }

    func namespace(_ ns: xmlNsPtr?) -> String? {
        guard let href = ns?.pointee.href else { return nil }
        let key = UnsafeRawPointer(href)
        if let s = names[key] { return s }
        let s = String(cString: href)
        names[key] = s
        return s
    }
}

/// An element of a RawDocument, read in place. Valid while its document is alive (it holds it).
public struct LibXMLElement {
    let node: xmlNodePtr
    let document: RawDocument
    /// Below the root (0). Past `XML.maxDepth` an element is read as text only (see ElementView.swift).
    let depth: Int

    public var name: String { document.name(node.pointee.name) }
    public var ns: String? { document.namespace(node.pointee.ns) }

    /// An attribute by local name (and namespace URI when given; without, no namespace first).
    public func attr(_ local: String, ns: String? = nil) -> String? {
        var fallback: xmlAttrPtr?
        var a = node.pointee.properties
        while let attr = a {
            defer { a = attr.pointee.next }
            guard let n = attr.pointee.name else { continue }
            let matches = XML.equals(local, n) || (document.html && document.name(n) == local)
            guard matches else { continue }
            let attrNS = document.namespace(attr.pointee.ns)
            if let ns {
                if attrNS == ns { return value(of: attr) }
            } else if attrNS == nil {
                return value(of: attr)
            } else if fallback == nil {
                fallback = attr
            }
        }
        return ns == nil ? fallback.map(value(of:)) : nil
    }

    func value(of attr: xmlAttrPtr) -> String {
        // Nearly every value is one text node.
        if let only = attr.pointee.children, only.pointee.next == nil, only.pointee.type == XML_TEXT_NODE {
            return only.pointee.content.map { String(cString: $0) } ?? ""
        }
        var out = ""
        var c = attr.pointee.children
        while let child = c {
            if child.pointee.type == XML_TEXT_NODE, let t = child.pointee.content {
                out += String(cString: t)
            } else if child.pointee.type == XML_ENTITY_REF_NODE {
                out += XML.expandEntity(child, doc: document.doc, budget: &document.budget)
            }
            c = child.pointee.next
        }
        return out
    }

    public func forEachChild(_ body: (TextItem<LibXMLElement>) -> Bool) {
        var c = node.pointee.children
        while let child = c {
            var more = true
            switch child.pointee.type {
            case XML_ELEMENT_NODE:
                more = body(.element(LibXMLElement(node: child, document: document, depth: depth + 1)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let t = child.pointee.content {
                    more = body(
                        .text(
                            UnsafeBufferPointer(
                                start: t, count: strlen(UnsafeRawPointer(t).assumingMemoryBound(to: CChar.self)))))
                }
            case XML_ENTITY_REF_NODE:
                var t = XML.expandEntity(child, doc: document.doc, budget: &document.budget)
                if !t.isEmpty { more = t.withUTF8 { body(.text($0)) } }
            default:
                break
            }
            if !more { return }
            c = child.pointee.next
        }
    }
}

public enum XNode {
    case element(XElement)
    case text(String)
}

public struct XDocument {
    public let root: XElement
    /// False when the parser had to recover from errors (or fell back to the HTML parser).
    public let wellFormed: Bool
    public let parsedAsHTML: Bool
}

public enum XML {
    public static let maxDocumentSize = 48 << 20
    /// Elements nested deeper are kept as their text only (gathered without recursion).
    public static let maxDepth = 128
    /// Characters that entity references declared inside a document may add, in all.
    static let entityBudget = 64 * 1024

    static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    static let xmlOptions = Int32(
        XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
    static let htmlOptions = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_COMPACT.rawValue)

    /// Parses XML safely: no network, no DTD loading, no entity substitution (entities declared in
    /// the document are expanded by us, one level, within a small budget), libxml2's default
    /// size and depth limits. With `htmlFallback`, a document the XML parser cannot recover is
    /// read by the HTML parser. Throws only for input over the size limit or with no usable root.
    public static func parse(_ input: Data, name: String, htmlFallback: Bool = false) throws -> XDocument {
        let raw = try parseRaw(input, name: name, htmlFallback: htmlFallback)
        guard let tree = raw.tree() else {
            throw PluginFailure.badData("'\(name)' has no root element", at: name)
        }
        return tree
    }

    /// Parses to a libxml2 document kept as it is (no copy): for one pass over a content document
    /// (text rendering, search), where copying every node and attribute would cost more than the
    /// parse. Same safety and recovery rules as `parse`.
    public static func parseRaw(_ input: Data, name: String, htmlFallback: Bool = false) throws -> RawDocument {
        _ = initialised
        // A plugin never prints: libxml2 reports some errors (encoding conversion, for one) through
        // its thread-local handlers rather than the parser context that XML_PARSE_NOERROR silences.
        // Route them to a handler that drops them for the duration of the parse, then put back
        // whatever the host had set on this thread.
        let savedHandler = __xmlStructuredError()?.pointee
        let savedContext = __xmlStructuredErrorContext()?.pointee
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }
        return try parseQuietly(input, name: name, htmlFallback: htmlFallback)
    }

    private static func parseQuietly(_ input: Data, name: String, htmlFallback: Bool) throws -> RawDocument {
        guard input.count <= maxDocumentSize else {
            throw PluginFailure.limit(
                "'\(name)' is \(input.count) bytes, more than the \(maxDocumentSize)-byte limit for one document",
                at: name)
        }
        let data = replaceHTMLEntities(stripInternalSubset(input))
        var best = parseXML(data)
        if let doc = best, doc.wellFormed { return doc }
        // Invalid UTF-8 stops libxml2 early: repair the bytes and try again.
        if !isValidUTF8(data) && declaresUTF8(data) {
            let repaired = Data(String(decoding: data, as: UTF8.self).utf8)
            if let doc = parseXML(repaired, markRecovered: true),
                doc.ctxtWellFormed || best == nil || doc.textLength > best!.textLength
            {
                if doc.ctxtWellFormed { return doc }
                best = doc
            }
        }
        if htmlFallback, let html = parseHTML(data) {
            if best == nil || html.textLength >= best!.textLength { return html }
        }
        if let best { return best }
        throw PluginFailure.badData("'\(name)' is not well-formed XML and could not be recovered", at: name)
    }

    /// Removes a DOCTYPE whose internal subset declares entities: EPUB documents never need them,
    /// and they are how entity-expansion and external-entity attacks arrive. References to the
    /// removed entities are then dropped by the recovering parser.
    static func stripInternalSubset(_ data: Data) -> Data {
        // A byte search of the first 4 KiB: Data.range(of:) went through NSData's generic search.
        let marker = Array("<!DOCTYPE".utf8)
        let found: Int? = data.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress else { return nil }
            let n = min(raw.count, 4096)
            var i = 0
            while i + marker.count <= n, let hit = memchr(base + i, Int32(marker[0]), n - i) {
                i = base.distance(to: UnsafeRawPointer(hit))
                if i + marker.count <= n, memcmp(base + i, marker, marker.count) == 0 { return i }
                i += 1
            }
            return nil
        }
        guard let offset = found else { return data }
        let start = (data.startIndex + offset)..<(data.startIndex + offset + marker.count)
        var i = start.upperBound
        var depthBracket = 0
        var sawEntity = false
        let bytes = data
        let entity = Data("<!ENTITY".utf8)
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "[") {
                depthBracket += 1
            } else if b == UInt8(ascii: "]") {
                depthBracket -= 1
            } else if b == UInt8(ascii: "<"), depthBracket > 0, bytes[i...].starts(with: entity) {
                sawEntity = true
            } else if b == UInt8(ascii: ">"), depthBracket <= 0 {
                break
            }
            i += 1
        }
        guard sawEntity, i < bytes.endIndex else { return data }
        var out = Data(bytes[bytes.startIndex..<start.lowerBound])
        out.append(bytes[(i + 1)...])
        return out
    }

    static func isValidUTF8(_ data: Data) -> Bool {
        String(validating: data, as: UTF8.self) != nil
    }

    static func declaresUTF8(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        guard let r = head.range(of: "encoding=") else { return true }
        let rest = head[r.upperBound...].dropFirst()
        return rest.hasPrefix("utf-8") || rest.hasPrefix("utf8")
    }

    private static func parseXML(_ data: Data, markRecovered: Bool = false) -> RawDocument? {
        guard let ctxt = xmlNewParserCtxt() else { return nil }
        defer { xmlFreeParserCtxt(ctxt) }
        let doc: xmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return nil }
            return xmlCtxtReadMemory(
                ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), "book.xml", nil, xmlOptions)
        }
        guard let doc else { return nil }
        guard xmlDocGetRootElement(doc) != nil else { xmlFreeDoc(doc); return nil }
        let wellFormed = ctxt.pointee.wellFormed != 0
        return RawDocument(doc: doc, html: false, wellFormed: wellFormed && !markRecovered, ctxtWellFormed: wellFormed)
    }

    private static func parseHTML(_ data: Data) -> RawDocument? {
        guard let ctxt = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(ctxt) }
        let doc: htmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return nil }
            return htmlCtxtReadMemory(
                ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), "book.html", "UTF-8", htmlOptions)
        }
        guard let doc else { return nil }
        guard xmlDocGetRootElement(doc) != nil else { xmlFreeDoc(doc); return nil }
        return RawDocument(doc: doc, html: true, wellFormed: false, ctxtWellFormed: false)
    }

    /// Whether a libxml2 name is `s`, byte for byte.
    static func equals(_ s: String, _ name: UnsafePointer<xmlChar>) -> Bool {
        s.withCString { strcmp($0, UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)) == 0 }
    }

    static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    /// Copies a libxml2 tree into XElements. Element, attribute and namespace names come from
    /// libxml2's dictionary (one pointer per distinct name), so each is turned into a String once.
    struct Converter {
        let context: RawDocument
        var doc: xmlDocPtr { context.doc }

        init(_ context: RawDocument) { self.context = context }

        func name(_ p: UnsafePointer<xmlChar>?) -> String { context.name(p) }
        func namespace(_ ns: xmlNsPtr?) -> String? { context.namespace(ns) }

        func convert(_ node: xmlNodePtr, depth: Int) -> XElement? {
            guard node.pointee.type == XML_ELEMENT_NODE else { return nil }
            let elementName = name(node.pointee.name)
            let ns = namespace(node.pointee.ns)
            var attributes: [XAttribute] = []
            var a = node.pointee.properties
            while let attr = a {
                var value = ""
                var c = attr.pointee.children
                while let child = c {
                    if child.pointee.type == XML_TEXT_NODE {
                        value += XML.string(child.pointee.content)
                    } else if child.pointee.type == XML_ENTITY_REF_NODE {
                        value += XML.expandEntity(child, doc: doc, budget: &context.budget)
                    }
                    c = child.pointee.next
                }
                attributes.append(
                    XAttribute(name: name(attr.pointee.name), ns: namespace(attr.pointee.ns), value: value))
                a = attr.pointee.next
            }
            let element = XElement(name: elementName, ns: ns, attributes: attributes)
            guard depth < XML.maxDepth else {
                element.children = [.text(XML.subtreeText(node))]
                return element
            }
            var children: [XNode] = []
            var c = node.pointee.children
            while let child = c {
                switch child.pointee.type {
                case XML_ELEMENT_NODE:
                    if let e = convert(child, depth: depth + 1) { children.append(.element(e)) }
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    let t = XML.string(child.pointee.content)
                    if case .text(let previous)? = children.last {
                        children[children.count - 1] = .text(previous + t)
                    } else {
                        children.append(.text(t))
                    }
                case XML_ENTITY_REF_NODE:
                    let t = XML.expandEntity(child, doc: doc, budget: &context.budget)
                    if !t.isEmpty { children.append(.text(t)) }
                default:
                    break
                }
                c = child.pointee.next
            }
            element.children = children
            return element
        }
    }

    /// The text under a libxml2 node with a space at each element boundary, depth-first with an
    /// explicit stack (for content past a depth limit).
    static func subtreeText(_ node: xmlNodePtr) -> String {
        var out = ""
        var stack: [xmlNodePtr] = []
        var c = node.pointee.children
        while let n = c { stack.append(n); c = n.pointee.next }
        stack.reverse()
        while let n = stack.popLast() {
            switch n.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                out += string(n.pointee.content)
            case XML_ELEMENT_NODE:
                var kids: [xmlNodePtr] = []
                var k = n.pointee.children
                while let x = k { kids.append(x); k = x.pointee.next }
                stack.append(contentsOf: kids.reversed())
                out += " "
            default:
                break
            }
        }
        return out
    }

    /// An entity declared in the document's internal subset: its replacement text when it is plain
    /// text (no markup, no nested references), within the budget; otherwise nothing. Entities are
    /// never expanded recursively, so "billion laughs" costs nothing.
    static func expandEntity(_ node: xmlNodePtr, doc: xmlDocPtr, budget: inout Int) -> String {
        guard let name = node.pointee.name, let ent = xmlGetDocEntity(doc, name) else { return "" }
        guard ent.pointee.etype == XML_INTERNAL_GENERAL_ENTITY, let content = ent.pointee.content else { return "" }
        let text = String(cString: content)
        guard !text.contains("&"), !text.contains("<"), text.utf8.count <= budget else { return "" }
        budget -= text.utf8.count
        return text
    }

    /// Rewrites HTML named character references (`&nbsp;`, `&eacute;`) that XML does not know into
    /// numeric references, so that XHTML written with HTML habits keeps its characters.
    static func replaceHTMLEntities(_ data: Data) -> Data {
        data.withUnsafeBytes { raw -> Data in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return data }
            let n = raw.count
            var out: [UInt8] = []
            var copied = 0  // bytes of the input already in `out`
            var from = 0
            while from < n, let hit = memchr(base + from, Int32(UInt8(ascii: "&")), n - from) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var j = i + 1
                while j < n, j - i <= 32, isNameByte(base[j]) { j += 1 }
                from = i + 1
                guard j < n, j > i + 1, base[j] == UInt8(ascii: ";") else { continue }
                let name = Array(UnsafeBufferPointer(start: base + i + 1, count: j - i - 1))
                guard !xmlPredefined(name) else { continue }
                let code: UInt32? = (name + [0]).withUnsafeBufferPointer {
                    htmlEntityLookup($0.baseAddress).map { $0.pointee.value }
                }
                guard let code else { continue }
                if out.isEmpty { out.reserveCapacity(n + 64) }
                out.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: i - copied))
                out.append(contentsOf: Array("&#\(code);".utf8))
                copied = j + 1
                from = j + 1
            }
            guard copied > 0 else { return data }
            out.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: n - copied))
            return Data(out)
        }
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    private static func xmlPredefined(_ name: [UInt8]) -> Bool {
        let s = String(decoding: name, as: UTF8.self)
        return s == "amp" || s == "lt" || s == "gt" || s == "quot" || s == "apos"
    }

    /// Collapses XML white-space runs (space, tab, CR, LF) to one space and trims. No-break and
    /// other Unicode spaces are content (Mongolian titles use U+202F).
    public static func collapse(_ s: String) -> String {
        var s = s
        return s.withUTF8 { collapse(bytes: $0) }
    }

    public static func collapse<C: Collection>(bytes: C) -> String where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        for b in bytes {
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `collapse(bytes:)` of a buffer the caller is done with, collapsed where it is.
    static func collapse(reusing bytes: inout [UInt8]) -> String {
        let n = bytes.withUnsafeMutableBufferPointer { collapse(inPlace: $0) }
        return String(decoding: bytes[..<n], as: UTF8.self)
    }

    /// Collapses in place (the text only shrinks) and returns the new length: a whole book's
    /// text goes through here, so no copy is made.
    public static func collapse(inPlace bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var n = 0
        var pendingSpace = false
        for i in bytes.indices {
            let b = bytes[i]
            // Most bytes are above the space: one comparison settles them.
            if b > 0x20 || (b != 0x20 && b != 0x0A && b != 0x09 && b != 0x0D) {
                if pendingSpace { bytes[n] = 0x20; n &+= 1; pendingSpace = false }
                bytes[n] = b
                n &+= 1
            } else {
                pendingSpace = n > 0
            }
        }
        return n
    }
}
