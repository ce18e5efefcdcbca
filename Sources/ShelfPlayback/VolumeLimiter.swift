import Foundation

/// The book's own volume, with gain above 100% only through a peak limiter, so that loud
/// passages are held just under full scale instead of being cut flat (hard clipping).
///
/// Per frame, the gain wanted is the volume unless that would take the frame's peak past the
/// ceiling; a lower gain applies at once (so no sample passes the ceiling), and the gain comes
/// back towards the volume smoothly over about `release` seconds, so the limiting is not heard
/// as pumping on every syllable. At or below 100% it is a plain multiplication.
struct VolumeLimiter {
    /// Just under full scale: 16-bit conversion of 1.0 is already the largest sample.
    static let ceiling: Float = 0.97
    static let release = 0.25

    private var gain: Float = 1
    private let recovery: Float

    init(sampleRate: Int) {
        // One-pole smoothing: after `release` seconds 99% of the way back.
        recovery = Float(pow(0.01, 1 / (Self.release * Double(max(1, sampleRate)))))
    }

    mutating func apply(_ volume: Float, to samples: inout [Float], channels: Int) {
        guard volume != 1 || gain != 1 else { return }
        guard volume > 1 else {
            gain = volume
            for i in samples.indices { samples[i] *= volume }
            return
        }
        let frames = samples.count / channels
        samples.withUnsafeMutableBufferPointer { s in
            for f in 0..<frames {
                let base = f * channels
                var peak: Float = 0
                for c in 0..<channels { peak = max(peak, abs(s[base + c])) }
                let target = peak * volume > Self.ceiling ? Self.ceiling / peak : volume
                gain = target < gain ? target : target - (target - gain) * recovery
                for c in 0..<channels { s[base + c] *= gain }
            }
        }
    }
}
