import Foundation

// A narrated book's clips as `shelf play --json` and `shelf listen --json` give them (docs/json.md, "Audiobooks").

/// One phrase of a narration as it is played: the text it reads, the span of the book's audio that reads it, and when
/// it is heard on the session's timeline (seconds at normal speed).
public struct NarratedClip: Encodable, Sendable, Equatable {
    /// The reading-order item (chapter) it belongs to.
    public let chapter: String
    /// The element read, `href#id`.
    public let text: String
    /// The book's audio file, and the span of it played, in seconds.
    public let audio: String?
    public let clipBegin: Double
    public let clipEnd: Double
    /// When it is heard on the session's timeline, and for how long.
    public let time: Double
    public let duration: Double
    /// The epub:type words of the phrase and of the structures holding it (a page number says "pagebreak").
    public let types: [String]
    /// The escapable structure (a table, a list...) it lies in, if any.
    public let structure: String?
    /// The element's words.
    public let phrase: String?
}
