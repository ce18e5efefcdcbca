import ShelfCore
import Foundation

/// What an OPDS 1 `feed` has given so far: its own links sorted into facets, format tabs and plain links, and its
/// entries sorted into titles and navigation.
struct FeedParts {
    var id, title: String?
    var activeEntryPointType: String?
    var links: [CatalogLink] = []
    var facetGroups: [CatalogFeed.FacetGroup] = []
    var entryPoints: [CatalogFeed.EntryPoint] = []
    var entries: [CatalogEntry] = []
    var navigation: [CatalogLink] = []
    /// Words about dropped links of the feed itself, then about those of its entries (the order they are reported).
    var linkSkipped: [String] = []
    var entrySkipped: [String] = []

    mutating func add(_ link: consuming CatalogLink, facetCount: Int?) {
        guard link.rel == Rel.facet else {
            links.append(link)
            return
        }
        let active = link.activeFacet ?? false
        if link.facetGroupType == Rel.entryPointType,
            let tab = FormatTab.of(facetTitle: link.title ?? "", href: link.href)
        {
            entryPoints.append(.init(tab: tab, title: link.title ?? tab.words, href: link.href, active: active))
            return
        }
        let group = link.facetGroup ?? "Facets"
        let facet = CatalogFeed.Facet(
            title: link.title ?? link.href, href: link.href, active: active, count: facetCount)
        if let index = facetGroups.firstIndex(where: { $0.title == group }) {
            facetGroups[index].facets.append(facet)
        } else {
            facetGroups.append(.init(title: group, facets: [facet]))
        }
    }

    func build(url: URL) -> CatalogFeed {
        let kind: CatalogFeed.Kind = entries.isEmpty && !navigation.isEmpty ? .navigation : .acquisition
        return CatalogFeed(
            id: id, title: title ?? "(untitled catalog)", url: url.absoluteString, kind: kind, navigation: navigation,
            entries: entries, lanes: CatalogFeed.lanes(from: entries), facetGroups: facetGroups,
            entryPoints: entryPoints,
            links: links, activeEntryPointType: activeEntryPointType, skipped: linkSkipped + entrySkipped)
    }
}
