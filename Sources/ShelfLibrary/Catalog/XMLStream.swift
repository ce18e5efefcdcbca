import CXML2
import Foundation
import XMLText

/// What an `XMLStream` reports, in document order. Names are interned (see `XMLNames`), so handlers compare them by
/// address; text and attribute values are bytes valid only during the call.
protocol XMLStreamHandler: AnyObject {
    /// Before the first event: the parse's name table, to intern the names the handler looks for.
    func prepare(_ names: XMLNames)
    /// An element opens at `depth` (the root is 0). `namespace` is its namespace URI, if it has one.
    func start(_ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes: XMLAttributes, depth: Int)
    func end(depth: Int)
    /// Whether the handler reads the text of the element open at `depth` now; text nobody reads is not weighed.
    func wantsText(depth: Int) -> Bool
    /// Character data of the element open at `depth` (CDATA included), in pieces.
    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int)
}

/// Safe streaming XML for documents from the network, with libxml2's SAX2 parser: no tree is built. No network
/// access, no DTD loading, no entity substitution, entity declarations refused outright, and limits on size, depth
/// and element count. Handlers see exactly what the catalog's former tree saw (white space included: see
/// `XMLBlankText`), and are told nothing about a document that turns out to be unusable: `parse` throws instead.
enum XMLStream {
    static let maxDocumentSize = 16 << 20
    static let maxDepth = 200
    static let maxElements = 400_000

    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static let entitiesRefused =
        "it declares XML entities (<!ENTITY>), which shelf refuses: feeds never need them and "
        + "they are how entity-expansion and external-entity attacks arrive"

    private static let options = Int32(
        XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)

    /// Streams `data` through `handler`, or explains in words why it is not usable XML. The handler's events for an
    /// unusable document are to be discarded: the refusal is thrown after them.
    static func parse(_ data: Data, _ handler: XMLStreamHandler) throws {
        guard !data.isEmpty else { throw Failure(reason: "it is empty") }
        guard data.count <= maxDocumentSize else {
            throw Failure(
                reason:
                    "it is \(data.count) bytes, more than the \(maxDocumentSize >> 20) MB shelf reads as one document")
        }
        // The quick refusal; the parser's entity-declaration callback catches any declaration this misses.
        if declaresEntities(data) { throw Failure(reason: entitiesRefused) }
        var state: XMLStreamState?
        let outcome = XMLSAX.parse(data, options: options, documentName: "feed.xml") { parser in
            let made = XMLStreamState(handler: handler, parser: parser)
            handler.prepare(XMLNames(dict: parser.pointee.dict))
            state = made
            return made
        }
        guard let outcome, let state else { throw Failure(reason: "out of memory") }
        if state.declaredEntities { throw Failure(reason: entitiesRefused) }
        guard outcome.wellFormed else {
            throw Failure(reason: outcome.lastError.map { "it is not well-formed XML (\($0))" } ?? "it is not XML")
        }
        guard state.sawRoot else { throw Failure(reason: "it has no root element") }
        if let failure = state.limit { throw failure }
    }

    static func declaresEntities(_ data: Data) -> Bool {
        // A DOCTYPE can only come before the root element; looking at the head is enough for the common case.
        data.withUnsafeBytes { raw in
            let head = UnsafeRawBufferPointer(rebasing: raw.prefix(64 * 1024))
            guard let doctype = find(Array("<!DOCTYPE".utf8), in: head, from: 0) else { return false }
            return find(Array("<!ENTITY".utf8), in: head, from: doctype + 9) != nil
        }
    }

    /// Where `needle` (starting with '<') first occurs in `bytes` at or after `start`.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var i = start
        while bytes.count - i >= needle.count {
            guard let lt = memchr(base + i, Int32(needle[0]), bytes.count - i) else { return nil }
            i = UnsafeRawPointer(lt) - base
            guard bytes.count - i >= needle.count else { return nil }
            if memcmp(lt, needle, needle.count) == 0 { return i }
            i += 1
        }
        return nil
    }
}

/// One parse's bookkeeping between libxml2's callbacks and the handler: limits, and the white space rules.
/// Its fields skip Swift's run-time exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class XMLStreamState: XMLSAXEvents {
    let handler: XMLStreamHandler
    let parser: xmlParserCtxtPtr
    @exclusivity(unchecked) var blanks = XMLBlankText()
    @exclusivity(unchecked) var depth = -1
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) var sawRoot = false
    @exclusivity(unchecked) var declaredEntities = false
    /// The first limit the document broke; from then on the handler hears nothing.
    @exclusivity(unchecked) var limit: XMLStream.Failure?

    init(handler: XMLStreamHandler, parser: xmlParserCtxtPtr) {
        self.handler = handler
        self.parser = parser
    }

    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count attributeCount: Int
    ) {
        depth += 1
        sawRoot = true
        // The tree named an element with an unresolved prefix by its qualified name.
        blanks.open(
            depth: depth,
            name: (uri == nil ? prefix.map { String(cString: $0) + ":" } ?? "" : "")
                + (localname.map { String(cString: $0) } ?? ""))
        guard limit == nil else { return }
        count += 1
        if count > XMLStream.maxElements {
            limit = XMLStream.Failure(reason: "it has more than \(XMLStream.maxElements) elements")
        } else if depth >= XMLStream.maxDepth {
            limit = XMLStream.Failure(reason: "it nests elements more than \(XMLStream.maxDepth) deep")
        } else {
            handler.start(
                XMLName(localname, uri: uri, parser: parser), namespace: uri,
                attributes: XMLAttributes(parser: parser, pointer: attributes, count: attributeCount), depth: depth)
        }
    }

    func endElement() {
        if limit == nil { handler.end(depth: depth) }
        depth -= 1
    }

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ length: Int) {
        // Which white space the tree kept only matters for text somebody reads: an element's runs only ever count
        // towards its own text.
        guard depth >= 0, let bytes, length > 0, limit == nil, handler.wantsText(depth: depth) else { return }
        let text = UnsafeBufferPointer(start: bytes, count: length)
        if blanks.keeps(text, depth: depth, parser: parser) { handler.text(text, depth: depth) }
    }

    /// Nodes the former tree held (they decide which white space it dropped) but nobody reads.
    func otherNode(_ kind: XMLSAXNode) {
        if depth >= 0 { blanks.otherNode(depth: depth) }
    }

    func declaration(_ kind: XMLSAXDeclaration) {
        switch kind {
        case let .element(name, type): blanks.declare(name, type: type)
        case .entity:
            declaredEntities = true
            XMLSAX.stop(parser)
        case .attribute, .notation, .unparsedEntity: break
        }
    }
}

/// An element or attribute name as libxml2 interns it: one address per name per parse.
struct XMLName: Equatable {
    let pointer: UnsafePointer<xmlChar>?

    init(pointer: UnsafePointer<xmlChar>?) { self.pointer = pointer }

    /// The name the former tree matched: a name with a prefix libxml2 could not resolve (`simplified:pwid` in a
    /// fragment) is read by its last part.
    @inline(__always)
    init(_ localname: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, parser: xmlParserCtxtPtr) {
        guard uri == nil, parser.pointee.nsWellFormed == 0, let localname,
            let colon = strrchr(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self), 0x3A)
        else {
            pointer = localname
            return
        }
        pointer = xmlDictLookup(
            parser.pointee.dict, UnsafeRawPointer(colon + 1).assumingMemoryBound(to: xmlChar.self), -1)
    }

    var string: String { pointer.map { String(cString: $0) } ?? "" }
}

/// A parse's name table, for handlers to intern the names they look for before the parse begins.
struct XMLNames {
    let dict: xmlDictPtr?

    func intern(_ name: String) -> XMLName {
        XMLName(
            pointer: name.withCString {
                xmlDictLookup(dict, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), -1)
            })
    }
}
