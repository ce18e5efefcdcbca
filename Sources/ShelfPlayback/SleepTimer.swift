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
    var heard: Int64 = 0

    public init(_ mode: Mode) { self.mode = mode }

    /// Output frames still to play, nil for end of chapter.
    func remainingFrames(sampleRate: Int) -> Int64? {
        guard case .minutes(let m) = mode else { return nil }
        return max(0, Int64((m * 60 * Double(sampleRate)).rounded()) - heard)
    }

    /// Seconds over which a minutes timer lowers the sound to nothing, as a listener falls asleep:
    /// an abrupt stop in mid-sentence wakes them.
    public static let fadeSeconds = 5.0

    /// Lowers `output` (the next frames heard, `remaining` of them before the timer stops) along a
    /// raised-cosine curve over the last `fadeSeconds`.
    func fadeOut(_ output: inout [Float], channels: Int, remaining: Int64, sampleRate: Int) {
        let fade = Int64(Self.fadeSeconds * Double(sampleRate))
        let frames = output.count / channels
        guard fade > 0, remaining - Int64(frames) < fade else { return }
        for f in 0..<frames {
            let left = remaining - Int64(f)
            guard left < fade else { continue }
            let x = Float(max(0, left)) / Float(fade)
            let gain = 0.5 - 0.5 * cos(Float.pi * x)
            for c in 0..<channels { output[f * channels + c] *= gain }
        }
    }

    /// "12 minutes", "end of chapter": in words.
    public static func parse(_ text: String) -> Mode? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if ["chapter", "end-of-chapter", "eoc", "end of chapter"].contains(t) { return .endOfChapter }
        let number = t.hasSuffix("m") ? String(t.dropLast()) : t.hasSuffix("min") ? String(t.dropLast(3)) : t
        guard let m = Double(number), m.isFinite, m > 0, m <= 24 * 60 else { return nil }
        return .minutes(m)
    }
}
