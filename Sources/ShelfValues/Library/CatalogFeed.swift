import Foundation

/// A catalog page, OPDS 1 or 2: navigation, entries grouped into lanes, facets, format tabs, pagination.
public struct CatalogFeed: Codable, Equatable, Sendable {
    public var id: String?
    public var title: String
    /// Where the page came from (after redirects).
    public var url: String
    public var kind: Kind
    /// Links to other feeds (a navigation feed's entries, OPDS 2 `navigation`).
    public var navigation: [CatalogLink]
    /// Every entry, in document order.
    public var entries: [CatalogEntry]
    /// Grouped feeds: consecutive entries sharing a `collection` link, or OPDS 2 `groups`.
    public var lanes: [Lane]
    /// Facet groups other than the format tabs.
    public var facetGroups: [FacetGroup]
    /// The format tabs (Palace entry points), when the server offers them.
    public var entryPoints: [EntryPoint]
    /// The links of the feed itself: next, previous, search, shelf, auth document, start.
    public var links: [CatalogLink]
    /// `simplified:entryPoint` on the root, e.g. `http://bib.schema.org/Audiobook`.
    public var activeEntryPointType: String?
    /// Links or entries dropped because their address could not be used, for a warning.
    public var skipped: [String]

    public enum Kind: String, Codable, Sendable { case navigation, acquisition, entry }

    public struct Lane: Codable, Equatable, Sendable {
        public var title: String
        public var href: String?
        public var entryIDs: [String]
        public var navigation: [CatalogLink]

        public init(title: String, href: String?, entryIDs: [String], navigation: [CatalogLink]) {
            self.title = title
            self.href = href
            self.entryIDs = entryIDs
            self.navigation = navigation
        }
    }

    public struct Facet: Codable, Equatable, Sendable {
        public var title: String
        public var href: String
        public var active: Bool
        public var count: Int?

        public init(title: String, href: String, active: Bool, count: Int?) {
            self.title = title
            self.href = href
            self.active = active
            self.count = count
        }
    }

    public struct FacetGroup: Codable, Equatable, Sendable {
        public var title: String
        public var facets: [Facet]

        public init(title: String, facets: [Facet]) {
            self.title = title
            self.facets = facets
        }
    }

    public struct EntryPoint: Codable, Equatable, Sendable {
        public var tab: FormatTab
        public var title: String
        public var href: String
        public var active: Bool

        public init(tab: FormatTab, title: String, href: String, active: Bool) {
            self.tab = tab
            self.title = title
            self.href = href
            self.active = active
        }
    }

    public init(
        id: String? = nil, title: String, url: String, kind: Kind, navigation: [CatalogLink] = [],
        entries: [CatalogEntry] = [], lanes: [Lane] = [], facetGroups: [FacetGroup] = [],
        entryPoints: [EntryPoint] = [], links: [CatalogLink] = [], activeEntryPointType: String? = nil,
        skipped: [String] = []
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.kind = kind
        self.navigation = navigation
        self.entries = entries
        self.lanes = lanes
        self.facetGroups = facetGroups
        self.entryPoints = entryPoints
        self.links = links
        self.activeEntryPointType = activeEntryPointType
        self.skipped = skipped
    }

    public func link(_ rel: String) -> CatalogLink? { links.first { $0.rel == rel } }
    public var next: CatalogLink? { link("next") }
    public var previous: CatalogLink? { link("previous") ?? link("prev") }
    public var search: CatalogLink? { link("search") }
    public var shelf: CatalogLink? { link(Rel.shelf) }
    public var authDocument: CatalogLink? { link(Rel.authDocument) }

    /// The tab this page shows: the active entry point, or what the root's `simplified:entryPoint` says.
    public var activeTab: FormatTab? {
        if let active = entryPoints.first(where: \.active) { return active.tab }
        guard let type = activeEntryPointType?.lowercased() else { return nil }
        if type.hasSuffix("audiobook") { return .audiobook }
        if type.hasSuffix("ebook") || type.hasSuffix("book") { return .ebook }
        return nil
    }

    /// Builds lanes from the entries' `collection` links, as Palace groups feeds do: one lane per collection, in the
    /// order each first appears, with its entries in feed order (a feed may interleave its lanes' entries).
    package static func lanes(from entries: [CatalogEntry]) -> [Lane] {
        var lanes: [Lane] = []
        var index: [String: Int] = [:]
        var members: [Set<String>] = []
        for entry in entries {
            guard let collection = entry.collectionLink else { continue }
            if let at = index[collection.href] {
                if members[at].insert(entry.id).inserted { lanes[at].entryIDs.append(entry.id) }
            } else {
                index[collection.href] = lanes.count
                members.append([entry.id])
                lanes.append(
                    Lane(
                        title: collection.title ?? collection.href, href: collection.href,
                        entryIDs: [entry.id], navigation: []))
            }
        }
        return lanes
    }
}
