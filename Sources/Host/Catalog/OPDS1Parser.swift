import Foundation

/// OPDS 1.2 (Atom) with the Library Simplified / Palace extensions, into `CatalogFeed`.
enum OPDS1Parser {
    static let atom = "http://www.w3.org/2005/Atom"
    static let opds = "http://opds-spec.org/2010/catalog"
    static let simplified = "http://librarysimplified.org/terms/"
    static let schema = "http://schema.org/"

    static func parse(_ root: XMLNode, url: URL) throws -> CatalogFeed {
        var skipped: [String] = []
        switch root.name {
        case "entry":
            guard let entry = parseEntry(root, base: url, skipped: &skipped) else {
                throw CatalogParseError("the entry has neither an id nor a title")
            }
            return CatalogFeed(id: entry.id, title: entry.title, url: url.absoluteString, kind: .entry,
                               entries: [entry], skipped: skipped)
        case "feed":
            break
        default:
            throw CatalogParseError("its root element is <\(root.name)>, not an Atom <feed> or <entry>")
        }
        var links: [CatalogLink] = []
        var facetGroups: [CatalogFeed.FacetGroup] = []
        var entryPoints: [CatalogFeed.EntryPoint] = []
        for element in root.children("link") {
            guard let link = parseLink(element, base: url, skipped: &skipped) else { continue }
            if link.rel == Rel.facet {
                let active = link.activeFacet ?? false
                if link.facetGroupType == Rel.entryPointType,
                   let tab = FormatTab.of(facetTitle: link.title ?? "", href: link.href) {
                    entryPoints.append(.init(tab: tab, title: link.title ?? tab.words, href: link.href, active: active))
                    continue
                }
                let group = link.facetGroup ?? "Facets"
                let facet = CatalogFeed.Facet(title: link.title ?? link.href, href: link.href, active: active,
                                              count: element.attribute("activeFacetCount").flatMap { Int($0) }
                                                  ?? element.attribute("count").flatMap { Int($0) })
                if let index = facetGroups.firstIndex(where: { $0.title == group }) {
                    facetGroups[index].facets.append(facet)
                } else {
                    facetGroups.append(.init(title: group, facets: [facet]))
                }
            } else {
                links.append(link)
            }
        }
        var entries: [CatalogEntry] = []
        var navigation: [CatalogLink] = []
        for element in root.children("entry") {
            guard let entry = parseEntry(element, base: url, skipped: &skipped) else { continue }
            if !entry.hasAcquisitions, let target = navigationTarget(entry) {
                var link = target
                link.title = entry.title
                navigation.append(link)
            } else {
                entries.append(entry)
            }
        }
        let kind: CatalogFeed.Kind = entries.isEmpty && !navigation.isEmpty ? .navigation : .acquisition
        return CatalogFeed(
            id: root.child("id")?.trimmedText, title: root.child("title")?.trimmedText ?? "(untitled catalog)",
            url: url.absoluteString, kind: kind, navigation: navigation, entries: entries,
            lanes: CatalogFeed.lanes(from: entries), facetGroups: facetGroups, entryPoints: entryPoints, links: links,
            activeEntryPointType: root.attribute("entryPoint"), skipped: skipped)
    }

    /// A navigation entry's target: a link to another catalog document.
    static func navigationTarget(_ entry: CatalogEntry) -> CatalogLink? {
        let catalogLinks = entry.links.filter {
            ($0.type?.contains("opds-catalog") ?? false) || ($0.type.map { MediaTypes.base($0) == "application/atom+xml" } ?? false)
        }
        return catalogLinks.first { $0.rel == nil || $0.rel == "subsection" || $0.rel == "alternate" }
            ?? catalogLinks.first { $0.rel != "collection" && $0.rel != "related" && $0.rel != "self" }
    }

    static func parseEntry(_ element: XMLNode, base: URL, skipped: inout [String]) -> CatalogEntry? {
        let title = element.child("title")?.trimmedText ?? ""
        var links: [CatalogLink] = []
        var branches: [CatalogEntry.Branch] = []
        for linkElement in element.children("link") {
            guard let link = parseLink(linkElement, base: base, skipped: &skipped) else { continue }
            if let rel = link.rel, Rel.isPhysicalHold(rel, href: link.href), !link.isAcquisition {
                branches.append(.init(name: link.title ?? "Branch \(branches.count + 1)", href: link.href,
                                      availability: link.availability))
            }
            links.append(link)
        }
        let id = element.child("id")?.trimmedText ?? ""
        guard !(id.isEmpty && title.isEmpty) else {
            skipped.append("an entry with neither id nor title")
            return nil
        }
        let authors = element.children("author").compactMap { $0.child("name")?.trimmedText }.filter { !$0.isEmpty }
        let endTypes = links.filter(\.isAcquisition).flatMap(AcquisitionPath.paths).map(\.endType)
        let summary = (element.child("summary") ?? element.child("content")).map(\.allText)
            .map(FastText.trimmed)
        let categories = element.children("category").compactMap { $0.attribute("label") ?? $0.attribute("term") }
        return CatalogEntry(
            id: id.isEmpty ? title : id, title: title.isEmpty ? id : title, authors: authors,
            format: PublicationFormat.infer(type: element.attribute("additionalType"), endTypes: endTypes),
            summary: summary?.isEmpty == false ? summary : nil,
            publisher: element.child("publisher")?.trimmedText,
            language: element.child("language")?.trimmedText,
            published: (element.child("issued") ?? element.child("published"))?.trimmedText,
            categories: categories, links: links, branches: branches)
    }

    static func parseLink(_ element: XMLNode, base: URL, skipped: inout [String]) -> CatalogLink? {
        guard let raw = element.attribute("href") else {
            skipped.append("a link without an address")
            return nil
        }
        guard let href = CatalogAddress.resolve(raw, against: base) else {
            // Contact links (mailto:, tel:) are for people, not for shelf to follow; not worth a warning.
            if raw.hasPrefix("mailto:") || raw.hasPrefix("tel:") { return nil }
            skipped.append("a link with an unusable address (\(raw.prefix(80)))")
            return nil
        }
        var link = CatalogLink(href: href, rel: element.attribute("rel"), type: element.attribute("type"),
                               title: element.attribute("title"))
        link.facetGroup = element.attribute("facetGroup")
        link.activeFacet = element.attribute("activeFacet").map { $0 == "true" }
        link.facetGroupType = element.attribute("facetGroupType")
        let indirect = element.children("indirectAcquisition").compactMap { parseIndirect($0, depth: 0) }
        link.indirect = indirect.isEmpty ? nil : indirect
        link.availability = parseAvailability(element)
        return link
    }

    static func parseIndirect(_ element: XMLNode, depth: Int) -> IndirectAcquisition? {
        guard let type = element.attribute("type"), depth < 16 else { return nil }
        return IndirectAcquisition(type: type, children: element.children("indirectAcquisition")
            .compactMap { parseIndirect($0, depth: depth + 1) })
    }

    static func parseAvailability(_ link: XMLNode) -> Availability? {
        let status = link.child("availability")
        let holds = link.child("holds")
        let copies = link.child("copies")
        guard status != nil || holds != nil || copies != nil else { return nil }
        var availability = Availability(state: .unknown)
        availability.since = FeedDate.parse(status?.attribute("since"))
        availability.until = FeedDate.parse(status?.attribute("until"))
        availability.holdsTotal = holds?.attribute("total").flatMap { Int($0) }
        availability.holdPosition = holds?.attribute("position").flatMap { Int($0) }
        availability.copiesTotal = copies?.attribute("total").flatMap { Int($0) }
        availability.copiesAvailable = copies?.attribute("available").flatMap { Int($0) }
        let state = status?.attribute("status").flatMap { Availability.State(rawValue: $0.lowercased()) }
        if let state { availability.state = state }
        CatalogEntry.stateFromCounts(&availability, hasStatus: state != nil)
        return availability
    }
}

public struct CatalogParseError: Error, CustomStringConvertible {
    public var reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Addresses found in feeds, checked before anything follows them.
public enum CatalogAddress {
    /// Resolves `href` against `base`. Only http(s) addresses are kept, plus file addresses when the
    /// document itself is a local file: a feed from the network never points shelf at local files.
    public static func resolve(_ href: String, against base: URL) -> String? {
        let trimmed = FastText.trimmed(href)
        if let plain = FastText.plainAbsoluteHTTP(trimmed) { return plain }
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == " " }),
              let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { return nil }
            return url.absoluteString
        case "file":
            return base.isFileURL ? url.absoluteString : nil
        default:
            return nil
        }
    }
}
