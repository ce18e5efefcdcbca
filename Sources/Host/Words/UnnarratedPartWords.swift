// What `shelf play` and `shelf listen` say of a partly narrated book (EPUB 3 media overlays on some of its reading
// order only): the narration plays the narrated parts and passes over the others, which it says before it plays.

/// The parts of a narrated book, from where listening starts, that have no narration of their own.
public struct UnnarratedParts: PatronOutcome, Sendable, Equatable {
    /// Their titles (the contents' entry, else the part's own title, else its file's name), in reading order.
    public let titles: [String]
    /// At most this many titles are named; the rest are counted.
    static let named = 4

    public init(titles: [String]) { self.titles = titles }

    public var sentence: String {
        guard titles.count > 1 else {
            return "“\(titles.first ?? "A part")” has no narration of its own: the narration passes over it."
        }
        let quoted = titles.prefix(Self.named).map { "“\($0)”" }
        let list =
            titles.count > Self.named
            ? quoted.joined(separator: ", ") + " and \(titles.count - Self.named) more"
            : quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
        return
            "\(titles.count) parts of this book have no narration of their own: \(list); the narration passes over them."
    }

    public var next: NextStep? {
        NextStep(terminal: "`shelf read BOOK` shows them.", browser: "Turn the pages to read them.")
    }
}
