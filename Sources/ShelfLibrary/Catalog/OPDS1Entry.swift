import Foundation
import ShelfValues

/// An OPDS 1 `entry` while the parser is inside it: the first of each text element, its authors, categories and
/// links, made into a `CatalogEntry` when it closes.
struct EntryParts {
    var additionalType: String?
    var title, id, publisher, language, issued, published: String?
    /// The first `summary` and the first `content`, as text; a present `summary` wins even when empty.
    var summary, content: String?
    var sawSummary = false, sawContent = false
    var authors: [String] = []
    var categories: [String] = []
    var links: [CatalogLink] = []
    var branches: [CatalogEntry.Branch] = []

    init(additionalType: String?) { self.additionalType = additionalType }

    mutating func add(_ link: consuming CatalogLink) {
        if let rel = link.rel, Rel.isPhysicalHold(rel, href: link.href), !link.isAcquisition {
            branches.append(
                .init(
                    name: link.title ?? "Branch \(branches.count + 1)", href: link.href,
                    availability: link.availability))
        }
        links.append(link)
    }

    /// The entry, or nil (and a word in `skipped`) when it has neither an id nor a title.
    consuming func build(skipped: inout [String]) -> CatalogEntry? {
        let title = title ?? "", id = id ?? ""
        guard !(id.isEmpty && title.isEmpty) else {
            skipped.append("an entry with neither id nor title")
            return nil
        }
        let summary = sawSummary ? summary : content
        return CatalogEntry(
            id: id.isEmpty ? title : id, title: title.isEmpty ? id : title, authors: authors,
            format: PublicationFormat.infer(
                type: additionalType,
                endTypes: links.filter(\.isAcquisition).flatMap(AcquisitionPath.paths).map(\.endType)),
            summary: summary?.isEmpty == false ? summary : nil,
            publisher: publisher, language: language, published: issued ?? published,
            categories: categories, links: links, branches: branches)
    }
}
