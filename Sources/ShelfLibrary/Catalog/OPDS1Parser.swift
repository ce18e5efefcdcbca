import Foundation
import ShelfValues

/// OPDS 1.2 (Atom) with the Library Simplified / Palace extensions, into `CatalogFeed`, read in one pass as the
/// parser streams the document (`OPDS1Reader`).
enum OPDS1Parser {
    static func parse(_ data: Data, url: URL) throws -> CatalogFeed {
        let reader = OPDS1Reader(base: url)
        try FeedXML.parse(data, reader)
        return try reader.finish(url: url)
    }

    /// A navigation entry's target: a link to another catalog document.
    static func navigationTarget(_ entry: CatalogEntry) -> CatalogLink? {
        let catalogLinks = entry.links.filter {
            ($0.type?.contains("opds-catalog") ?? false)
                || ($0.type.map { MediaTypes.base($0) == "application/atom+xml" } ?? false)
        }
        return catalogLinks.first { $0.rel == nil || $0.rel == "subsection" || $0.rel == "alternate" }
            ?? catalogLinks.first { $0.rel != "collection" && $0.rel != "related" && $0.rel != "self" }
    }
}

public struct CatalogParseError: Error, CustomStringConvertible {
    public var reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
