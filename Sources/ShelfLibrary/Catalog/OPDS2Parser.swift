import ShelfCore
import Foundation

/// OPDS 2.0 (JSON) feeds and publications, into the same `CatalogFeed` as OPDS 1.
enum OPDS2Parser {
    typealias Object = [String: Any]

    static func parse(_ json: Object, url: URL) throws -> CatalogFeed {
        var skipped: [String] = []
        let metadata = json["metadata"] as? Object ?? [:]
        let title = string(metadata["title"]) ?? "(untitled catalog)"
        let hasCollections = ["publications", "navigation", "groups", "facets", "catalogs"].contains { json[$0] != nil }
        if !hasCollections, metadata["title"] != nil, json["links"] != nil {
            guard let entry = publication(json, base: url, skipped: &skipped) else {
                throw CatalogParseError("the publication has neither an identifier nor a title")
            }
            return CatalogFeed(
                id: entry.id, title: entry.title, url: url.absoluteString, kind: .entry,
                entries: [entry], skipped: skipped)
        }
        guard hasCollections || json["links"] != nil else {
            throw CatalogParseError(
                "it is JSON but not an OPDS 2 feed (no metadata, links, publications or navigation)")
        }
        var links = linkList(json["links"], base: url, skipped: &skipped)
        var entries = (json["publications"] as? [Any] ?? []).compactMap {
            ($0 as? Object).flatMap { publication($0, base: url, skipped: &skipped) }
        }
        var navigation = linkList(json["navigation"], base: url, skipped: &skipped)
        // Registries list libraries as `catalogs`: each is a way into another catalog.
        for case let catalog as Object in json["catalogs"] as? [Any] ?? [] {
            let name = string((catalog["metadata"] as? Object)?["title"]) ?? "Library"
            let catalogLinks = linkList(catalog["links"], base: url, skipped: &skipped)
            if var start = catalogLinks.first(where: { $0.rel == "http://opds-spec.org/catalog" || $0.rel == "start" })
                ?? catalogLinks.first
            {
                start.title = name
                navigation.append(start)
            }
        }
        var lanes: [CatalogFeed.Lane] = []
        for case let group as Object in json["groups"] as? [Any] ?? [] {
            let groupTitle = string((group["metadata"] as? Object)?["title"]) ?? "Group"
            let groupLinks = linkList(group["links"], base: url, skipped: &skipped)
            let publications = (group["publications"] as? [Any] ?? []).compactMap {
                ($0 as? Object).flatMap { publication($0, base: url, skipped: &skipped) }
            }
            let groupNavigation = linkList(group["navigation"], base: url, skipped: &skipped)
            entries += publications
            lanes.append(
                .init(
                    title: groupTitle, href: groupLinks.first { $0.rel == "self" }?.href,
                    entryIDs: publications.map(\.id), navigation: groupNavigation))
        }
        var facetGroups: [CatalogFeed.FacetGroup] = []
        var entryPoints: [CatalogFeed.EntryPoint] = []
        for case let group as Object in json["facets"] as? [Any] ?? [] {
            let groupTitle = string((group["metadata"] as? Object)?["title"]) ?? "Facets"
            let facetLinks = (group["links"] as? [Any] ?? []).compactMap { $0 as? Object }
            var facets: [CatalogFeed.Facet] = []
            for raw in facetLinks {
                guard let link = self.link(raw, base: url, skipped: &skipped) else { continue }
                let properties = raw["properties"] as? Object
                facets.append(
                    .init(
                        title: link.title ?? link.href, href: link.href, active: link.rel == "self",
                        count: int(properties?["numberOfItems"])))
            }
            let tabs = facets.map { FormatTab.of(facetTitle: $0.title, href: $0.href) }
            if groupTitle.lowercased().contains("format"), !tabs.isEmpty, tabs.allSatisfy({ $0 != nil }) {
                entryPoints += zip(facets, tabs).map {
                    .init(tab: $1!, title: $0.title, href: $0.href, active: $0.active)
                }
            } else {
                facetGroups.append(.init(title: groupTitle, facets: facets))
            }
        }
        links.removeAll { $0.rel == Rel.facet }
        let kind: CatalogFeed.Kind = entries.isEmpty && !navigation.isEmpty ? .navigation : .acquisition
        return CatalogFeed(
            id: string(metadata["identifier"]), title: title, url: url.absoluteString, kind: kind,
            navigation: navigation, entries: entries, lanes: lanes, facetGroups: facetGroups,
            entryPoints: entryPoints, links: links, skipped: skipped)
    }

    static func publication(_ json: Object, base: URL, skipped: inout [String]) -> CatalogEntry? {
        let metadata = json["metadata"] as? Object ?? [:]
        let title = string(metadata["title"]) ?? ""
        let id = string(metadata["identifier"]) ?? string(metadata["id"]) ?? ""
        guard !(id.isEmpty && title.isEmpty) else {
            skipped.append("a publication with neither identifier nor title")
            return nil
        }
        var links = linkList(json["links"], base: base, skipped: &skipped)
        links += linkList(json["images"], base: base, skipped: &skipped).map {
            var image = $0
            image.rel = image.rel ?? Rel.image
            return image
        }
        let endTypes = links.filter(\.isAcquisition).flatMap(AcquisitionPath.paths).map(\.endType)
        let type = string(metadata["@type"]) ?? string(metadata["type"])
        let language: String? = string(metadata["language"]) ?? (metadata["language"] as? [Any])?.first.flatMap(string)
        let subjects = (metadata["subject"] as? [Any] ?? []).compactMap { item -> String? in
            string(item) ?? (item as? Object).flatMap { string($0["name"]) }
        }
        var branches: [CatalogEntry.Branch] = []
        for link in links where !link.isAcquisition {
            if let rel = link.rel, Rel.isPhysicalHold(rel, href: link.href) {
                branches.append(
                    .init(
                        name: link.title ?? "Branch \(branches.count + 1)", href: link.href,
                        availability: link.availability))
            }
        }
        return CatalogEntry(
            id: id.isEmpty ? title : id, title: title.isEmpty ? id : title, authors: contributors(metadata["author"]),
            format: PublicationFormat.infer(type: type, endTypes: endTypes),
            summary: string(metadata["description"]), publisher: contributors(metadata["publisher"]).first,
            language: language, published: string(metadata["published"]), categories: subjects, links: links,
            branches: branches)
    }

    static func linkList(_ value: Any?, base: URL, skipped: inout [String]) -> [CatalogLink] {
        (value as? [Any] ?? []).compactMap { ($0 as? Object).flatMap { link($0, base: base, skipped: &skipped) } }
    }

    static func link(_ json: Object, base: URL, skipped: inout [String]) -> CatalogLink? {
        guard let raw = string(json["href"]) else {
            skipped.append("a link without an address")
            return nil
        }
        let templated = json["templated"] as? Bool ?? false
        // A template's braces are not valid in a URL: resolve it with them escaped, then put them back.
        let candidate =
            templated ? raw.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D") : raw
        guard var href = CatalogAddress.resolve(candidate, against: base) else {
            skipped.append("a link with an unusable address (\(raw.prefix(80)))")
            return nil
        }
        if templated {
            href = href.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
        }
        let rel: String?
        if let many = json["rel"] as? [Any] { rel = many.compactMap(string).first } else { rel = string(json["rel"]) }
        var link = CatalogLink(href: href, rel: rel, type: string(json["type"]), title: string(json["title"]))
        link.templated = templated ? true : nil
        if let properties = json["properties"] as? Object {
            let indirect = (properties["indirectAcquisition"] as? [Any] ?? []).compactMap {
                indirectAcquisition($0, depth: 0)
            }
            link.indirect = indirect.isEmpty ? nil : indirect
            link.availability = availability(properties)
        }
        return link
    }

    static func indirectAcquisition(_ value: Any, depth: Int) -> IndirectAcquisition? {
        guard depth < 16, let json = value as? Object, let type = string(json["type"]) else { return nil }
        return IndirectAcquisition(
            type: type,
            children: (json["child"] as? [Any] ?? []).compactMap {
                indirectAcquisition($0, depth: depth + 1)
            })
    }

    static func availability(_ properties: Object) -> Availability? {
        let status = properties["availability"] as? Object
        let holds = properties["holds"] as? Object
        let copies = properties["copies"] as? Object
        guard status != nil || holds != nil || copies != nil else { return nil }
        var availability = Availability(state: .unknown)
        availability.since = FeedDate.parse(string(status?["since"]))
        availability.until = FeedDate.parse(string(status?["until"]))
        availability.holdsTotal = int(holds?["total"])
        availability.holdPosition = int(holds?["position"])
        availability.copiesTotal = int(copies?["total"])
        availability.copiesAvailable = int(copies?["available"])
        let state = string(status?["state"]).flatMap { Availability.State(rawValue: $0.lowercased()) }
        if let state { availability.state = state }
        CatalogEntry.stateFromCounts(&availability, hasStatus: state != nil)
        return availability
    }

    static func contributors(_ value: Any?) -> [String] {
        switch value {
        case let text as String: return [text]
        case let object as Object: return string(object["name"]).map { [$0] } ?? []
        case let list as [Any]: return list.flatMap { contributors($0) }
        default: return []
        }
    }

    static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        case let localized as Object:
            // Language maps: {"en": "Title"}; take English, else any.
            return (localized["en"] as? String) ?? localized.values.compactMap { $0 as? String }.sorted().first
        default: return nil
        }
    }

    static func int(_ value: Any?) -> Int? {
        switch value {
        case let number as NSNumber: return number.intValue
        case let text as String: return Int(text)
        default: return nil
        }
    }
}
