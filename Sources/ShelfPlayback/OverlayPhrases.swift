import CXML2
import Foundation
import XMLText

/// The words of the elements a media overlay's clips point at (`chapter.xhtml#id`): what a player shows as the phrase
/// being read. Each element's text, white space collapsed, scripts and styles left out; an element inside another
/// one asked for counts for both. A document that is not well-formed is read as far as it goes.
public enum OverlayPhrases {
    /// At most this many bytes of a phrase are kept (a clip on a whole chapter's section is shown by its start).
    static let maxLength = 2000

    public static func texts(of xhtml: Data, ids: Set<String>, href: String) -> [String: String] {
        guard !ids.isEmpty else { return [:] }
        let reader = OverlayPhraseReader(ids: ids)
        _ = XMLSAX.parse(
            xhtml,
            options: XMLSAX.recovering, documentName: href
        ) { _ in reader }
        return reader.found.mapValues { String(decoding: $0, as: UTF8.self) }
    }
}

/// The SAX reader behind `OverlayPhrases`: for each open element, the id it gathers text for (if asked for).
final class OverlayPhraseReader: XMLSAXEvents {
    let ids: Set<String>
    private(set) var found: [String: [UInt8]] = [:]
    private var stack: [(id: String?, skip: Bool)] = []
    private var gathering: [String: Int] = [:]
    private var space: [String: Bool] = [:]

    init(ids: Set<String>) { self.ids = ids }

    func startElement(
        _ localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int
    ) {
        let name = localname.map { String(cString: $0) } ?? ""
        var id: String?
        for i in 0..<count {
            guard let attributes, let local = attributes[i * 5], strcmp(local, "id") == 0,
                let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4]
            else { continue }
            let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            if ids.contains(value), found[value] == nil { id = value }
        }
        let skip = (stack.last?.skip ?? false) || name == "script" || name == "style" || name == "head"
        if let id {
            found[id] = []
            gathering[id, default: 0] += 1
        }
        stack.append((id, skip))
    }

    func endElement() {
        guard let open = stack.popLast() else { return }
        if let id = open.id {
            gathering[id] = nil
            space[id] = nil
        }
    }

    func characters(_ text: UnsafePointer<xmlChar>?, _ length: Int) {
        guard !gathering.isEmpty, !(stack.last?.skip ?? false), let text else { return }
        for id in gathering.keys {
            var bytes = found[id] ?? []
            var pendingSpace = space[id] ?? false
            for byte in UnsafeBufferPointer(start: text, count: length) {
                guard bytes.count < OverlayPhrases.maxLength else { break }
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                    pendingSpace = true
                } else {
                    if pendingSpace, !bytes.isEmpty { bytes.append(0x20) }
                    pendingSpace = false
                    bytes.append(byte)
                }
            }
            found[id] = bytes
            space[id] = pendingSpace
        }
    }

    func otherNode(_ kind: XMLSAXNode) {}
    func declaration(_ kind: XMLSAXDeclaration) {}
}
