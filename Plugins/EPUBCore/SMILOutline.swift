import CXML2
import Foundation
import XMLText

/// What a SMIL media overlay says, as written: each `par` in document order (nested ones
/// included), with the `src` of its first `text` and the `src`, `clipBegin` and `clipEnd` of its
/// first `audio` (elements recognised by local name in any namespace).
///
/// Read from a SAX2 stream when the document allows (`XMLStream`), from the recovering tree
/// otherwise; both give the same outline.
struct SMILOutline {
    struct Par {
        var textSrc: String?
        var audio: (src: String?, clipBegin: String?, clipEnd: String?)?
    }

    var pars: [Par] = []

    /// Nil when the document cannot be read at all.
    static func read(_ data: Data, path: String) -> SMILOutline? {
        let stream = SMILStreamReader()
        if XMLStream.read(data, stream) { return stream.outline }
        // Nil is the answer for a document that cannot be read at all (above); the caller warns.
        return (try? XML.parseRaw(data, name: path))?.root.map(SMILOutline.init(tree:))
    }

    init() {}

    init(tree root: LibXMLElement) {
        pars = root.descendants("par").map { par in
            Par(
                textSrc: par.child("text")?.attr("src"),
                audio: par.child("audio").map { ($0.attr("src"), $0.attr("clipBegin"), $0.attr("clipEnd")) })
        }
    }
}

/// The SMIL outline, assembled while the parser is on each element. Fields skip Swift's run-time
/// exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class SMILStreamReader: XMLStreamHandler {
    @exclusivity(unchecked) var outline = SMILOutline()
    @exclusivity(unchecked) private var n: Names!
    /// One per open element: the index of its `par` in the outline, or nil for any other element.
    @exclusivity(unchecked) private var frames: [Int?] = []
    /// Per `par` of the outline: whether its first `text` was seen.
    @exclusivity(unchecked) private var sawText: [Bool] = []

    private struct Names {
        let par, text, audio, src, clipBegin, clipEnd: XMLName

        init(_ t: XMLNames) {
            par = t.intern("par"); text = t.intern("text"); audio = t.intern("audio")
            src = t.intern("src"); clipBegin = t.intern("clipBegin"); clipEnd = t.intern("clipEnd")
        }
    }

    func prepare(_ names: XMLNames) { n = Names(names) }

    func start(
        _ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes a: XMLAttributes,
        depth: Int
    ) {
        if name == n.par {
            frames.append(outline.pars.count)
            outline.pars.append(.init(textSrc: nil, audio: nil))
            sawText.append(false)
            return
        }
        if let p = frames.last ?? nil {
            if name == n.text, !sawText[p] {
                sawText[p] = true
                outline.pars[p].textSrc = a.string(n.src)
            } else if name == n.audio, outline.pars[p].audio == nil {
                outline.pars[p].audio = (a.string(n.src), a.string(n.clipBegin), a.string(n.clipEnd))
            }
        }
        frames.append(nil)
    }

    func end(depth: Int) { frames.removeLast() }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {}
}
