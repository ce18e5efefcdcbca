import CXML2
import Foundation
import XMLText

/// What an `XMLStream` reports, in document order. Element and attribute names come from the parse's
/// name table (see `XMLNames`), so handlers compare them by address; names, text and attribute values
/// are valid only during the call.
protocol XMLStreamHandler: AnyObject {
    /// Before the first event: the parse's name table, to intern the names the handler looks for.
    func prepare(_ names: XMLNames)
    /// An element opens at `depth` (the root is 0). `namespace` is its namespace URI, if it has one.
    func start(
        _ name: UnsafePointer<xmlChar>, namespace: UnsafePointer<xmlChar>?, attributes: XMLStreamAttributes, depth: Int)
    func end(depth: Int)
    /// Character data of the element open at `depth` (CDATA and references included), in pieces.
    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int)
}

/// The package document and the NCX, read with libxml2's SAX2 parser: no tree is built, then walked
/// and freed, which was most of what opening a book cost.
///
/// The stream only takes documents that the tree (`XML.parseRaw`) would read as they are: same
/// preparation of the bytes, same parser options (no network, no DTD loading, no entity
/// substitution). A document that is not well-formed (the tree recovers it, or repairs its UTF-8),
/// declares anything in an internal subset (entities, which the tree expands within a budget),
/// refers to an entity nobody declared, has a namespace prefix nobody bound, or nests as deep as
/// `XML.maxDepth` (where the tree's reading flattens elements into text) is refused: `read`
/// returns false and the caller reads the tree instead, so both give the same answer.
enum XMLStream {
    static func read(_ input: Data, _ handler: XMLStreamHandler) -> Bool {
        guard !input.isEmpty, input.count <= XML.maxDocumentSize else { return false }
        var state: XMLStreamState?
        let outcome = XMLSAX.parse(
            XML.replaceHTMLEntities(XML.stripInternalSubset(input)), options: XML.xmlOptions,
            documentName: "book.xml"
        ) { parser in
            let made = XMLStreamState(handler: handler, parser: parser)
            handler.prepare(XMLNames(dict: parser.pointee.dict))
            state = made
            return made
        }
        guard let outcome, let state else { return false }
        return !state.refused && state.sawRoot && outcome.wellFormed && outcome.namespacesWellFormed
    }
}

/// One parse's bookkeeping between libxml2's callbacks and the handler. Its fields skip Swift's
/// run-time exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class XMLStreamState: XMLSAXEvents {
    let handler: XMLStreamHandler
    let parser: xmlParserCtxtPtr
    @exclusivity(unchecked) var depth = -1
    @exclusivity(unchecked) var sawRoot = false
    /// The document is left to the tree; from then on the handler hears nothing.
    @exclusivity(unchecked) var refused = false

    init(handler: XMLStreamHandler, parser: xmlParserCtxtPtr) {
        self.handler = handler
        self.parser = parser
    }

    func refuse() {
        refused = true
        XMLSAX.stop(parser)
    }

    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int
    ) {
        depth += 1
        sawRoot = true
        guard !refused else { return }
        guard depth < XML.maxDepth, let localname else {
            refused = true
            return
        }
        handler.start(
            localname, namespace: uri, attributes: XMLStreamAttributes(pointer: attributes, count: count), depth: depth)
    }

    func endElement() {
        if !refused { handler.end(depth: depth) }
        depth -= 1
    }

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ length: Int) {
        guard !refused, depth >= 0, let bytes, length > 0 else { return }
        handler.text(UnsafeBufferPointer(start: bytes, count: length), depth: depth)
    }

    /// An entity reference the stream would have to expand is left to the tree; comments and processing
    /// instructions are nobody's business.
    func otherNode(_ kind: XMLSAXNode) {
        if kind == .reference { refuse() }
    }

    /// Anything declared is left to the tree, which expands entities within a budget.
    func declaration(_ kind: XMLSAXDeclaration) { refuse() }
}

/// A parse's name table, for handlers to intern the names they look for before the parse begins:
/// the parser hands over each element and attribute name at the one address the table gives it.
struct XMLNames {
    let dict: xmlDictPtr?

    func intern(_ name: String) -> UnsafePointer<xmlChar>? {
        name.withCString { xmlDictLookup(dict, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), -1) }
    }
}
