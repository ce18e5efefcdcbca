import Foundation

/// Speed without pitch change (WaveformSimilarityStretcher: WSOLA, on floats and SIMD).
/// At 1.0 the samples pass through untouched.
final class TimeStretcher {
    private var stream: WaveformSimilarityStretcher?
    let sampleRate: Int
    let channels: Int
    private(set) var speed: Double = 1

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    var isBypassed: Bool { speed == 1 && stream == nil }

    func setSpeed(_ value: Double) {
        speed = value
        if value != 1, stream == nil {
            stream = WaveformSimilarityStretcher(sampleRate: sampleRate, channels: channels)
        }
        stream?.setSpeed(value)
    }

    /// Frames fed in but not yet given out, in input frames (so the position can be told exactly).
    var pendingInputFrames: Double {
        guard let stream else { return 0 }
        return Double(stream.pendingInputFrames)
    }

    /// Feeds `frames` frames and returns what is ready.
    func process(_ input: UnsafePointer<Float>, frames: Int, into output: inout [Float]) {
        output.removeAll(keepingCapacity: true)
        guard let stream else {
            output.append(contentsOf: UnsafeBufferPointer(start: input, count: frames * channels))
            return
        }
        stream.process(input, frames: frames, into: &output)
        // Back at 1.0: what is buffered goes out as it is, then samples pass through again.
        if speed == 1 {
            stream.flush(into: &output)
            self.stream = nil
        }
    }

    /// At the end of the book: what is still inside.
    func flush(into output: inout [Float]) {
        output.removeAll(keepingCapacity: true)
        stream?.flush(into: &output)
    }

    /// Forgets what is buffered (after a seek).
    func reset() {
        stream?.reset()
    }
}
