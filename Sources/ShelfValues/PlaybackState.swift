import Foundation

/// A snapshot of the engine, for a status line or a UI.
public struct PlaybackState: Sendable, Equatable, Encodable {
    public var playing: Bool
    public var ended: Bool
    /// Seconds on the book's timeline.
    public var position: Double
    /// The book's length; nil while a part whose manifest gives no duration has not arrived to be measured.
    public var duration: Double?
    public var track: Int
    public var chapter: Int?
    public var chapterTitle: String?
    public var chapterElapsed: Double
    /// Nil while the chapter's end is in parts not measured yet (see `duration`).
    public var chapterRemaining: Double?
    public var speed: Double
    public var volume: Double
    /// "end of chapter", or minutes as a number; nil when no timer is set.
    public var sleep: String?
    /// Listening seconds left on a minutes timer.
    public var sleepRemaining: Double?
    /// Seconds of sound played since load (at the speed it was heard).
    public var listened: Double
    /// Set while the engine waits for a track still downloading.
    public var waitingFor: String?

    /// What is said in place of the book's length while it is not known.
    package init(
        playing: Bool, ended: Bool, position: Double, duration: Double?, track: Int, chapter: Int?,
        chapterTitle: String?, chapterElapsed: Double, chapterRemaining: Double?, speed: Double, volume: Double,
        sleep: String?, sleepRemaining: Double?, listened: Double, waitingFor: String?
    ) {
        self.playing = playing
        self.ended = ended
        self.position = position
        self.duration = duration
        self.track = track
        self.chapter = chapter
        self.chapterTitle = chapterTitle
        self.chapterElapsed = chapterElapsed
        self.chapterRemaining = chapterRemaining
        self.speed = speed
        self.volume = volume
        self.sleep = sleep
        self.sleepRemaining = sleepRemaining
        self.listened = listened
        self.waitingFor = waitingFor
    }

    public static let lengthUnknown = "the book's length is known once every part has downloaded"

    /// One line of words a screen reader can follow.
    public var sentence: String {
        var parts: [String] = []
        parts.append(ended ? "Finished" : playing ? "Playing" : "Paused")
        if let chapterTitle, let chapter { parts.append("chapter \(chapter + 1), \(chapterTitle)") }
        // What is left is said in listening time: at 2x, ten minutes of chapter take five.
        if let chapterRemaining {
            parts.append(
                "\(PlaybackTime.words(chapterElapsed)) in, \(PlaybackTime.words(chapterRemaining / max(speed, 0.01))) left in the chapter"
            )
        } else {
            parts.append("\(PlaybackTime.words(chapterElapsed)) in the chapter")
        }
        if let duration {
            parts.append("\(PlaybackTime.words(position)) of \(PlaybackTime.words(duration)) in the book")
        } else {
            parts.append("\(PlaybackTime.words(position)) in the book")
            parts.append(Self.lengthUnknown)
        }
        // "speed 1 times" reads oddly: as the browser's player says it.
        parts.append(
            speed == 1
                ? "normal speed"
                : "speed \(String(format: "%.2f", speed).replacingOccurrences(of: ".00", with: "")) times")
        if volume != 1 { parts.append("volume \(Int((volume * 100).rounded())) percent") }
        if let sleep {
            if let r = sleepRemaining {
                parts.append("sleep in \(PlaybackTime.words(r))")
            } else {
                parts.append("sleep at \(sleep)")
            }
        }
        if let waitingFor { parts.append("waiting for \(waitingFor) to download") }
        return parts.joined(separator: "; ") + "."
    }
}

/// What the engine tells its driver, in order, from the playing thread.
public enum PlaybackEvent: Sendable, Equatable {
    case started
    case paused
    case resumed
    case seeked(Double)
    case chapter(Int, String)
    case speed(Double)
    case volume(Double)
    case sleepSet(String?)
    case sleepStopped
    case ended
    case saved(Double)
    case waiting(String)
    /// A track that cannot play as the book says: (track index, what is wrong and what playback does).
    case trackProblem(Int, String)
    case error(String)
}
