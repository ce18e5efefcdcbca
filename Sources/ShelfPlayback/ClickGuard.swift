import Foundation

/// Keeps every discontinuity in the sound free of clicks: a skip, a seek, a pause and its resume, a stop. A cut
/// between two unrelated samples is a step the ear hears as a click (a skip in speech made a step of 0.047 between
/// two samples). The last few milliseconds of what was played are held back: at a discontinuity they fade out to
/// silence, and what plays next fades in from it. Holding them back delays the sound by that much, never more.
struct ClickGuard {
    let frames: Int
    let channels: Int
    /// The frames held back, interleaved.
    private var tail: [Float] = []

    init(sampleRate: Int, channels: Int, seconds: Double = 0.005) {
        frames = max(1, Int(Double(sampleRate) * seconds))
        self.channels = max(1, channels)
    }

    /// Passes `output` on, keeping its last frames back; after a discontinuity (`afterBreak`) the frames held from
    /// before fade out and `output` fades in.
    mutating func pass(_ output: inout [Float], afterBreak: Bool) {
        if afterBreak {
            Self.fade(&tail, channels: channels, out: true)
            Self.fade(&output, channels: channels, out: false, limit: frames)
        }
        let all = tail + output
        let keep = min(all.count, frames * channels)
        tail = Array(all[(all.count - keep)...])
        output = Array(all[..<(all.count - keep)])
    }

    /// The frames held back, faded out to silence: playback stops (or ends) after them.
    mutating func close() -> [Float] {
        var out = tail
        tail.removeAll()
        Self.fade(&out, channels: channels, out: true)
        return out
    }

    /// A raised-cosine ramp over `samples` (down to silence when `out`, else up from it over at most `limit` frames).
    private static func fade(_ samples: inout [Float], channels: Int, out: Bool, limit: Int = .max) {
        let count = samples.count / channels
        let length = min(count, limit)
        guard length > 0 else { return }
        for f in 0..<length {
            let x = Double(f + 1) / Double(length + 1)
            let gain = Float(out ? 0.5 + 0.5 * cos(Double.pi * x) : 0.5 - 0.5 * cos(Double.pi * x))
            let frame = out ? count - length + f : f
            for c in 0..<channels { samples[frame * channels + c] *= gain }
        }
    }
}
