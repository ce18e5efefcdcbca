// What the browser's reader says in place of a part of the book's reading order of a type no browser shows and for
// which the book gives no fallback (EPUB 3.3, foreign resources).

/// A part of the reading order the reader cannot show, in the patron's words.
public struct UnshownPart: PatronOutcome, Sendable {
    /// The part's own title, when the book gives one.
    public let title: String?
    /// Its media type, as the book declares it.
    public let type: String

    public init(title: String?, type: String) { (self.title, self.type) = (title, type) }

    /// The page's heading.
    public var heading: String { title ?? "This part of the book" }

    public var sentence: String {
        "This part of the book is a file of type \(type), which the reader cannot show."
    }

    public var next: NextStep? { NextStep(terminal: nil, browser: "Turn the page to read on.") }
}
