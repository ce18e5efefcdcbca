import CXML2
import Foundation

/// What an `XMLStream` reports, in document order. Element and attribute names come from the parse's
/// name table (see `XMLNames`), so handlers compare them by address; names, text and attribute values
/// are valid only during the call.
protocol XMLStreamHandler: AnyObject {
    /// Before the first event: the parse's name table, to intern the names the handler looks for.
    func prepare(_ names: XMLNames)
    /// An element opens at `depth` (the root is 0). `namespace` is its namespace URI, if it has one.
    func start(_ name: UnsafePointer<xmlChar>, namespace: UnsafePointer<xmlChar>?, attributes: XMLStreamAttributes, depth: Int)
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
        _ = XML.initialised
        let data = XML.replaceHTMLEntities(XML.stripInternalSubset(input))
        guard let ctxt = xmlNewParserCtxt() else { return false }
        defer { xmlFreeParserCtxt(ctxt) }
        // A plugin never prints (see `XML.parseRaw`): libxml2's thread-wide handlers are silenced
        // for the parse and put back after.
        let savedHandler = __xmlStructuredError()?.pointee
        let savedContext = __xmlStructuredErrorContext()?.pointee
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }
        // The context's own handler, overwritten: libxml2 frees it with the context.
        ctxt.pointee.sax.pointee = saxHandler
        let state = XMLStreamState(handler: handler)
        handler.prepare(XMLNames(dict: ctxt.pointee.dict))
        ctxt.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        withExtendedLifetime(state) {
            data.withUnsafeBytes { raw in
                // No document comes back: the handler has no startDocument, so no tree is made.
                _ = xmlCtxtReadMemory(ctxt, raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(raw.count),
                                      "book.xml", nil, XML.xmlOptions)
            }
        }
        return !state.refused && state.sawRoot && ctxt.pointee.wellFormed != 0 && ctxt.pointee.nsWellFormed != 0
    }

    /// Only the callbacks the readers need, plus those that spot what the stream leaves to the tree;
    /// everything else DTD-related is left out, so nothing is loaded or substituted.
    private static let saxHandler: xmlSAXHandler = {
        var sax = xmlSAXHandler()
        sax.initialized = 0xDEEDBEAF  // XML_SAX2_MAGIC: namespace-aware callbacks
        sax.startElementNs = { ctx, localname, _, uri, _, _, count, defaulted, attributes in
            XMLStreamState.of(ctx).start(localname, uri, attributes, Int(count - defaulted))
        }
        sax.endElementNs = { ctx, _, _, _ in XMLStreamState.of(ctx).end() }
        sax.characters = { ctx, bytes, length in XMLStreamState.of(ctx).characters(bytes, Int(length)) }
        sax.ignorableWhitespace = sax.characters
        sax.reference = { ctx, _ in XMLStreamState.of(ctx).refuse(ctx) }
        sax.entityDecl = { ctx, _, _, _, _, _ in XMLStreamState.of(ctx).refuse(ctx) }
        sax.attributeDecl = { ctx, _, _, _, _, _, _ in XMLStreamState.of(ctx).refuse(ctx) }
        sax.elementDecl = { ctx, _, _, _ in XMLStreamState.of(ctx).refuse(ctx) }
        sax.notationDecl = { ctx, _, _, _ in XMLStreamState.of(ctx).refuse(ctx) }
        sax.unparsedEntityDecl = { ctx, _, _, _, _ in XMLStreamState.of(ctx).refuse(ctx) }
        return sax
    }()
}

/// One parse's bookkeeping between libxml2's callbacks and the handler. Its fields skip Swift's
/// run-time exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class XMLStreamState {
    let handler: XMLStreamHandler
    @exclusivity(unchecked) var depth = -1
    @exclusivity(unchecked) var sawRoot = false
    /// The document is left to the tree; from then on the handler hears nothing.
    @exclusivity(unchecked) var refused = false

    init(handler: XMLStreamHandler) { self.handler = handler }

    @inline(__always)
    static func of(_ ctx: UnsafeMutableRawPointer?) -> XMLStreamState {
        let parser = ctx.unsafelyUnwrapped.assumingMemoryBound(to: xmlParserCtxt.self)
        return Unmanaged<XMLStreamState>.fromOpaque(parser.pointee._private.unsafelyUnwrapped).takeUnretainedValue()
    }

    func refuse(_ ctx: UnsafeMutableRawPointer?) {
        refused = true
        xmlStopParser(ctx?.assumingMemoryBound(to: xmlParserCtxt.self))
    }

    func start(_ localname: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
               _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ count: Int) {
        depth += 1
        sawRoot = true
        guard !refused else { return }
        guard depth < XML.maxDepth, let localname else {
            refused = true
            return
        }
        handler.start(localname, namespace: uri, attributes: XMLStreamAttributes(pointer: attributes, count: count), depth: depth)
    }

    func end() {
        if !refused { handler.end(depth: depth) }
        depth -= 1
    }

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ length: Int) {
        guard !refused, depth >= 0, let bytes, length > 0 else { return }
        handler.text(UnsafeBufferPointer(start: bytes, count: length), depth: depth)
    }
}

/// A parse's name table, for handlers to intern the names they look for before the parse begins:
/// the parser hands over each element and attribute name at the one address the table gives it.
struct XMLNames {
    let dict: xmlDictPtr?

    func intern(_ name: String) -> UnsafePointer<xmlChar>? {
        name.withCString { xmlDictLookup(dict, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), -1) }
    }
}
