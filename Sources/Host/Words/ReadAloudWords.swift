// Why a book cannot be read aloud, in the patron's words: `shelf play BOOK.epub`, `shelf listen BOOK.epub` and (next)
// the reader's Listen button say these.

/// No speech plugin loads, so a book with text cannot be listened to. `refusals` are the reasons shelf gave the
/// speech plugins it found and could not load (`shelf plugins` lists them too).
public struct SpeechUnavailable: PatronOutcome, Sendable, Equatable {
    public let refusals: [String]

    public init(refusals: [String]) { self.refusals = refusals }

    public var sentence: String {
        "No speech plugin can read this book aloud"
            + (refusals.isEmpty ? "." : ": " + refusals.joined(separator: "; ") + ".")
    }

    public var next: NextStep? { .installSpeech }
}

extension NextStep {
    /// shelf reads aloud with eSpeak NG, Debian's speech synthesiser.
    public static let installSpeech = NextStep(
        terminal:
            "Install eSpeak NG with `sudo apt-get install libespeak-ng1`; `shelf plugins` says what each plugin needs.",
        browser:
            "Ask for eSpeak NG (the Debian package libespeak-ng1) to be installed on this computer, then press Listen again."
    )
}
