import CXML2
import Foundation
import XMLText

/// What a SMIL media overlay says, as written, with the structure Media Overlays 3.3 gives it: the `body` and every
/// `seq` (nested to any depth) with its `id` and `epub:type`, and each `par` in document order (which is play order)
/// with its `id`, `epub:type`, the innermost `seq` (or `body`) holding it, the `src` of its first `text` and the
/// `src`, `clipBegin` and `clipEnd` of its first `audio` (elements recognised by local name in any namespace).
///
/// Read from a SAX2 stream when the document allows (`XMLStream`), from the recovering tree otherwise; both give the
/// same outline. A hostile document cannot make it grow without bound: past `maxPars` pars or `maxSeqs` containers the
/// rest is left out and `truncated` says so (the caller warns).
struct SMILOutline {
    /// A `body` or `seq`: a time container whose children play one after the other.
    struct Container: Equatable {
        var id: String?
        var types: [String]
        /// The container holding this one; nil for the outermost.
        var parent: Int?
        var isBody: Bool
    }

    struct Par {
        var id: String?
        var types: [String]
        /// The innermost container holding the par (an index into `containers`).
        var container: Int?
        var textSrc: String?
        var audio: (src: String?, clipBegin: String?, clipEnd: String?)?
    }

    static let maxPars = 20_000
    static let maxContainers = 20_000
    /// `epub:type` tokens kept per element, and their length: the vocabulary's words are short and few.
    static let maxTypes = 16
    static let maxTypeLength = 64

    var containers: [Container] = []
    var pars: [Par] = []
    /// True when pars or containers past the limits were left out.
    var truncated = false

    /// Nil when the document cannot be read at all.
    static func read(_ data: Data, path: String) -> SMILOutline? {
        let stream = SMILStreamReader()
        if XMLStream.read(data, stream) { return stream.outline }
        // Nil is the answer for a document that cannot be read at all (above); the caller warns.
        return (try? XML.parseRaw(data, name: path))?.root.map(SMILOutline.init(tree:))
    }

    init() {}

    init(tree root: LibXMLElement) {
        // Depth-first in document order with an explicit stack: a document nested thousands deep cannot exhaust the
        // thread's stack (the tree keeps elements past XML.maxDepth as text: they are not walked).
        var stack: [(element: LibXMLElement, container: Int?)] = [(root, nil)]
        while let (element, container) = stack.popLast() {
            var inner = container
            switch element.name {
            case "body", "seq":
                inner = openContainer(
                    id: Self.id(element.attr("id")), types: element.attr("type", ns: NS.epub),
                    isBody: element.name == "body", parent: container)
            case "par":
                guard
                    let p = openPar(
                        id: Self.id(element.attr("id")), types: element.attr("type", ns: NS.epub), in: container)
                else { continue }
                pars[p].textSrc = element.child("text")?.attr("src")
                pars[p].audio = element.child("audio").map {
                    ($0.attr("src"), $0.attr("clipBegin"), $0.attr("clipEnd"))
                }
            default: break
            }
            var children: [LibXMLElement] = []
            element.forEachChild { item in
                if case .element(let child) = item, child.depth < XML.maxDepth { children.append(child) }
                return true
            }
            stack.append(contentsOf: children.reversed().map { ($0, inner) })
        }
    }

    /// Adds a container; nil (and `truncated`) past the limit, its pars then counting as its parent's.
    mutating func openContainer(id: String?, types: String?, isBody: Bool, parent: Int?) -> Int? {
        guard containers.count < Self.maxContainers else {
            truncated = true
            return parent
        }
        containers.append(Container(id: id, types: Self.tokens(types), parent: parent, isBody: isBody))
        return containers.count - 1
    }

    /// Adds a par; nil (and `truncated`) past the limit.
    mutating func openPar(id: String?, types: String?, in container: Int?) -> Int? {
        guard pars.count < Self.maxPars else {
            truncated = true
            return nil
        }
        pars.append(Par(id: id, types: Self.tokens(types), container: container, textSrc: nil, audio: nil))
        return pars.count - 1
    }

    /// The words of an `epub:type`, as written (a prefixed one keeps its prefix), at most `maxTypes` of them.
    static func tokens(_ value: String?) -> [String] {
        guard let value else { return [] }
        return Array(
            value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                .filter { $0.utf8.count <= maxTypeLength }.prefix(maxTypes).map(String.init))
    }

    static func id(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 256 else { return nil }
        return value
    }

    /// The containers holding a par, outermost first.
    func chain(of par: Par) -> [Int] {
        var out: [Int] = []
        var c = par.container
        // Parents always come before their children: the walk ends.
        while let i = c, out.count <= containers.count {
            out.append(i)
            c = containers[i].parent
        }
        return out.reversed()
    }
}

/// The SMIL outline, assembled while the parser is on each element. Fields skip Swift's run-time
/// exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class SMILStreamReader: XMLStreamHandler {
    @exclusivity(unchecked) var outline = SMILOutline()
    @exclusivity(unchecked) private var n: Names!

    private enum Frame {
        /// A `body` or `seq`: the container its content belongs to (itself, or its parent past the limit).
        case container(Int?)
        case par(Int, container: Int?)
        case other(container: Int?)
        /// A par left out (past the limit): nothing inside it counts.
        case ignored(container: Int?)

        var container: Int? {
            switch self {
            case .container(let c): return c
            case .par(_, let c), .other(let c), .ignored(let c): return c
            }
        }
    }

    /// One per open element.
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// Per `par` of the outline: whether its first `text` was seen.
    @exclusivity(unchecked) private var sawText: [Bool] = []

    private struct Names {
        let body, seq, par, text, audio, src, clipBegin, clipEnd, id, type: XMLName

        init(_ t: XMLNames) {
            body = t.intern("body"); seq = t.intern("seq"); par = t.intern("par")
            text = t.intern("text"); audio = t.intern("audio")
            src = t.intern("src"); clipBegin = t.intern("clipBegin"); clipEnd = t.intern("clipEnd")
            id = t.intern("id"); type = t.intern("type")
        }
    }

    func prepare(_ names: XMLNames) { n = Names(names) }

    func start(
        _ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes a: XMLAttributes,
        depth: Int
    ) {
        let container = frames.last?.container
        if case .ignored = frames.last {
            frames.append(.ignored(container: container))
            return
        }
        if name == n.body || name == n.seq {
            let c = outline.openContainer(
                id: SMILOutline.id(a.string(n.id)), types: a.string(n.type, namespace: NS.epub), isBody: name == n.body,
                parent: container)
            frames.append(.container(c))
            return
        }
        if name == n.par {
            if let p = outline.openPar(
                id: SMILOutline.id(a.string(n.id)), types: a.string(n.type, namespace: NS.epub), in: container)
            {
                frames.append(.par(p, container: container))
                sawText.append(false)
            } else {
                frames.append(.ignored(container: container))
            }
            return
        }
        if case .par(let p, _) = frames.last {
            if name == n.text, !sawText[p] {
                sawText[p] = true
                outline.pars[p].textSrc = a.string(n.src)
            } else if name == n.audio, outline.pars[p].audio == nil {
                outline.pars[p].audio = (a.string(n.src), a.string(n.clipBegin), a.string(n.clipEnd))
            }
        }
        frames.append(.other(container: container))
    }

    func end(depth: Int) { frames.removeLast() }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {}
}
