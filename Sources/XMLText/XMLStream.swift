import CXML2
import Foundation

/// What an `XMLStream` reports, in document order. Names are interned (see `XMLNames`), so handlers compare them by
/// address; text and attribute values are bytes valid only during the call.
public protocol XMLStreamHandler: AnyObject {
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

extension XMLStreamHandler {
    public func wantsText(depth: Int) -> Bool { true }
}

/// The one streaming XML reader, for the catalog's feeds and the EPUB plugins' package, navigation, NCX and SMIL
/// documents, on libxml2's SAX2 parser (`XMLSAX`): no tree is built. No network access, no DTD loading, no entity
/// substitution, and limits on size, depth and element count. Handlers see what libxml2's tree would have held
/// under the same options (white space included: see `XMLBlankText`), and are told nothing useful about a document
/// that turns out to be unusable: `parse` throws instead, after the events, which are to be discarded.
///
/// What a reader leaves out differs, and is said in its `Rules`: a feed may declare elements (they decide white
/// space) but never entities; the EPUB plugins hand anything declared or referred to, any recovered error and any
/// unbound prefix to their recovering tree, so that both readings give the same answer.
public enum XMLStream {
    public struct Rules: Sendable {
        /// XML_PARSE_* (XML_PARSE_NONET is always added).
        public var options: Int32
        /// The name libxml2 gives the document in its errors.
        public var documentName: String
        public var maxDocumentSize: Int
        /// Elements at this depth or deeper refuse the document (the root is at 0).
        public var maxDepth: Int
        public var maxElements: Int
        public var subset: Subset

        public init(
            options: Int32, documentName: String, maxDocumentSize: Int = .max, maxDepth: Int,
            maxElements: Int = .max, subset: Subset
        ) {
            self.options = options
            self.documentName = documentName
            self.maxDocumentSize = maxDocumentSize
            self.maxDepth = maxDepth
            self.maxElements = maxElements
            self.subset = subset
        }
    }

    /// What a document may declare in its internal subset, or refer to, and still be read as a stream.
    public enum Subset: Sendable {
        /// Element and attribute declarations, never entities: how entity-expansion and external-entity attacks
        /// arrive. A namespace prefix nobody bound is read by its last part, as a tree names it.
        case noEntities
        /// Nothing declared, no entity referred to, every prefix bound: such documents are the tree's.
        case nothing
    }

    public struct Failure: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
        public init(reason: String) { self.reason = reason }
    }

    public static let entitiesRefused =
        "it declares XML entities (<!ENTITY>), which shelf refuses: feeds never need them and "
        + "they are how entity-expansion and external-entity attacks arrive"

    /// Streams `data` through `handler`, or explains in words why it is not usable XML under `rules`. The handler's
    /// events for an unusable document are to be discarded: the refusal is thrown after them.
    public static func parse(_ data: Data, rules: Rules, _ handler: XMLStreamHandler) throws {
        guard !data.isEmpty else { throw Failure(reason: "it is empty") }
        guard data.count <= rules.maxDocumentSize else {
            throw Failure(
                reason:
                    "it is \(data.count) bytes, more than the \(rules.maxDocumentSize >> 20) MB shelf reads as one document"
            )
        }
        // The quick refusal; the parser's entity-declaration callback catches any declaration this misses.
        if rules.subset == .noEntities, declaresEntities(data) { throw Failure(reason: entitiesRefused) }
        var state: XMLStreamState?
        let outcome = XMLSAX.parse(data, options: rules.options, documentName: rules.documentName) { parser in
            let made = XMLStreamState(handler: handler, parser: parser, rules: rules)
            handler.prepare(XMLNames(dict: parser.pointee.dict))
            state = made
            return made
        }
        guard let outcome, let state else { throw Failure(reason: "out of memory") }
        if let stopped = state.stopped { throw stopped }
        guard outcome.wellFormed else {
            throw Failure(reason: outcome.lastError.map { "it is not well-formed XML (\($0))" } ?? "it is not XML")
        }
        if rules.subset == .nothing, !outcome.namespacesWellFormed {
            throw Failure(reason: "it uses a namespace prefix it does not bind")
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

/// One parse's bookkeeping between libxml2's callbacks and the handler: limits, refusals and the white space rules.
/// Its fields skip Swift's run-time exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class XMLStreamState: XMLSAXEvents {
    let handler: XMLStreamHandler
    let parser: xmlParserCtxtPtr
    let rules: XMLStream.Rules
    /// Which white space libxml2's tree would have dropped matters only when the options ask it to drop some.
    let replaysBlanks: Bool
    @exclusivity(unchecked) var blanks = XMLBlankText()
    @exclusivity(unchecked) var depth = -1
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) var sawRoot = false
    /// Why the parse was stopped at once (a declaration or reference the rules refuse).
    @exclusivity(unchecked) var stopped: XMLStream.Failure?
    /// The first limit the document broke; from then on the handler hears nothing, but the parse goes on so that a
    /// document that is not even well-formed says so first.
    @exclusivity(unchecked) var limit: XMLStream.Failure?

    init(handler: XMLStreamHandler, parser: xmlParserCtxtPtr, rules: XMLStream.Rules) {
        self.handler = handler
        self.parser = parser
        self.rules = rules
        replaysBlanks = rules.options & Int32(XML_PARSE_NOBLANKS.rawValue) != 0
    }

    func stop(_ reason: String) {
        if stopped == nil { stopped = XMLStream.Failure(reason: reason) }
        XMLSAX.stop(parser)
    }

    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count attributeCount: Int
    ) {
        depth += 1
        sawRoot = true
        if replaysBlanks {
            // The tree named an element with an unresolved prefix by its qualified name.
            blanks.open(
                depth: depth,
                name: (uri == nil ? prefix.map { String(cString: $0) + ":" } ?? "" : "")
                    + (localname.map { String(cString: $0) } ?? ""))
        }
        guard limit == nil, stopped == nil else { return }
        count += 1
        if count > rules.maxElements {
            limit = XMLStream.Failure(reason: "it has more than \(rules.maxElements) elements")
        } else if depth >= rules.maxDepth {
            limit = XMLStream.Failure(reason: "it nests elements more than \(rules.maxDepth) deep")
        } else {
            handler.start(
                XMLName(localname, uri: uri, parser: parser), namespace: uri,
                attributes: XMLAttributes(parser: parser, pointer: attributes, count: attributeCount), depth: depth)
        }
    }

    func endElement() {
        if limit == nil, stopped == nil { handler.end(depth: depth) }
        depth -= 1
    }

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ length: Int) {
        // Which white space the tree kept only matters for text somebody reads: an element's runs only ever count
        // towards its own text.
        guard depth >= 0, let bytes, length > 0, limit == nil, stopped == nil, handler.wantsText(depth: depth) else {
            return
        }
        let text = UnsafeBufferPointer(start: bytes, count: length)
        if !replaysBlanks || blanks.keeps(text, depth: depth, parser: parser) { handler.text(text, depth: depth) }
    }

    /// Nodes a tree holds (they decide which white space it drops) but nobody reads; an entity reference the stream
    /// would have to expand is the tree's business when the rules say so.
    func otherNode(_ kind: XMLSAXNode) {
        if kind == .reference, rules.subset == .nothing { return stop("it refers to an entity") }
        if replaysBlanks, depth >= 0 { blanks.otherNode(depth: depth) }
    }

    func declaration(_ kind: XMLSAXDeclaration) {
        switch (kind, rules.subset) {
        case (.entity, _): stop(XMLStream.entitiesRefused)
        case (_, .nothing): stop("it declares something in its internal subset")
        case (let .element(name, type), .noEntities): blanks.declare(name, type: type)
        case (.attribute, .noEntities), (.notation, .noEntities), (.unparsedEntity, .noEntities): break
        }
    }
}
