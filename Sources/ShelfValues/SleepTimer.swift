import Foundation

/// Stops playback after some listening time, or at the end of the current chapter. Listening
/// time is what the listener hears (output frames), not wall time: at 1.5x, 10 minutes of timer
/// is 10 minutes of sound and 15 of the book; with a file sink it runs as fast as the machine.
public struct SleepTimer: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        case minutes(Double)
        case endOfChapter
    }

    public let mode: Mode
    /// Output frames heard since the timer was set.
    package var heard: Int64 = 0

    public init(_ mode: Mode) { self.mode = mode }

    /// Seconds over which a minutes timer lowers the sound to nothing (`ListeningRules.sleepFadeSeconds`).
    public static let fadeSeconds = ListeningRules.sleepFadeSeconds

    /// "12 minutes", "end of chapter": in words.
    public static func parse(_ text: String) -> Mode? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if ["chapter", "end-of-chapter", "eoc", "end of chapter"].contains(t) { return .endOfChapter }
        let number = t.hasSuffix("m") ? String(t.dropLast()) : t.hasSuffix("min") ? String(t.dropLast(3)) : t
        guard let m = Double(number), m.isFinite, m > 0, m <= 24 * 60 else { return nil }
        return .minutes(m)
    }
}
