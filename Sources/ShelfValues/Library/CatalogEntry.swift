import Foundation

/// One title in a catalog, OPDS 1 or 2, in the shape shelf shows, stores and acts on.
public struct CatalogEntry: Codable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var authors: [String]
    public var format: PublicationFormat
    public var summary: String?
    public var publisher: String?
    public var language: String?
    public var published: String?
    public var categories: [String]
    /// Every link, resolved: acquisitions, revoke, alternate, images, collection.
    public var links: [CatalogLink]
    public var availability: Availability
    /// Physical-copy holds offered per branch (rel `hold` or ending in `/hold`).
    public var branches: [Branch]

    public struct Branch: Codable, Equatable, Sendable {
        public var name: String
        public var href: String
        public var availability: Availability?

        public init(name: String, href: String, availability: Availability? = nil) {
            self.name = name
            self.href = href
            self.availability = availability
        }
    }

    public init(
        id: String, title: String, authors: [String] = [], format: PublicationFormat = .ebook,
        summary: String? = nil, publisher: String? = nil, language: String? = nil, published: String? = nil,
        categories: [String] = [], links: [CatalogLink] = [], branches: [Branch] = []
    ) {
        self.id = id
        self.title = title
        self.authors = authors
        self.format = format
        self.summary = summary
        self.publisher = publisher
        self.language = language
        self.published = published
        self.categories = categories
        self.links = links
        self.branches = branches
        self.availability = Self.inferAvailability(links)
    }

    // MARK: Links by purpose

    public var acquisitionLinks: [CatalogLink] { links.filter(\.isAcquisition) }
    public var borrowLink: CatalogLink? { links.first { $0.rel == Rel.borrow } }
    public var openAccessLinks: [CatalogLink] { links.filter { $0.rel == Rel.openAccess } }
    /// `http://opds-spec.org/acquisition` links: the loan's fulfilment (or a plain download).
    public var fulfilLinks: [CatalogLink] { links.filter { $0.rel == Rel.acquisition } }
    public var revokeLink: CatalogLink? { links.first { $0.rel == Rel.revoke } }
    /// The entry's own document, for fresh availability.
    public var selfLink: CatalogLink? {
        links.first { ($0.rel == "alternate" || $0.rel == "self") && ($0.type.map(MediaTypes.isOPDSEntry) ?? false) }
    }
    /// The lane this entry belongs to in a grouped feed.
    public var collectionLink: CatalogLink? { links.first { $0.rel == "collection" } }
    public var coverLink: CatalogLink? {
        links.first { $0.rel == Rel.image || $0.rel == "cover" } ?? links.first { $0.rel == Rel.thumbnail }
    }

    /// Every way to get the book (samples left out), through indirect acquisitions.
    public var acquisitionPaths: [AcquisitionPath] {
        acquisitionLinks.filter { !Rel.isSampleOrPreview($0.rel ?? "") }.flatMap(AcquisitionPath.paths)
    }

    /// True when some acquisition path ends in a type one of `openable` opens. An entry without any
    /// acquisition (navigation, metadata only) is not "unsupported": there is nothing to get.
    public func isSupported(by openable: Set<String>) -> Bool {
        let paths = acquisitionPaths
        return paths.isEmpty || paths.contains { $0.isSupported(by: openable) }
    }

    /// `!acquisitionPaths.isEmpty`, without building the paths: every acquisition link gives at least one.
    public var hasAcquisitions: Bool { links.contains { $0.isAcquisition && !Rel.isSampleOrPreview($0.rel ?? "") } }

    // MARK: Availability

    /// The Palace clients' inference: a ready or reserved hold, or a loan, wins over what a borrow link says.
    package static func inferAvailability(_ links: [CatalogLink]) -> Availability {
        var fromBorrow: Availability?
        var borrowSaidSomething = false
        var loaned: Availability?
        var held: Availability?
        var openAccess = false
        for link in links where link.isAcquisition {
            let rel = link.rel ?? ""
            if rel == Rel.openAccess { openAccess = true; continue }
            if Rel.isSampleOrPreview(rel) { continue }
            guard var availability = link.availability else {
                if rel == Rel.borrow, fromBorrow == nil { fromBorrow = Availability(state: .available) }
                continue
            }
            switch availability.state {
            case .reserved, .ready: held = held ?? availability
            case .available where rel != Rel.borrow:
                availability.state = .loaned
                loaned = loaned ?? availability
            case .loaned: loaned = loaned ?? availability
            default:
                if rel == Rel.borrow {
                    fromBorrow = fromBorrow ?? availability
                    borrowSaidSomething = true
                }
            }
        }
        if let held { return held }
        if let loaned { return loaned }
        // An open-access link wins over a borrow link that says nothing (Palace clients do the same).
        if openAccess && !borrowSaidSomething { return Availability(state: .openAccess) }
        if let fromBorrow { return fromBorrow }
        // A plain acquisition link without availability: a loan in a shelf feed, or a free download elsewhere.
        if links.contains(where: { $0.rel == Rel.acquisition }) {
            return links.contains(where: { $0.rel == Rel.revoke })
                ? Availability(state: .loaned) : Availability(state: .openAccess)
        }
        return Availability(state: .unknown)
    }

    /// Turns the counts written beside a link into a state when no `opds:availability` says it.
    package static func stateFromCounts(_ availability: inout Availability, hasStatus: Bool) {
        guard !hasStatus else { return }
        if let free = availability.copiesAvailable {
            availability.state = free > 0 ? .available : .unavailable
        } else if availability.copiesTotal != nil || availability.holdsTotal != nil {
            availability.state = .unavailable
        } else {
            availability.state = .available
        }
    }

    /// "Title — Author · eBook · 2 of 5 copies available"
    public var oneLine: String {
        var parts = [title + (authors.isEmpty ? "" : " — " + authors.prefix(3).joined(separator: ", "))]
        parts.append(format.words)
        if hasAcquisitions || availability.state != .unknown { parts.append(availability.words) }
        return parts.joined(separator: " · ")
    }
}
