// What the browser says while a book is listened to: the reader's Listen (a book read aloud, web/js/reader/listen.js)
// and the player page (an audiobook, web/js/pages/listen.js). A narrated book's Listen says `NarrationNotice`.

/// One thing listening in the browser did or could not do.
public enum ListeningPageNotice: String, BrowserNotice, Sendable {
    /// Listen was pressed: the host is getting ready to speak from the place shown.
    case preparing
    /// The book cannot be read aloud (the server's reason follows).
    case cannotReadAloud
    /// The browser would not start the sound (its reason follows).
    case cannotStart
    /// Stop listening was pressed.
    case stopped
    /// The sleep timer ran out and stopped playback.
    case sleepStopped
    /// The last sentence of the book was read.
    case ended
    /// A part of an audiobook cannot be played now, and the host's answer gave no reason.
    case partUnplayable
    /// A chapter of an audiobook listened to as it downloads has not arrived yet: it cannot be chosen.
    case chapterArriving

    public static let group = "listening"

    public var sentence: String {
        switch self {
        case .preparing: return "Preparing to read aloud…"
        case .cannotReadAloud: return "The book cannot be read aloud."
        case .cannotStart: return "Playback could not start."
        case .stopped: return "Stopped listening."
        case .sleepStopped: return "Sleep timer: playback stopped."
        case .ended: return "The end of the book."
        case .partUnplayable: return "This part of the book cannot be played now."
        case .chapterArriving: return "This chapter is still downloading and cannot be chosen yet."
        }
    }
}

/// Listen is ready to read the book aloud from `from`, the host's words for where it starts ("from the start",
/// "from the sentence where you stopped"); nothing plays before Play. The listening answer carries it.
public struct ReadAloudReady: PatronOutcome, Sendable, Equatable {
    public let from: String

    public init(from: String) { self.from = from }

    public var sentence: String { "Ready to read aloud \(from)." }
    public var next: NextStep? { NextStep(terminal: nil, browser: "Press Play.") }
}
