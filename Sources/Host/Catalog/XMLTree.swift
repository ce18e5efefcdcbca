import CXML2
import Foundation

/// An XML element copied out of libxml2: names with their namespace URIs, attributes, children, text.
/// Catalog code reads feeds through this small tree and never holds a libxml2 pointer.
public struct XMLElement: Sendable {
    public var name: String
    public var namespace: String?
    public var attributes: [(name: String, namespace: String?, value: String)]
    public var children: [XMLElement]
    /// The element's own text (character data of direct children, CDATA included).
    public var text: String

    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        attributes.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }?.value
    }

    public func children(_ name: String, namespace: String? = nil) -> [XMLElement] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    public func child(_ name: String, namespace: String? = nil) -> XMLElement? {
        children.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    public var trimmedText: String { FastText.trimmed(text) }
}

/// Safe XML parsing for documents from the network: no network access, no DTD loading, no entity
/// substitution, entity declarations refused outright, and limits on size, depth and element count.
public enum XMLTree {
    public static let maxDocumentSize = 16 << 20
    public static let maxDepth = 200
    public static let maxElements = 400_000

    public struct Failure: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)

    /// Parses `data` into a tree, or explains in words why it is not usable XML.
    public static func parse(_ data: Data) throws -> XMLElement {
        try withDocument(data) { root in
            var count = 0
            return try convert(root.node, depth: 0, count: &count)
        }
    }

    /// Parses `data` and hands `body` the root element as libxml2 holds it, without copying the tree: the catalog
    /// parser's path. The node is valid only inside `body`. The same refusals and limits as `parse`.
    static func withDocument<T>(_ data: Data, _ body: (XMLNode) throws -> T) throws -> T {
        _ = initialised
        guard !data.isEmpty else { throw Failure(reason: "it is empty") }
        guard data.count <= maxDocumentSize else {
            throw Failure(reason: "it is \(data.count) bytes, more than the \(maxDocumentSize >> 20) MB shelf reads as one document")
        }
        if declaresEntities(data) {
            throw Failure(reason: "it declares XML entities (<!ENTITY>), which shelf refuses: feeds never need them and "
                + "they are how entity-expansion and external-entity attacks arrive")
        }
        guard let ctxt = xmlNewParserCtxt() else { throw Failure(reason: "out of memory") }
        defer { xmlFreeParserCtxt(ctxt) }
        let doc: xmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            return xmlCtxtReadMemory(ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count),
                                     "feed.xml", nil, options)
        }
        guard let doc else { throw Failure(reason: lastError(ctxt) ?? "it is not XML") }
        defer { xmlFreeDoc(doc) }
        guard ctxt.pointee.wellFormed != 0 else { throw Failure(reason: lastError(ctxt) ?? "it is not well-formed XML") }
        guard let root = xmlDocGetRootElement(doc) else { throw Failure(reason: "it has no root element") }
        try checkLimits(root)
        return try body(XMLNode(node: root))
    }

    /// Depth and element count, walked without recursion or allocation.
    private static func checkLimits(_ root: xmlNodePtr) throws {
        var count = 0, depth = 0
        var node: xmlNodePtr? = root
        while let current = node {
            if current.pointee.type == XML_ELEMENT_NODE {
                count += 1
                guard count <= maxElements else { throw Failure(reason: "it has more than \(maxElements) elements") }
                guard depth < maxDepth else { throw Failure(reason: "it nests elements more than \(maxDepth) deep") }
                if let child = current.pointee.children {
                    depth += 1
                    node = child
                    continue
                }
            }
            // Next sibling, or climb until one has a sibling.
            var climb: xmlNodePtr? = current
            node = nil
            while let c = climb, c != root {
                if let next = c.pointee.next { node = next; break }
                climb = c.pointee.parent
                depth -= 1
                if climb == root { climb = nil }
            }
        }
    }

    static func declaresEntities(_ data: Data) -> Bool {
        // A DOCTYPE can only come before the root element; looking at the head is enough.
        let head = data.prefix(64 * 1024)
        guard let doctype = head.range(of: Data("<!DOCTYPE".utf8)) else { return false }
        return head[doctype.upperBound...].range(of: Data("<!ENTITY".utf8)) != nil
    }

    private static func lastError(_ ctxt: xmlParserCtxtPtr) -> String? {
        guard let error = xmlCtxtGetLastError(UnsafeMutableRawPointer(ctxt)), let message = error.pointee.message else {
            return nil
        }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return "it is not well-formed XML (line \(error.pointee.line): \(text))"
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String? {
        p.map { String(cString: $0) }
    }

    fileprivate static func convert(_ node: xmlNodePtr, depth: Int, count: inout Int) throws -> XMLElement {
        guard depth < maxDepth else { throw Failure(reason: "it nests elements more than \(maxDepth) deep") }
        count += 1
        guard count <= maxElements else { throw Failure(reason: "it has more than \(maxElements) elements") }
        var attributes: [(name: String, namespace: String?, value: String)] = []
        var attribute = node.pointee.properties
        while let a = attribute {
            let name = string(a.pointee.name) ?? ""
            let namespace = a.pointee.ns.flatMap { string($0.pointee.href) }
            var value = ""
            var child = a.pointee.children
            while let c = child {
                if let content = c.pointee.content { value += String(cString: content) }
                child = c.pointee.next
            }
            attributes.append((namespace == nil ? localPart(name) : name, namespace, value))
            attribute = a.pointee.next
        }
        var children: [XMLElement] = []
        var text = ""
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE: children.append(try convert(c, depth: depth + 1, count: &count))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = c.pointee.content { text += String(cString: content) }
            default: break  // comments, processing instructions, entity references (never expanded)
            }
            child = c.pointee.next
        }
        let namespace = node.pointee.ns.flatMap { string($0.pointee.href) }
        let name = string(node.pointee.name) ?? ""
        return XMLElement(name: namespace == nil ? localPart(name) : name, namespace: namespace,
                          attributes: attributes, children: children, text: text)
    }

    /// Fragments cut out of a feed keep prefixes they never declare (`simplified:pwid`); read them by local name.
    fileprivate static func localPart(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The text of an element and all its descendants, for Atom text constructs of type xhtml.
    public static func allText(_ element: XMLElement) -> String {
        element.text + element.children.map(allText).joined()
    }
}

/// An element as libxml2 holds it, read in place (valid only inside `XMLTree.withDocument`): the same questions as
/// `XMLElement` asks, answered without copying the tree into Swift values.
struct XMLNode {
    let node: xmlNodePtr

    /// Whether a libxml2 name is `name`: exactly, or by its local part when the prefix was never declared.
    @inline(__always)
    private static func named(_ cName: UnsafePointer<xmlChar>?, hasNamespace: Bool, _ name: String) -> Bool {
        guard let cName else { return false }
        return name.withCString { wanted in
            let raw = UnsafeRawPointer(cName).assumingMemoryBound(to: CChar.self)
            if strcmp(raw, wanted) == 0 { return true }
            guard !hasNamespace, let colon = strrchr(raw, 0x3A) else { return false }
            return strcmp(colon + 1, wanted) == 0
        }
    }

    @inline(__always)
    private static func inNamespace(_ ns: xmlNsPtr?, _ namespace: String?) -> Bool {
        guard let namespace else { return true }
        guard let href = ns?.pointee.href else { return false }
        return namespace.withCString { strcmp(UnsafeRawPointer(href).assumingMemoryBound(to: CChar.self), $0) == 0 }
    }

    var namespace: String? { node.pointee.ns.flatMap { $0.pointee.href }.map { String(cString: $0) } }

    var name: String {
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        return node.pointee.ns == nil ? XMLTree.localPart(name) : name
    }

    func attribute(_ name: String, namespace: String? = nil) -> String? {
        var attribute = node.pointee.properties
        while let a = attribute {
            if Self.named(a.pointee.name, hasNamespace: a.pointee.ns != nil, name), Self.inNamespace(a.pointee.ns, namespace) {
                var value = ""
                var child = a.pointee.children
                while let c = child {
                    if let content = c.pointee.content { value += String(cString: content) }
                    child = c.pointee.next
                }
                return value
            }
            attribute = a.pointee.next
        }
        return nil
    }

    private func matches(_ c: xmlNodePtr, _ name: String, _ namespace: String?) -> Bool {
        c.pointee.type == XML_ELEMENT_NODE && Self.named(c.pointee.name, hasNamespace: c.pointee.ns != nil, name)
            && Self.inNamespace(c.pointee.ns, namespace)
    }

    func children(_ name: String, namespace: String? = nil) -> [XMLNode] {
        var found: [XMLNode] = []
        var child = node.pointee.children
        while let c = child {
            if matches(c, name, namespace) { found.append(XMLNode(node: c)) }
            child = c.pointee.next
        }
        return found
    }

    func child(_ name: String, namespace: String? = nil) -> XMLNode? {
        var child = node.pointee.children
        while let c = child {
            if matches(c, name, namespace) { return XMLNode(node: c) }
            child = c.pointee.next
        }
        return nil
    }

    /// The element's own text (character data of direct children, CDATA included).
    var text: String {
        var text = ""
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_TEXT_NODE || c.pointee.type == XML_CDATA_SECTION_NODE, let content = c.pointee.content {
                text += String(cString: content)
            }
            child = c.pointee.next
        }
        return text
    }

    var trimmedText: String { FastText.trimmed(text) }

    /// The text of the element and all its descendants, in document order of elements as `XMLTree.allText` reads.
    var allText: String {
        var result = text
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { result += XMLNode(node: c).allText }
            child = c.pointee.next
        }
        return result
    }
}
