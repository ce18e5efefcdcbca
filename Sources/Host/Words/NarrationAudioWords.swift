// What `shelf play` and `shelf listen` say when part of a narrated book's audio (EPUB 3 media overlays) cannot be
// played: the phrases it reads are silent and the rest of the narration plays on.

/// An audio file the book's narration names that is missing, damaged or in a form shelf cannot decode.
public struct NarrationAudioTrouble: PatronOutcome, Sendable, Equatable {
    /// The audio file, as the book names it (`OEBPS/audio/ch2.mp3`), and what was wrong with it.
    public let audio: String
    public let reason: String

    public init(audio: String, reason: String) { (self.audio, self.reason) = (audio, reason) }

    public var sentence: String {
        "The narration's audio \(audio) cannot be played (\(reason)): its phrases were silent, the rest played on."
    }

    public var next: NextStep? {
        NextStep(
            terminal:
                "`shelf info BOOK` lists what is wrong with the book's file; `shelf read BOOK` shows those phrases.",
            browser: nil)
    }
}
