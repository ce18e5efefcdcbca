// What `shelf listen` says after a key, in the patron's words: a skip says what it did and where it landed, the
// speed says "normal speed" at 1, the chapter being typed is echoed, and a key that does nothing says how to get help.

/// One thing a listening control did, or a key that did nothing.
public enum ListeningControl: Sendable, Equatable {
    /// A skip by `seconds` (negative: back) that landed at `now` seconds on the book's timeline.
    case skipped(seconds: Double, now: Double)
    /// The speed now.
    case speed(Double)
    /// The digits typed so far for a chapter to go to.
    case choosingChapter(String)
    /// A key no control has.
    case unknownKey(String)
}

extension ListeningControl: PatronOutcome {
    public var sentence: String {
        switch self {
        case .skipped(let seconds, let now):
            return
                "\(seconds < 0 ? "Back" : "Forward") \(PlaybackTime.words(abs(seconds))), now \(PlaybackTime.clock(now))."
        case .speed(let speed):
            return speed == 1 ? "Normal speed." : "Speed \(Self.speedWords(speed)) times."
        case .choosingChapter(let digits):
            return digits.isEmpty ? "Chapter: none typed yet." : "Chapter \(digits)."
        case .unknownKey(let key):
            return "The key \(key) does nothing here."
        }
    }

    public var next: NextStep? {
        switch self {
        case .unknownKey: return NextStep(terminal: "Press h for the keys.", browser: nil)
        case .choosingChapter: return NextStep(terminal: "Enter goes there, Escape chooses none.", browser: nil)
        default: return nil
        }
    }

    /// 1.25, 1.5, 2: as few digits as the speed needs.
    static func speedWords(_ speed: Double) -> String {
        var text = String(format: "%.2f", speed)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// What `shelf play` and `shelf listen` say of playback while it goes on.
public enum PlaybackNotice: Sendable, Equatable {
    /// Playback waits for `track` (its title) to download further.
    case waiting(track: String)
}

extension PlaybackNotice: PatronOutcome {
    public var sentence: String {
        switch self {
        case .waiting(let track): return "Waiting for \(track) to download."
        }
    }
}

/// A track a player cannot play now, named as the book names it.
public struct TrackHeld: Sendable, Equatable {
    public let name: String
    public let hold: TrackHold
}

extension TrackHeld: PatronOutcome {
    public var sentence: String {
        switch hold {
        case .downloading: return "\(name) is still downloading and cannot be played yet."
        case .unplayable(let problem): return "\(name) cannot be played: it \(problem)."
        }
    }
}

/// A time to start from (`--from TIME`) in a book read aloud or narrated, not yet reached: the book is made from its
/// start (spoken, or cut from its audio) as far as the time, and `made` is how far it has come.
public struct MakingAhead: PatronOutcome, Sendable, Equatable {
    public let time: Double
    public let made: Double
    public let readAloud: Bool

    public init(time: Double, made: Double, readAloud: Bool) {
        self.time = time
        self.made = made
        self.readAloud = readAloud
    }

    public var sentence: String {
        (readAloud ? "Reading the book aloud" : "Cutting the book's narration")
            + " as far as \(PlaybackTime.clock(time)) to start there: \(PlaybackTime.clock(made)) made."
    }
}

/// A time to start from (`--from TIME`) past the end of the book, and how long the book lasts.
public struct TimePastTheEnd: PatronOutcome, Sendable, Equatable {
    public let time: Double
    public let length: Double
    /// A book read aloud: its length is how long it takes to speak at normal speed.
    public let readAloud: Bool

    public var sentence: String {
        "\(PlaybackTime.clock(time)) is past the end of the book, which lasts \(PlaybackTime.clock(length))"
            + (readAloud ? " read aloud." : ".")
    }

    public var next: NextStep? {
        readAloud
            ? NextStep(
                terminal:
                    "Start before \(PlaybackTime.clock(length)), or at a chapter with --chapter N (`shelf toc BOOK` lists them).",
                browser: nil)
            : NextStep(
                terminal: "`shelf toc BOOK` shows where each chapter starts.",
                browser: "The chapters list shows where each chapter starts.")
    }

    /// The error a command ends with (exit 64: a time the book does not have).
    var error: ShelfError { ShelfError(.usage, sentence, next: next) }
}
