/// A word or a sentence of a book read aloud and when it is heard: what `shelf play BOOK.epub --json` lists
/// (docs/json.md), and what a player following the text highlights.
public struct SpokenMark: Codable, Sendable, Equatable {
    /// "word" or "sentence".
    public let kind: String
    /// The chapter: the book's reading-order item.
    public let href: String
    /// Seconds on the session's timeline, at normal speed.
    public let time: Double
    /// Bytes into the chapter's text as read aloud (its passages joined by newlines), and how many.
    public let offset: Int
    public let length: Int
    public let text: String

    public init(kind: String, href: String, time: Double, offset: Int, length: Int, text: String) {
        (self.kind, self.href, self.time, self.offset, self.length, self.text) = (
            kind, href, time, offset, length, text
        )
    }
}
