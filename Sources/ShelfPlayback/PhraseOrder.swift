import CXML2
import Foundation
import XMLText

/// Where a narration goes on from an element of a chapter (a contents entry's or a link's `#fragment`): the first of
/// the chapter's narrated phrases, in play order, at or after that element. A phrase counts when it is the element,
/// holds it, lies inside it or comes after it: when it ends after the element starts; a phrase wholly before it does
/// not. Read once from the chapter's XHTML in document order, as the browser's reader compares its elements
/// (web/js/reader/in-book-narration.js), so that both faces start at the same phrase.
public struct PhraseOrder: Sendable {
    /// Each id's first element: where it starts and ends in the document's element events (an element a document
    /// that is not well-formed leaves open ends with it).
    let spans: [String: (start: Int, end: Int)]

    public init(xhtml: Data, href: String) {
        let reader = PhraseOrderReader()
        _ = XMLSAX.parse(
            xhtml,
            options: XMLSAX.recovering, documentName: href
        ) { _ in reader }
        spans = reader.spans
    }

    /// The index in `ids` (the clips' fragments, in play order) of the first phrase at or after the element `target`;
    /// `ids.count` when no phrase is; nil when the document has no element `target`.
    public func first(of ids: [String?], atOrAfter target: String) -> Int? {
        guard let start = spans[target]?.start else { return nil }
        return ids.firstIndex { id in id.flatMap { spans[$0] }.map { $0.end > start } ?? false } ?? ids.count
    }
}

/// The SAX reader behind `PhraseOrder`: the element events counted in document order, and each id's first element's
/// span.
final class PhraseOrderReader: XMLSAXEvents {
    private(set) var spans: [String: (start: Int, end: Int)] = [:]
    private var stack: [String?] = []
    private var count = 0

    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count n: Int
    ) {
        count += 1
        var first: String?
        for i in 0..<n {
            guard let attributes, let local = attributes[i * 5], strcmp(local, "id") == 0,
                let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4]
            else { continue }
            let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            // The first element of an id is the one a fragment names; open until it ends.
            if spans[value] == nil {
                spans[value] = (count, .max)
                first = value
            }
        }
        stack.append(first)
    }

    func endElement() {
        count += 1
        guard let open = stack.popLast(), let id = open else { return }
        spans[id]?.end = count
    }

    func characters(_ text: UnsafePointer<xmlChar>?, _ length: Int) {}
    func otherNode(_ kind: XMLSAXNode) {}
    func declaration(_ kind: XMLSAXDeclaration) {}
}
