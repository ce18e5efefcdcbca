import Foundation

/// The rules every player of shelf follows, wherever it plays: the engine's (`shelf play`, `shelf listen`) and the
/// browser's, which reads them from the host (`GET /api/player`, `rules`) instead of writing its own.
public enum ListeningRules {
    /// Playing after a stop (a pause, the sleep timer, the last play) longer than `replayAfter` seconds replays the
    /// `resumeRewind` seconds before it, rising from silence over `resumeFadeIn`: the listener picks up the thread. A
    /// shorter stop goes on where it stopped: replaying after every quick pause would walk the place back.
    public static let replayAfter = 5.0
    public static let resumeRewind = 2.0
    public static let resumeFadeIn = 0.5

    /// The sleep timer lowers the sound to nothing over its last seconds along a raised cosine
    /// (gain = ½ − ½·cos(π·left/seconds)), as a listener falls asleep: an abrupt stop in mid-sentence wakes them.
    public static let sleepFadeSeconds = 5.0
    public static let sleepFadeCurve = "raised-cosine"

    /// A time in words names this many units at most: the largest that is not 0 and those after it that are not
    /// ("1 hour 2 minutes", seconds dropped past an hour; "3 minutes 5 seconds"; "40 seconds").
    public static let timeWordsUnits = 2

    /// The rules as the player's API document gives them (docs: web/openapi/player.json).
    public struct Document: Encodable, Sendable {
        public struct SleepFade: Encodable, Sendable { public let seconds: Double, curve: String }
        public struct TimeWords: Encodable, Sendable { public let units: Int }
        public let replayAfter, resumeRewind, resumeFadeIn: Double
        public let sleepFade: SleepFade
        public let timeWords: TimeWords
    }

    public static let document = Document(
        replayAfter: replayAfter, resumeRewind: resumeRewind, resumeFadeIn: resumeFadeIn,
        sleepFade: .init(seconds: sleepFadeSeconds, curve: sleepFadeCurve), timeWords: .init(units: timeWordsUnits))
}
