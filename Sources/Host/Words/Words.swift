/// What a patron reads about one outcome or error, for one face: the sentence saying what happened (one for every
/// face) and, when there is one, the hint saying what to do next in this face's terms.
public struct Words: Sendable, Equatable, CustomStringConvertible {
    /// What happened, a whole sentence (capital, full stop): the same on the terminal and in the browser.
    public let sentence: String
    /// What to do next on this face, a whole sentence; nil when there is nothing to do.
    public let hint: String?

    public init(_ sentence: String, hint: String? = nil) {
        self.sentence = sentence
        self.hint = hint
    }

    /// Both on one line, as a terminal prints them and the browser's live region says them.
    public var line: String { hint.map { "\(sentence) \($0)" } ?? sentence }

    public var description: String { line }
}

/// A value a patron is told about: a circulation outcome, a sync result, a notice, a download's state, an error.
///
/// Conformances live in `Sources/Host/Words/`, one file per subject, and nowhere else: a face asks the value for its
/// words (`outcome.words(for: .terminal)`) and prints or sends them as they are. The words are made from the value
/// alone, so any thread may ask for them.
public protocol PatronOutcome {
    /// What happened, the same for every face.
    var sentence: String { get }
    /// What the patron can do next, or nil.
    var next: NextStep? { get }
}

extension PatronOutcome {
    public var next: NextStep? { nil }

    /// The sentence and this face's hint.
    public func words(for face: Face) -> Words { Words(sentence, hint: next?.said(on: face)) }
}
