import CXML2
import Foundation

/// What libxml2's namespace-aware SAX2 parser reports, for a reader that builds no tree. Names, text and attribute
/// values are valid only during the call. Declarations are reported, never acted on: nothing is loaded, defaulted or
/// substituted, so each reader decides whether a document that declares anything is still its business.
public protocol XMLSAXEvents: AnyObject {
    /// `attributes` holds `count` attributes of five pointers each: local name, prefix, URI, value start, value end.
    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int)
    func endElement()
    /// Character data, CDATA included, in pieces.
    func characters(_ bytes: UnsafePointer<xmlChar>?, _ length: Int)
    /// A comment, a processing instruction or an entity reference left unsubstituted.
    func otherNode(_ kind: XMLSAXNode)
    /// A declaration in the document's internal subset.
    func declaration(_ kind: XMLSAXDeclaration)
}

public enum XMLSAXNode { case comment, processingInstruction, reference }

public enum XMLSAXDeclaration {
    /// `type` is libxml2's element type (empty, any, mixed, element), which decides what white space a tree keeps.
    case element(name: String, type: xmlElementTypeVal)
    case entity, attribute, notation, unparsedEntity
}

/// The one place shelf hands bytes to libxml2's SAX2 parser, shared by the catalog's feed readers and the EPUB
/// plugins' package, navigation and NCX readers: no tree is built, no network is used, no DTD is loaded, and the
/// parser's errors are never printed (a plugin must not write to the host's output; libxml2 reports some errors
/// through thread-local handlers that XML_PARSE_NOERROR does not reach).
public enum XMLSAX {
    /// How the parse ended. The events of a document that is not well-formed are to be discarded by the caller.
    public struct Outcome {
        public let wellFormed: Bool
        public let namespacesWellFormed: Bool
        /// libxml2's last complaint, in words with its line: "line 3: Opening and ending tag mismatch".
        public let lastError: String?
    }

    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// The options for a book's XHTML read for its words (spoken, narrated, ordered): as far as it goes when it is
    /// not well-formed, without a word on standard error, CDATA as text.
    public static let recovering = Int32(
        XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue)

    /// Parses `data` with `options` (XML_PARSE_*; NONET is always added). `events` is made once the parser exists,
    /// for readers that look at its name table (`xmlDictLookup`) or its namespace state while they read.
    public static func parse(
        _ data: Data, options: Int32, documentName: String,
        events: (xmlParserCtxtPtr) -> XMLSAXEvents
    ) -> Outcome? {
        _ = initialised
        guard !data.isEmpty, let ctxt = xmlNewParserCtxt() else { return nil }
        defer { xmlFreeParserCtxt(ctxt) }
        let savedHandler = __xmlStructuredError()?.pointee
        let savedContext = __xmlStructuredErrorContext()?.pointee
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }
        // The context's own handler, overwritten: libxml2 frees it with the context.
        ctxt.pointee.sax.pointee = saxHandler
        let reader = Reader(events(ctxt))
        ctxt.pointee._private = Unmanaged.passUnretained(reader).toOpaque()
        withExtendedLifetime(reader) {
            data.withUnsafeBytes { raw in
                // No document comes back: the handler has no startDocument, so no tree is ever made.
                _ = xmlCtxtReadMemory(
                    ctxt, raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(raw.count),
                    documentName, nil, options | Int32(XML_PARSE_NONET.rawValue))
            }
        }
        return Outcome(
            wellFormed: ctxt.pointee.wellFormed != 0, namespacesWellFormed: ctxt.pointee.nsWellFormed != 0,
            lastError: lastError(ctxt))
    }

    /// Ends the parse from inside a callback: no further events come.
    public static func stop(_ parser: xmlParserCtxtPtr) { xmlStopParser(parser) }

    private static func lastError(_ ctxt: xmlParserCtxtPtr) -> String? {
        guard let error = xmlCtxtGetLastError(UnsafeMutableRawPointer(ctxt)), let message = error.pointee.message else {
            return nil
        }
        return "line \(error.pointee.line): " + String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The reader as the callbacks find it through the context's `_private`, with no dynamic cast per event.
    private final class Reader {
        let events: XMLSAXEvents
        init(_ events: XMLSAXEvents) { self.events = events }
    }

    @inline(__always)
    private static func reader(_ ctx: UnsafeMutableRawPointer?) -> XMLSAXEvents {
        let parser = ctx.unsafelyUnwrapped.assumingMemoryBound(to: xmlParserCtxt.self)
        return Unmanaged<Reader>.fromOpaque(parser.pointee._private.unsafelyUnwrapped).takeUnretainedValue().events
    }

    // A C struct of function pointers, written once here and only read afterwards (libxml2 copies it into each
    // parser context), so sharing it between threads is safe although C structs are not Sendable.
    nonisolated(unsafe) private static let saxHandler: xmlSAXHandler = {
        var sax = xmlSAXHandler()
        sax.initialized = 0xDEEDBEAF  // XML_SAX2_MAGIC: namespace-aware callbacks
        sax.startElementNs = { ctx, localname, prefix, uri, _, _, count, defaulted, attributes in
            reader(ctx).startElement(
                localname, prefix: prefix, uri: uri, attributes: attributes,
                count: Int(count - defaulted))
        }
        sax.endElementNs = { ctx, _, _, _ in reader(ctx).endElement() }
        sax.characters = { ctx, bytes, length in reader(ctx).characters(bytes, Int(length)) }
        // The same function, so libxml2 never weighs which blanks are ignorable; XML_PARSE_NOBLANKS replaces it.
        sax.ignorableWhitespace = sax.characters
        sax.comment = { ctx, _ in reader(ctx).otherNode(.comment) }
        sax.processingInstruction = { ctx, _, _ in reader(ctx).otherNode(.processingInstruction) }
        sax.reference = { ctx, _ in reader(ctx).otherNode(.reference) }
        sax.elementDecl = { ctx, name, type, _ in
            guard let name else { return }
            reader(ctx).declaration(.element(name: String(cString: name), type: xmlElementTypeVal(UInt32(type))))
        }
        sax.entityDecl = { ctx, _, _, _, _, _ in reader(ctx).declaration(.entity) }
        sax.attributeDecl = { ctx, _, _, _, _, _, tree in
            // The callback owns the enumeration of allowed values; nobody keeps it.
            xmlFreeEnumeration(tree)
            reader(ctx).declaration(.attribute)
        }
        sax.notationDecl = { ctx, _, _, _ in reader(ctx).declaration(.notation) }
        sax.unparsedEntityDecl = { ctx, _, _, _, _ in reader(ctx).declaration(.unparsedEntity) }
        return sax
    }()
}
