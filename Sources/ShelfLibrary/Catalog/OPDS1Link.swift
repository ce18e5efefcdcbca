import Foundation
import XMLText
import ShelfValues

/// An OPDS 1 `link` while the parser is inside it: its attributes, read when it opens, then its
/// `opds:indirectAcquisition` tree and the first `opds:availability`, `opds:holds` and `opds:copies` among its
/// children. Depths are relative to the link (its children are at 1).
struct LinkParts {
    /// nil: the link had no usable address and is dropped, children and all.
    private let href: String?
    private var rel, type, title, facetGroup, facetGroupType: String?
    private var activeFacet: Bool?
    /// A facet's count (`activeFacetCount`, else `count`), for feed-level facet links.
    private(set) var facetCount: Int?
    private var indirect: [IndirectAcquisition] = []
    /// The `indirectAcquisition` elements open, innermost last; an invalid one (no type, or nested too deep) is
    /// dropped with everything inside it.
    private var open: [(type: String?, children: [IndirectAcquisition], depth: Int)] = []
    private var status: (state: Availability.State?, since: Date?, until: Date?)?
    private var holds: (total: Int?, position: Int?)?
    private var copies: (total: Int?, available: Int?)?

    static let maxIndirectDepth = 16

    init(_ attributes: XMLAttributes, base: URL, _ n: OPDS1Names, skipped: inout [String]) {
        var href: Int?, activeFacetCount: Int??, count: Int??
        // One pass over the attributes; of two with the same local name, the first counts.
        for i in 0..<attributes.count {
            switch attributes.name(at: i) {
            case n.href where href == nil: href = i
            case n.rel where rel == nil: rel = attributes.string(at: i)
            case n.type where type == nil: type = attributes.string(at: i)
            case n.title where title == nil: title = attributes.string(at: i)
            case n.facetGroup where facetGroup == nil: facetGroup = attributes.string(at: i)
            case n.activeFacet where activeFacet == nil:
                activeFacet = attributes.withValue(at: i) { $0.elementsEqual("true".utf8) }
            case n.facetGroupType where facetGroupType == nil: facetGroupType = attributes.string(at: i)
            case n.activeFacetCount where activeFacetCount == nil:
                activeFacetCount = attributes.withValue(at: i, FastText.int)
            case n.count where count == nil: count = attributes.withValue(at: i, FastText.int)
            default: break
            }
        }
        facetCount = activeFacetCount.flatMap { $0 } ?? count.flatMap { $0 }
        guard let href else {
            skipped.append("a link without an address")
            self.href = nil
            return
        }
        self.href = attributes.withValue(at: href) { CatalogAddress.resolve($0, against: base) }
        guard self.href == nil else { return }
        let raw = attributes.string(at: href)
        // Contact links (mailto:, tel:) are for people, not for shelf to follow; not worth a warning.
        if !(raw.hasPrefix("mailto:") || raw.hasPrefix("tel:")) {
            skipped.append("a link with an unusable address (\(raw.prefix(80)))")
        }
    }

    mutating func start(_ name: XMLName, _ attributes: XMLAttributes, depth: Int, _ n: OPDS1Names) {
        guard href != nil else { return }
        if name == n.indirectAcquisition {
            // Only as a child of the link or of a valid indirect acquisition.
            if depth == 1 || (open.last.map { $0.depth == depth - 1 && $0.type != nil } ?? false) {
                let type = open.count < Self.maxIndirectDepth ? attributes.first(n.type) : nil
                open.append((type, [], depth))
            }
            return
        }
        guard depth == 1 else { return }
        if name == n.availability, status == nil {
            let state = attributes.withValue(n.status, Availability.State.init(lowercasing:)) ?? nil
            status = (
                state, attributes.withValue(n.since, FeedDate.parse) ?? nil,
                attributes.withValue(n.until, FeedDate.parse) ?? nil
            )
        } else if name == n.holds, holds == nil {
            holds = (
                attributes.withValue(n.total, FastText.int) ?? nil,
                attributes.withValue(n.position, FastText.int) ?? nil
            )
        } else if name == n.copies, copies == nil {
            copies = (
                attributes.withValue(n.total, FastText.int) ?? nil,
                attributes.withValue(n.available, FastText.int) ?? nil
            )
        }
    }

    mutating func end(depth: Int) {
        guard let last = open.last, last.depth == depth else { return }
        open.removeLast()
        guard let type = last.type else { return }
        let done = IndirectAcquisition(type: type, children: last.children)
        if open.isEmpty { indirect.append(done) } else { open[open.count - 1].children.append(done) }
    }

    consuming func build() -> CatalogLink? {
        guard let href else { return nil }
        var link = CatalogLink(href: href, rel: rel, type: type, title: title)
        link.facetGroup = facetGroup
        link.activeFacet = activeFacet
        link.facetGroupType = facetGroupType
        link.indirect = indirect.isEmpty ? nil : indirect
        link.availability = availability
        return link
    }

    private var availability: Availability? {
        guard status != nil || holds != nil || copies != nil else { return nil }
        var availability = Availability(
            state: status?.state ?? .unknown, since: status?.since, until: status?.until,
            copiesTotal: copies?.total, copiesAvailable: copies?.available,
            holdsTotal: holds?.total, holdPosition: holds?.position)
        CatalogEntry.stateFromCounts(&availability, hasStatus: status?.state != nil)
        return availability
    }
}

extension Availability.State {
    /// A state written in any case (`Reserved`), as `init(rawValue: text.lowercased())` reads it.
    init?(lowercasing bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            self.init(rawValue: String(decoding: bytes, as: UTF8.self).lowercased())
            return
        }
        self.init(rawValue: String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self))
    }
}
