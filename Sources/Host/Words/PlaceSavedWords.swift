// Where `shelf read` and `shelf listen` leave the book when they end: the place saved, or, when another reader moved
// it after this one's last turn, the place that reader left.

/// The place a reading or listening session ended on.
public enum PlaceSaved: PatronOutcome, Sendable, Equatable {
    /// A book listened to, saved at `seconds` on its timeline.
    case listening(seconds: Double)
    /// A book read, saved at `page` (its status: "Chapter 3 · page 4 of 10").
    case reading(title: String, page: String)
    /// Another reader (the browser, a second `shelf read`) moved the place to `kept` after this one stopped at
    /// `stopped`: the place kept is theirs.
    case movedByAnotherReader(title: String, kept: String, stopped: String)

    public var sentence: String {
        switch self {
        case .listening(let seconds): return "Saved at \(PlaybackTime.clock(seconds))."
        case .reading(let title, let page):
            return "Saved at \(DisplayText.oneLine(page)) of \(quoted(DisplayText.oneLine(title)))."
        case .movedByAnotherReader(let title, let kept, let stopped):
            return "Your place in \(quoted(DisplayText.oneLine(title))) is \(DisplayText.oneLine(kept)), where another "
                + "reader moved it after your last turn here (this one stopped at \(DisplayText.oneLine(stopped)))."
        }
    }
}
