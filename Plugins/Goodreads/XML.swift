// libxml2's `xmlFree` is a function-pointer variable, set when the library initialises and never changed after,
// so calling through it from any thread is safe although Swift 6 sees a mutable C global.
@preconcurrency import CXML2
import Foundation

/// A small element tree read with libxml2: no network, no entity expansion, no DTD loading.
/// Goodreads answers sometimes start with whitespace before `<?xml`; it is trimmed first.
final class XNode {
    let name: String
    var attributes: [String: String] = [:]
    var children: [XNode] = []
    var text = ""

    init(name: String) { self.name = name }

    func child(_ name: String) -> XNode? { children.first { $0.name == name } }
    func all(_ name: String) -> [XNode] { children.filter { $0.name == name } }
    func string(_ name: String) -> String? {
        guard let c = child(name), c.attributes["nil"] != "true" else { return nil }
        let t = c.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }
    /// Depth-first search for the first element called `name`.
    func find(_ name: String) -> XNode? {
        if self.name == name { return self }
        for c in children { if let f = c.find(name) { return f } }
        return nil
    }

    static func parse(_ data: Data, what: String) throws -> XNode {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        while let first = bytes.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 {
            bytes.removeFirst()
        }
        guard !bytes.isEmpty, bytes.count < 64 << 20 else { throw XMLFailure("\(what) is empty or too large") }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue)
        guard
            let doc = bytes.withUnsafeBufferPointer({ buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), nil, nil, options)
                }
            })
        else {
            throw XMLFailure("\(what) is not well-formed XML")
        }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { throw XMLFailure("\(what) has no root element") }
        var count = 0
        return try build(root, depth: 0, count: &count)
    }

    private static func build(_ node: xmlNodePtr, depth: Int, count: inout Int) throws -> XNode {
        guard depth < 64 else { throw XMLFailure("the XML is nested too deeply") }
        count += 1
        guard count < 2_000_000 else { throw XMLFailure("the XML has too many elements") }
        let element = XNode(name: node.pointee.name.map { String(cString: $0) } ?? "")
        var attribute = node.pointee.properties
        while let a = attribute {
            let key = a.pointee.name.map { String(cString: $0) } ?? ""
            if let value = xmlNodeGetContent(UnsafeMutableRawPointer(a).assumingMemoryBound(to: xmlNode.self)) {
                element.attributes[key] = String(cString: value)
                xmlFree(value)
            }
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE: element.children.append(try build(c, depth: depth + 1, count: &count))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = c.pointee.content { element.text += String(cString: content) }
            default: break
            }
            child = c.pointee.next
        }
        return element
    }
}

struct XMLFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
