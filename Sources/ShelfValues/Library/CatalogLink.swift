import Foundation

/// One link of a feed or entry, with its href already resolved against the document's address.
public struct CatalogLink: Codable, Equatable, Sendable {
    public var href: String
    public var rel: String?
    public var type: String?
    public var title: String?
    /// `opds:facetGroup` for facet links.
    public var facetGroup: String?
    public var activeFacet: Bool?
    /// `simplified:facetGroupType` (entry points carry `.../rel/entrypoint`).
    public var facetGroupType: String?
    /// Availability written inside an acquisition link.
    public var availability: Availability?
    /// What following the link gives, step by step (`opds:indirectAcquisition`).
    public var indirect: [IndirectAcquisition]?
    /// OPDS 2 `templated`.
    public var templated: Bool?

    public init(href: String, rel: String? = nil, type: String? = nil, title: String? = nil) {
        self.href = href
        self.rel = rel
        self.type = type
        self.title = title
    }

    public var isAcquisition: Bool { rel.map(Rel.isAcquisition) ?? false }
}

/// A nested `opds:indirectAcquisition`: a type and what it leads to.
public struct IndirectAcquisition: Codable, Equatable, Sendable {
    public var type: String
    public var children: [IndirectAcquisition]

    public init(type: String, children: [IndirectAcquisition] = []) {
        self.type = type
        self.children = children
    }
}

/// The link relations shelf acts on.
public enum Rel {
    public static let acquisition = "http://opds-spec.org/acquisition"
    public static let borrow = "http://opds-spec.org/acquisition/borrow"
    public static let openAccess = "http://opds-spec.org/acquisition/open-access"
    public static let sample = "http://opds-spec.org/acquisition/sample"
    public static let preview = "preview"
    public static let buy = "http://opds-spec.org/acquisition/buy"
    public static let subscribe = "http://opds-spec.org/acquisition/subscribe"
    public static let revoke = "http://librarysimplified.org/terms/rel/revoke"
    public static let shelf = "http://opds-spec.org/shelf"
    public static let facet = "http://opds-spec.org/facet"
    public static let authDocument = "http://opds-spec.org/auth/document"
    public static let entryPointType = "http://librarysimplified.org/terms/rel/entrypoint"
    public static let image = "http://opds-spec.org/image"
    public static let thumbnail = "http://opds-spec.org/image/thumbnail"
    public static let hold = "hold"

    package static func isAcquisition(_ rel: String) -> Bool {
        rel.hasPrefix(acquisition)
    }

    package static func isSampleOrPreview(_ rel: String) -> Bool {
        rel == sample || rel == preview || rel == "http://opds-spec.org/acquisition/preview"
    }

    /// Physical-copy holds: rel `hold`, or a URI rel ending in `/hold` (no standard exists).
    package static func isPhysicalHold(_ rel: String, href: String) -> Bool {
        rel == hold || rel.hasSuffix("/hold")
    }
}
