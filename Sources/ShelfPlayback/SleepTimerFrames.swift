import Foundation
import ShelfValues

// The sleep timer's arithmetic on output frames: the engine's, not the value's (Sources/ShelfValues/SleepTimer.swift).
extension SleepTimer {
    /// Output frames still to play, nil for end of chapter.
    func remainingFrames(sampleRate: Int) -> Int64? {
        guard case .minutes(let m) = mode else { return nil }
        return max(0, Int64((m * 60 * Double(sampleRate)).rounded()) - heard)
    }

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
}
