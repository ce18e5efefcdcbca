import CXML2
import Glibc

/// Reading libxml2's tree in place, for the small documents an open reads once (container,
/// encryption, a cover page) and for the package, NCX, nav and SMIL documents that the SAX2 stream
/// leaves to the recovering tree (see `XMLStream`): copying every node into Swift objects and
/// freeing them again cost more than the parse itself.
///
/// Reads exactly as the copied tree (`XElement`) does: entity references declared in the document
/// expand within its budget, and an element `XML.maxDepth` levels down has no child elements, only
/// its text with a space at each element boundary.
extension LibXMLElement {
    /// Whether the local name is `local` (HTML-parsed names lowercased, as `name` reads them),
    /// without making a String of the name.
    public func isNamed(_ local: String) -> Bool {
        guard let n = node.pointee.name else { return local.isEmpty }
        if document.html { return document.name(n) == local }
        return XML.equals(local, n)
    }

    /// Whether the element's namespace URI is `uri`.
    public func isIn(_ uri: String) -> Bool {
        guard let href = node.pointee.ns?.pointee.href else { return false }
        return XML.equals(uri, href)
    }

    private func matches(_ local: String, _ ns: String?) -> Bool {
        isNamed(local) && (ns == nil || isIn(ns!))
    }

    /// Child elements in document order (none past the depth limit).
    public func forEachElement(_ body: (LibXMLElement) throws -> Void) rethrows {
        guard depth < XML.maxDepth else { return }
        var c = node.pointee.children
        while let child = c {
            if child.pointee.type == XML_ELEMENT_NODE {
                try body(LibXMLElement(node: child, document: document, depth: depth + 1))
            }
            c = child.pointee.next
        }
    }

    public var elements: [LibXMLElement] {
        var out: [LibXMLElement] = []
        forEachElement { out.append($0) }
        return out
    }

    public func child(_ local: String, ns: String? = nil) -> LibXMLElement? {
        guard depth < XML.maxDepth else { return nil }
        var c = node.pointee.children
        while let child = c {
            if child.pointee.type == XML_ELEMENT_NODE {
                let e = LibXMLElement(node: child, document: document, depth: depth + 1)
                if e.matches(local, ns) { return e }
            }
            c = child.pointee.next
        }
        return nil
    }

    public func children(_ local: String, ns: String? = nil) -> [LibXMLElement] {
        var out: [LibXMLElement] = []
        forEachElement { if $0.matches(local, ns) { out.append($0) } }
        return out
    }

    /// Every descendant element (document order) of that local name, or all of them; iterative,
    /// so deep trees cannot overflow the stack.
    public func descendants(_ local: String? = nil) -> [LibXMLElement] {
        var out: [LibXMLElement] = []
        walk { e in
            if local == nil || e.isNamed(local!) { out.append(e) }
        } text: { _ in
        }
        return out
    }

    /// The attributes in the order written, values expanded as `attr` reads them.
    public var attributes: [XAttribute] {
        var out: [XAttribute] = []
        var a = node.pointee.properties
        while let attr = a {
            out.append(
                XAttribute(
                    name: document.name(attr.pointee.name), ns: document.namespace(attr.pointee.ns),
                    value: value(of: attr)))
            a = attr.pointee.next
        }
        return out
    }

    /// Concatenated text of this element and its descendants.
    public var text: String {
        guard depth < XML.maxDepth else { return XML.subtreeText(node) }
        var out: [UInt8] = []
        walk { _ in
        } text: {
            out.append(contentsOf: $0)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Text with whitespace runs collapsed and trimmed.
    public var trimmedText: String { XML.collapse(text) }

    /// Depth-first over the subtree below this element, in document order, without recursion or a
    /// stack (libxml2's parent links lead back up): `element` for each descendant element, `text`
    /// for the bytes of each text run, entity expansion and flattened too-deep element.
    private func walk(element: (LibXMLElement) -> Void, text: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard depth < XML.maxDepth else { return }
        func emit(_ s: String) {
            var s = s
            s.withUTF8 { text($0) }
        }
        var next = node.pointee.children
        var d = depth + 1
        while let n = next {
            var descend = false
            switch n.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let c = n.pointee.content {
                    text(
                        UnsafeBufferPointer(
                            start: c, count: strlen(UnsafeRawPointer(c).assumingMemoryBound(to: CChar.self))))
                }
            case XML_ENTITY_REF_NODE:
                emit(XML.expandEntity(n, doc: document.doc, budget: &document.budget))
            case XML_ELEMENT_NODE:
                element(LibXMLElement(node: n, document: document, depth: d))
                if d >= XML.maxDepth { emit(XML.subtreeText(n)) } else { descend = n.pointee.children != nil }
            default:
                break
            }
            if descend {
                next = n.pointee.children
                d += 1
                continue
            }
            // The next sibling, or that of the nearest ancestor below this element that has one.
            var up = n
            while up.pointee.next == nil {
                guard let parent = up.pointee.parent, parent != node else { return }
                up = parent
                d -= 1
            }
            next = up.pointee.next
        }
    }
}
