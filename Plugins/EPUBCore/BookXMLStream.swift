import CXML2
import Foundation
import XMLText

/// The package document, navigation, NCX and SMIL read as a stream (`XMLStream`): no tree is built, then walked and
/// freed, which was most of what opening a book cost.
///
/// The stream only takes documents that the tree (`XML.parseRaw`) would read as they are: same preparation of the
/// bytes, same parser options (no network, no DTD loading, no entity substitution). A document that is not
/// well-formed (the tree recovers it, or repairs its UTF-8), declares anything in an internal subset (entities,
/// which the tree expands within a budget), refers to an entity nobody declared, has a namespace prefix nobody
/// bound, or nests as deep as `XML.maxDepth` (where the tree's reading flattens elements into text) is refused:
/// `read` returns false and the caller reads the tree instead, so both give the same answer.
extension XMLStream {
    static let book = Rules(
        options: XML.xmlOptions, documentName: "book.xml", maxDepth: XML.maxDepth, subset: .nothing)

    static func read(_ input: Data, _ handler: XMLStreamHandler) -> Bool {
        guard !input.isEmpty, input.count <= XML.maxDocumentSize else { return false }
        do {
            try parse(XML.replaceHTMLEntities(XML.stripInternalSubset(input)), rules: book, handler)
            return true
        } catch {
            return false
        }
    }
}

extension XMLAttributes {
    /// Every attribute in the order written, as the tree's `attributes` lists them; `namespaces` keeps one string per
    /// namespace URI across a parse.
    func all(namespaces: inout [UnsafeRawPointer: String]) -> [XAttribute] {
        guard count > 0 else { return [] }
        var out: [XAttribute] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            var ns: String?
            if let uri = namespace(at: i) {
                if let known = namespaces[UnsafeRawPointer(uri)] {
                    ns = known
                } else {
                    ns = String(cString: uri)
                    namespaces[UnsafeRawPointer(uri)] = ns
                }
            }
            out.append(XAttribute(name: String(cString: pointer![5 * i]!), ns: ns, value: string(at: i)))
        }
        return out
    }
}
