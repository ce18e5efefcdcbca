import CXML2
import Foundation
import XMLText
import PluginKit

/// What the package document says, as written, before `OPFPackage` checks and resolves it: the
/// parts an open reads, of the first `metadata`, `manifest`, `spine` and `guide` under the root
/// (elements recognised by local name in any namespace).
///
/// Read from a SAX2 stream when the document allows (`XMLStream`), from the recovering tree
/// otherwise; both give the same outline.
struct PackageOutline {
    /// A dc:* element or a meta element of the metadata (wrappers `dc-metadata`/`x-metadata` opened).
    struct MetaElement {
        var name: String
        var inDC: Bool
        var attributes: [XAttribute]
        var trimmedText: String
    }

    struct Item { var id, href, mediaType, properties, fallback, mediaOverlay: String? }
    struct ItemRef { var idref, properties, linear: String? }
    struct Reference { var type, href, title: String? }

    var rootName = ""
    var version: String?
    var uniqueIdentifier: String?
    var wellFormed = true
    /// Nil when there is no such element.
    var metadata: [MetaElement]?
    var items: [Item]?
    var spine: (toc: String?, pageProgression: String?, itemrefs: [ItemRef])?
    var guide: [Reference] = []

    /// Throws as the tree's parse throws (too large, or nothing recoverable).
    static func read(_ data: Data, path: String) throws -> PackageOutline {
        let stream = PackageStreamReader()
        if XMLStream.read(data, stream) { return stream.outline }
        let doc = try XML.parseRaw(data, name: path)
        guard let root = doc.root else { throw PluginFailure.badData("'\(path)' has no root element", at: path) }
        return PackageOutline(tree: root, wellFormed: doc.wellFormed)
    }

    init() {}

    init(tree root: LibXMLElement, wellFormed: Bool) {
        rootName = root.name
        self.wellFormed = wellFormed
        guard root.isNamed("package") else { return }
        version = root.attr("version")
        uniqueIdentifier = root.attr("unique-identifier")
        if let m = root.child("metadata") {
            var all: [LibXMLElement] = []
            m.forEachElement { e in
                if e.isNamed("dc-metadata") || e.isNamed("x-metadata") {
                    all.append(contentsOf: e.elements)
                } else {
                    all.append(e)
                }
            }
            metadata = all.compactMap { e in
                let inDC = e.isIn(NS.dc)
                guard inDC || e.isNamed("meta") else { return nil }
                return MetaElement(name: e.name, inDC: inDC, attributes: e.attributes, trimmedText: e.trimmedText)
            }
        }
        items = root.child("manifest").map {
            $0.children("item").map { e in
                Item(
                    id: e.attr("id"), href: e.attr("href"), mediaType: e.attr("media-type"),
                    properties: e.attr("properties"),
                    fallback: e.attr("fallback"), mediaOverlay: e.attr("media-overlay"))
            }
        }
        spine = root.child("spine").map { s in
            (
                s.attr("toc"), s.attr("page-progression-direction"),
                s.children("itemref").map {
                    ItemRef(idref: $0.attr("idref"), properties: $0.attr("properties"), linear: $0.attr("linear"))
                }
            )
        }
        guide =
            root.child("guide").map {
                $0.children("reference").map {
                    Reference(type: $0.attr("type"), href: $0.attr("href"), title: $0.attr("title"))
                }
            } ?? []
    }
}

/// The package outline, assembled while the parser is on each element. Fields skip Swift's run-time
/// exclusivity checks: only libxml2's callbacks touch them, one at a time.
final class PackageStreamReader: XMLStreamHandler {
    @exclusivity(unchecked) var outline = PackageOutline()
    @exclusivity(unchecked) private var n: Names!
    private enum Section { case none, metadata, manifest, spine, guide }
    /// The first-level element open now, when it is one of those read.
    @exclusivity(unchecked) private var section = Section.none
    @exclusivity(unchecked) private var sawGuide = false
    /// A `dc-metadata`/`x-metadata` wrapper open at depth 2: its children are the metadata.
    @exclusivity(unchecked) private var inWrapper = false
    /// The metadata element whose text is being gathered.
    @exclusivity(unchecked) private var meta: (depth: Int, element: PackageOutline.MetaElement)?
    @exclusivity(unchecked) private var text: [UInt8] = []
    @exclusivity(unchecked) private var namespaces: [UnsafeRawPointer: String] = [:]

    private struct Names {
        let package, metadata, manifest, spine, guide, dcMetadata, xMetadata, meta, item, itemref,
            reference: XMLName
        let version, uniqueIdentifier, id, href, mediaType, properties, fallback, mediaOverlay, toc, pageProgression,
            idref, linear, type, title: XMLName

        init(_ t: XMLNames) {
            package = t.intern("package"); metadata = t.intern("metadata"); manifest = t.intern("manifest")
            spine = t.intern("spine"); guide = t.intern("guide"); dcMetadata = t.intern("dc-metadata")
            xMetadata = t.intern("x-metadata"); meta = t.intern("meta"); item = t.intern("item")
            itemref = t.intern("itemref"); reference = t.intern("reference")
            version = t.intern("version"); uniqueIdentifier = t.intern("unique-identifier"); id = t.intern("id")
            href = t.intern("href"); mediaType = t.intern("media-type"); properties = t.intern("properties")
            fallback = t.intern("fallback"); mediaOverlay = t.intern("media-overlay"); toc = t.intern("toc")
            pageProgression = t.intern("page-progression-direction"); idref = t.intern("idref")
            linear = t.intern("linear"); type = t.intern("type"); title = t.intern("title")
        }
    }

    func prepare(_ names: XMLNames) { n = Names(names) }

    func start(
        _ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes a: XMLAttributes,
        depth: Int
    ) {
        switch depth {
        case 0:
            outline.rootName = name.string
            guard name == n.package else { return }
            outline.version = a.string(n.version)
            outline.uniqueIdentifier = a.string(n.uniqueIdentifier)
        case 1:
            section = .none
            guard outline.rootName == "package" else { return }
            if name == n.metadata, outline.metadata == nil {
                section = .metadata
                outline.metadata = []
            } else if name == n.manifest, outline.items == nil {
                section = .manifest
                outline.items = []
            } else if name == n.spine, outline.spine == nil {
                section = .spine
                outline.spine = (a.string(n.toc), a.string(n.pageProgression), [])
            } else if name == n.guide, !sawGuide {
                section = .guide
                sawGuide = true
            }
        case 2:
            switch section {
            case .metadata:
                if name == n.dcMetadata || name == n.xMetadata {
                    inWrapper = true
                } else {
                    open(meta: name, namespace, a, depth)
                }
            case .manifest where name == n.item:
                outline.items!.append(
                    .init(
                        id: a.string(n.id), href: a.string(n.href), mediaType: a.string(n.mediaType),
                        properties: a.string(n.properties), fallback: a.string(n.fallback),
                        mediaOverlay: a.string(n.mediaOverlay)))
            case .spine where name == n.itemref:
                outline.spine!.itemrefs.append(
                    .init(idref: a.string(n.idref), properties: a.string(n.properties), linear: a.string(n.linear)))
            case .guide where name == n.reference:
                outline.guide.append(.init(type: a.string(n.type), href: a.string(n.href), title: a.string(n.title)))
            default:
                break
            }
        case 3:
            if section == .metadata, inWrapper { open(meta: name, namespace, a, depth) }
        default:
            break
        }
    }

    private func open(
        meta name: XMLName, _ namespace: UnsafePointer<xmlChar>?, _ a: XMLAttributes, _ depth: Int
    ) {
        let inDC =
            namespace.map { strcmp(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), NS.dc) == 0 } ?? false
        guard inDC || name == n.meta else { return }
        meta = (
            depth,
            .init(name: name.string, inDC: inDC, attributes: a.all(namespaces: &namespaces), trimmedText: "")
        )
        text.removeAll(keepingCapacity: true)
    }

    func end(depth: Int) {
        if let m = meta, m.depth == depth {
            var element = m.element
            element.trimmedText = XML.collapse(reusing: &text)
            outline.metadata!.append(element)
            meta = nil
        }
        if depth == 2 { inWrapper = false }
        if depth == 1 { section = .none }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        if meta != nil { text.append(contentsOf: bytes) }
    }
}
