import CXML2
import Foundation
import XMLText

/// What an EPUB 3 navigation document says, as written, before `Navigation` resolves it: each
/// `nav` element in document order with the list of its first `ol`; of each `li`, its first `a`,
/// first `span` and first `ol` (elements recognised by local name in any namespace).
///
/// Read from a SAX2 stream when the document allows (`XMLStream`; a nav inside a nav is left to
/// the tree too), from the recovering tree (HTML fallback included) otherwise; both give the same
/// outline.
struct NavOutline {
    /// An entry's `a` or `span`.
    struct Label {
        var href: String?
        var epubType: String?
        var title: String?
        var trimmedText: String
        /// The `alt` of the first `img` inside, if it has one.
        var imageAlt: String?
    }

    struct Item {
        var a: Label?
        var span: Label?
        /// Nil when the entry has no `ol`.
        var children: [Item]?
    }

    struct Nav {
        /// `epub:type`, else `type`.
        var type: String?
        /// Nil when the nav has no `ol`.
        var list: [Item]?
    }

    var navs: [Nav] = []

    /// Nil when the document cannot be read at all.
    static func read(_ data: Data, path: String) -> NavOutline? {
        let stream = NavStreamReader()
        if XMLStream.read(data, stream), !stream.nested { return stream.outline }
        // Nil is the answer for a document that cannot be read at all (above); the caller warns.
        return (try? XML.parseRaw(data, name: path, htmlFallback: true))?.root.map(NavOutline.init(tree:))
    }

    init() {}

    init(tree root: LibXMLElement) {
        func label(_ e: LibXMLElement) -> Label {
            Label(
                href: e.attr("href"), epubType: e.attr("type", ns: NS.epub), title: e.attr("title"),
                trimmedText: e.trimmedText, imageAlt: e.descendants("img").first?.attr("alt"))
        }
        func items(in ol: LibXMLElement) -> [Item] {
            ol.children("li").map {
                Item(
                    a: $0.child("a").map(label), span: $0.child("span").map(label),
                    children: $0.child("ol").map(items(in:)))
            }
        }
        navs = root.descendants("nav").map {
            Nav(type: $0.attr("type", ns: NS.epub) ?? $0.attr("type"), list: $0.child("ol").map(items(in:)))
        }
    }
}

/// The nav outline, assembled while the parser is on each element. Fields skip Swift's run-time
/// exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class NavStreamReader: XMLStreamHandler {
    @exclusivity(unchecked) var outline = NavOutline()
    /// A nav inside a nav: the outline is the tree's to make.
    @exclusivity(unchecked) var nested = false
    @exclusivity(unchecked) private var n: Names!

    private enum Frame: Equatable { case other, nav, navList, item, itemList, label }
    /// One per open element.
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var navOpen = false
    private struct OpenItem {
        var item = NavOutline.Item(a: nil, span: nil, children: nil)
        var sawA = false, sawSpan = false
    }
    /// The entries being read, innermost last.
    @exclusivity(unchecked) private var open: [OpenItem] = []
    /// The label being read (its text gathered), and whether it is the entry's `a`.
    @exclusivity(unchecked) private var label: (isA: Bool, label: NavOutline.Label, sawImage: Bool)?
    @exclusivity(unchecked) private var text: [UInt8] = []

    private struct Names {
        let nav, ol, li, a, span, img, type, href, title, alt: XMLName

        init(_ t: XMLNames) {
            nav = t.intern("nav"); ol = t.intern("ol"); li = t.intern("li"); a = t.intern("a"); span = t.intern("span")
            img = t.intern("img"); type = t.intern("type"); href = t.intern("href"); title = t.intern("title");
            alt = t.intern("alt")
        }
    }

    func prepare(_ names: XMLNames) { n = Names(names) }

    func start(
        _ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes a: XMLAttributes,
        depth: Int
    ) {
        // Once a nav is found inside a nav the stream's outline is dropped: nothing more is read.
        frames.append(nested ? .other : frame(name, a, parent: frames.last ?? .other))
    }

    private func frame(_ name: XMLName, _ a: XMLAttributes, parent: Frame) -> Frame {
        if name == n.nav {
            if navOpen { nested = true }
            navOpen = true
            outline.navs.append(.init(type: a.string(n.type, namespace: NS.epub) ?? a.string(n.type), list: nil))
            return .nav
        }
        if label != nil {
            if name == n.img, !label!.sawImage {
                label!.sawImage = true
                label!.label.imageAlt = a.string(n.alt)
            }
            return .other
        }
        switch parent {
        case .nav where name == n.ol && outline.navs[outline.navs.count - 1].list == nil:
            outline.navs[outline.navs.count - 1].list = []
            return .navList
        case .navList where name == n.li, .itemList where name == n.li:
            open.append(OpenItem())
            return .item
        case .item:
            let i = open.count - 1
            if name == n.a, !open[i].sawA {
                open[i].sawA = true
                startLabel(isA: true, a)
                return .label
            }
            if name == n.span, !open[i].sawSpan {
                open[i].sawSpan = true
                startLabel(isA: false, a)
                return .label
            }
            if name == n.ol, open[i].item.children == nil {
                open[i].item.children = []
                return .itemList
            }
            return .other
        default:
            return .other
        }
    }

    private func startLabel(isA: Bool, _ a: XMLAttributes) {
        label = (
            isA,
            NavOutline.Label(
                href: a.string(n.href), epubType: a.string(n.type, namespace: NS.epub),
                title: a.string(n.title), trimmedText: "", imageAlt: nil), false
        )
        text.removeAll(keepingCapacity: true)
    }

    func end(depth: Int) {
        let frame = frames.removeLast()
        guard !nested else { return }
        switch frame {
        case .nav:
            navOpen = false
        case .label:
            var done = label!.label
            done.trimmedText = XML.collapse(reusing: &text)
            if label!.isA { open[open.count - 1].item.a = done } else { open[open.count - 1].item.span = done }
            label = nil
        case .item:
            let done = open.removeLast().item
            if frames.last == .itemList {
                open[open.count - 1].item.children!.append(done)
            } else {
                outline.navs[outline.navs.count - 1].list!.append(done)
            }
        default:
            break
        }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        if label != nil { text.append(contentsOf: bytes) }
    }
}
