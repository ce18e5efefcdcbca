// What a search inside a book found, as the browser's reader says it above the hits (the search answer's `said`).

/// `count` hits for `query`; `limited`: the search stopped at its limit, so there may be more.
public struct InBookSearchResult: PatronOutcome, Sendable, Equatable {
    public let query: String
    public let count: Int
    public let limited: Bool

    public init(query: String, count: Int, limited: Bool) {
        (self.query, self.count, self.limited) = (query, count, limited)
    }

    public var sentence: String {
        if limited { return "The first \(count) hits for \(quoted(query)): the search stops there." }
        if count == 0 { return "No hit for \(quoted(query)) in this book." }
        return "\(Plural.count(count, "hit")) for \(quoted(query))."
    }

    public var next: NextStep? {
        limited ? NextStep(terminal: "More words find fewer.", browser: "More words find fewer.") : nil
    }
}
