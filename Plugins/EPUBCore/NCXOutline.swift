import CXML2
import Foundation
import XMLText

/// What an NCX says, as written, before `Navigation` resolves it: the navPoints of the first
/// `navMap` under the root and the pageTargets of the first `pageList` (elements recognised by local
/// name in any namespace; of a label or content expected once, the first counts).
///
/// Read from a SAX2 stream when the document allows (`XMLStream`), from the recovering tree (HTML
/// fallback included) otherwise; both give the same outline.
struct NCXOutline {
    struct Point {
        var title: String?
        var src: String?
        var children: [Point]
    }

    struct PageTarget {
        var src: String?
        var label: String?
        var value: String?
    }

    var navMap: [Point]?
    var pageList: [PageTarget]?

    /// Nil when the document cannot be read at all.
    static func read(_ data: Data, path: String) -> NCXOutline? {
        let stream = NCXStreamReader()
        if XMLStream.read(data, stream) { return stream.outline }
        // Nil is the answer for a document that cannot be read at all (above); the caller warns.
        return (try? XML.parseRaw(data, name: path, htmlFallback: true))?.root.map(NCXOutline.init(tree:))
    }

    init() {}

    init(tree root: LibXMLElement) {
        func label(_ e: LibXMLElement) -> String? { e.child("navLabel")?.child("text")?.trimmedText }
        func points(in parent: LibXMLElement) -> [Point] {
            parent.children("navPoint").map {
                Point(title: label($0), src: $0.child("content")?.attr("src"), children: points(in: $0))
            }
        }
        navMap = root.child("navMap").map(points(in:))
        pageList = root.child("pageList").map {
            $0.children("pageTarget").map {
                PageTarget(src: $0.child("content")?.attr("src"), label: label($0), value: $0.attr("value"))
            }
        }
    }
}

/// The NCX outline, assembled while the parser is on each element. Fields skip Swift's run-time
/// exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class NCXStreamReader: XMLStreamHandler {
    @exclusivity(unchecked) var outline = NCXOutline()
    @exclusivity(unchecked) private var n: Names!

    private enum Frame { case other, navMap, pageList, point, pageTarget, label, labelText }
    /// One per open element, the root's first.
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// A navPoint or pageTarget being read, innermost last.
    private struct Open {
        var point = NCXOutline.Point(title: nil, src: nil, children: [])
        var value: String?
        var sawLabel = false, sawLabelText = false, sawContent = false
    }
    @exclusivity(unchecked) private var open: [Open] = []
    @exclusivity(unchecked) private var sawNavMap = false
    @exclusivity(unchecked) private var sawPageList = false
    @exclusivity(unchecked) private var capturing = false
    @exclusivity(unchecked) private var text: [UInt8] = []

    private struct Names {
        let navMap, pageList, navPoint, pageTarget, navLabel, text, content, src, value: XMLName

        init(_ t: XMLNames) {
            navMap = t.intern("navMap"); pageList = t.intern("pageList"); navPoint = t.intern("navPoint")
            pageTarget = t.intern("pageTarget"); navLabel = t.intern("navLabel"); text = t.intern("text")
            content = t.intern("content"); src = t.intern("src"); value = t.intern("value")
        }
    }

    func prepare(_ names: XMLNames) { n = Names(names) }

    func start(
        _ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes a: XMLAttributes,
        depth: Int
    ) {
        frames.append(frame(name, a, parent: depth == 0 ? nil : frames.last!, depth: depth))
    }

    private func frame(_ name: XMLName, _ a: XMLAttributes, parent: Frame?, depth: Int) -> Frame {
        switch parent {
        case nil:
            return .other
        case .other? where depth == 1:
            if name == n.navMap, !sawNavMap {
                sawNavMap = true
                outline.navMap = []
                return .navMap
            }
            if name == n.pageList, !sawPageList {
                sawPageList = true
                outline.pageList = []
                return .pageList
            }
            return .other
        case .navMap?, .point?:
            if name == n.navPoint {
                open.append(Open())
                return .point
            }
            return parent == .point ? owned(name, a) : .other
        case .pageList?:
            if name == n.pageTarget {
                open.append(Open(value: a.string(n.value)))
                return .pageTarget
            }
            return .other
        case .pageTarget?:
            return owned(name, a)
        case .label?:
            guard name == n.text, !open[open.count - 1].sawLabelText else { return .other }
            open[open.count - 1].sawLabelText = true
            capturing = true
            text.removeAll(keepingCapacity: true)
            return .labelText
        default:
            return .other
        }
    }

    /// A child of the innermost navPoint or pageTarget: its first label and its first content count.
    private func owned(_ name: XMLName, _ a: XMLAttributes) -> Frame {
        if name == n.navLabel, !open[open.count - 1].sawLabel {
            open[open.count - 1].sawLabel = true
            return .label
        }
        if name == n.content, !open[open.count - 1].sawContent {
            open[open.count - 1].sawContent = true
            open[open.count - 1].point.src = a.string(n.src)
        }
        return .other
    }

    func end(depth: Int) {
        switch frames.removeLast() {
        case .labelText:
            open[open.count - 1].point.title = XML.collapse(reusing: &text)
            capturing = false
        case .point:
            let done = open.removeLast().point
            if open.isEmpty { outline.navMap!.append(done) } else { open[open.count - 1].point.children.append(done) }
        case .pageTarget:
            let done = open.removeLast()
            outline.pageList!.append(.init(src: done.point.src, label: done.point.title, value: done.value))
        default:
            break
        }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        if capturing { text.append(contentsOf: bytes) }
    }
}
