import CXML2
import Foundation
import XMLText

/// One passage of a book read aloud: a paragraph, a heading, a list item, an image's alt text, or the part of one
/// in another language. A passage is spoken in one call of the speech plugin, in one language.
public struct SpeechPassage: Sendable, Equatable {
    /// The words, white space collapsed.
    public var text: String
    /// The language the book gives the passage (xml:lang or lang, inherited), else nil: the book's own.
    public var language: String?
    /// Spans the book says how to pronounce (ssml:ph), in bytes of `text`.
    public var pronunciations: [Pronunciation] = []

    public struct Pronunciation: Sendable, Equatable {
        public let offset: Int
        public let length: Int
        public let ph: String
        public let alphabet: String?
    }
}

/// The text of an XHTML content document as it is read aloud, in reading order: alt text read where the image is;
/// what the book hides (`hidden`, `aria-hidden="true"`, `display: none`), page-number markers (epub:type or role
/// pagebreak), scripts, styles and ruby annotations left out; each element's language (xml:lang, lang) kept, so a
/// span in another language is a passage of its own, spoken in its voice.
public enum SpeechText {
    public static func passages(of xhtml: Data, href: String) -> [SpeechPassage] {
        var reader: SpeechTextReader?
        let outcome = XMLSAX.parse(
            xhtml,
            options: XMLSAX.recovering, documentName: href
        ) { _ in
            let made = SpeechTextReader()
            reader = made
            return made
        }
        // A document that is not well-formed is read as far as it went: what a reader shows of it is read too.
        _ = outcome
        reader?.flush()
        return reader?.passages ?? []
    }
}

/// The SAX reader behind `SpeechText`: a stack of what each open element says (hidden, a block, its language, a
/// pronunciation), and the passage being gathered.
final class SpeechTextReader: XMLSAXEvents {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let epubNamespace = "http://www.idpf.org/2007/ops"
    static let ssmlNamespace = "http://www.w3.org/2001/10/synthesis"
    static let skipped: Set<String> = ["head", "script", "style", "rt", "rp", "template", "noscript"]
    static let blocks: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "section", "article",
        "aside", "header", "footer", "nav", "figure", "figcaption", "table", "tr", "td", "th",
        "caption", "dt", "dd", "pre", "br", "hr", "ul", "ol", "dl", "body", "main", "address"
    ]

    struct Open {
        var skip: Bool
        var block: Bool
        var language: String?
        /// The pronunciation this element gives its text, and where in the passage its text began.
        var ph: (ph: String, alphabet: String?, start: Int, passage: Int)?
    }

    private var stack: [Open] = []
    private(set) var passages: [SpeechPassage] = []
    private var bytes: [UInt8] = []
    private var language: String?
    private var pronunciations: [SpeechPassage.Pronunciation] = []
    private var space = false

    private var skipping: Bool { stack.last?.skip ?? false }
    private var currentLanguage: String? { stack.last?.language }

    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int
    ) {
        let name = localname.map { String(cString: $0) } ?? ""
        var attrs: [String: String] = [:]
        for i in 0..<count {
            guard let attributes, let local = attributes[i * 5], let start = attributes[i * 5 + 3],
                let end = attributes[i * 5 + 4]
            else { continue }
            let ns = attributes[i * 5 + 2].map { String(cString: $0) }
            let key = ns.map { "\($0) \(String(cString: local))" } ?? String(cString: local)
            attrs[key] = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        let parent = stack.last
        var open = Open(
            skip: parent?.skip ?? false, block: Self.blocks.contains(name),
            language: attrs["\(Self.xmlNamespace) lang"] ?? attrs["lang"] ?? parent?.language)
        if Self.skipped.contains(name) || attrs["hidden"] != nil || attrs["aria-hidden"]?.lowercased() == "true"
            || Self.hidesByStyle(attrs["style"]) || Self.isPageBreak(attrs)
        {
            open.skip = true
        }
        if open.block || open.language != currentLanguage { flush() }
        if !open.skip, name == "img" || name == "image" || name == "area", let alt = attrs["alt"], !alt.isEmpty {
            // The image's words stand where it is, as a passage of their own.
            flush()
            language = open.language
            add(alt)
            flush()
        }
        if !open.skip, let ph = attrs["\(Self.ssmlNamespace) ph"] {
            open.ph = (
                ph, attrs["\(Self.ssmlNamespace) alphabet"], bytes.count + (space && !bytes.isEmpty ? 1 : 0),
                passages.count
            )
        }
        stack.append(open)
        if bytes.isEmpty { language = open.language }
    }

    func endElement() {
        guard let open = stack.popLast() else { return }
        if let ph = open.ph, ph.passage == passages.count, bytes.count > ph.start {
            pronunciations.append(
                .init(offset: ph.start, length: bytes.count - ph.start, ph: ph.ph, alphabet: ph.alphabet))
        }
        if open.block || open.language != currentLanguage { flush() }
        if bytes.isEmpty { language = currentLanguage }
    }

    func characters(_ text: UnsafePointer<xmlChar>?, _ length: Int) {
        guard !skipping, let text else { return }
        add(UnsafeBufferPointer(start: text, count: length))
    }

    func otherNode(_ kind: XMLSAXNode) {}
    func declaration(_ kind: XMLSAXDeclaration) {}

    private func add(_ text: String) { add(Array(text.utf8)) }

    /// White space collapsed to one space between words, none at the ends.
    private func add<C: Collection>(_ text: C) where C.Element == UInt8 {
        for byte in text {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                space = true
            } else {
                if space, !bytes.isEmpty { bytes.append(0x20) }
                space = false
                bytes.append(byte)
            }
        }
    }

    /// Ends the passage being gathered.
    func flush() {
        space = false
        defer {
            bytes.removeAll(keepingCapacity: true)
            pronunciations.removeAll()
        }
        guard bytes.contains(where: { $0 > 0x20 }) else { return }
        passages.append(
            SpeechPassage(
                text: String(decoding: bytes, as: UTF8.self), language: language, pronunciations: pronunciations))
    }

    static func hidesByStyle(_ style: String?) -> Bool {
        guard let style else { return false }
        let compact = style.lowercased().filter { !$0.isWhitespace }
        return compact.contains("display:none") || compact.contains("visibility:hidden")
    }

    static func isPageBreak(_ attrs: [String: String]) -> Bool {
        let types = (attrs["\(epubNamespace) type"] ?? "").split(separator: " ")
        return types.contains("pagebreak") || attrs["role"] == "doc-pagebreak"
    }
}
