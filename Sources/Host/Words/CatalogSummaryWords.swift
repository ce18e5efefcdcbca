// What the browser's catalog says above a page of titles or a search's results (the catalog answer's `said`): how
// many, for which words, in which format tab.

/// `count` titles in `tab` (only those available now, with `availableNow`), found for `query` when there is one.
public struct CatalogSummary: PatronOutcome, Sendable, Equatable {
    public let query: String?
    public let count: Int
    public let tab: FormatTab
    public let availableNow: Bool

    public init(query: String?, count: Int, tab: FormatTab, availableNow: Bool) {
        (self.query, self.count, self.tab, self.availableNow) = (query, count, tab, availableNow)
    }

    public var sentence: String {
        let place = "in \(tab.words)\(availableNow ? ", available now" : "")"
        guard let query else { return "\(Plural.count(count, "title")) loaded \(place)." }
        if count == 0 { return "No results for \(quoted(query)) \(place)." }
        return "\(Plural.count(count, "result")) for \(quoted(query)) \(place)."
    }
}
