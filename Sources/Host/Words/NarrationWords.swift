// What the browser reader's Listen says about a book's own narration (EPUB 3 media overlays: a recorded voice
// synchronised with the text, which the reader plays instead of reading the book aloud with a speech plugin).

/// One thing the narration did, in the patron's words.
public enum NarrationNotice: String, BrowserNotice, Sendable {
    /// Listen was pressed: the narration is ready at the phrase shown (nothing plays before Play).
    case ready
    /// The last phrase of the book was played.
    case ended
    /// The patron chose to skip page numbers and notes (Media Overlays "skippability").
    case skipping
    /// The patron chose to hear page numbers and notes again.
    case notSkipping
    /// The patron left the table, list, figure or note being read (Media Overlays "escapability").
    case escaped
    /// The phrase is in no such structure: there is nothing to leave.
    case nothingToEscape
    /// The audio element could not play the book's audio.
    case cannotPlay
    /// The narration went on past a part of the book that has none of its own (a partly narrated book); said after
    /// the part's title.
    case passedOver
}

extension NarrationNotice {
    public static let group = "narration"

    public var sentence: String {
        switch self {
        case .ready: return "Ready to play the book's narration from the phrase shown."
        case .ended: return "The end of the book's narration."
        case .skipping: return "Page numbers and notes are skipped."
        case .notSkipping: return "Page numbers and notes are read."
        case .escaped: return "Left the table, list, figure or note being read."
        case .nothingToEscape: return "This phrase is in no table, list, figure or note to leave."
        case .cannotPlay: return "The book's narration cannot be played in this browser."
        case .passedOver: return "Passed over: it has no narration of its own."
        }
    }

    public var next: NextStep? {
        switch self {
        case .ready: return NextStep(terminal: nil, browser: "Press Play.")
        case .cannotPlay:
            return NextStep(
                terminal: nil, browser: "Read on with the pages, or try a browser that plays MP3 and MP4 audio.")
        default: return nil
        }
    }
}
