import CSonic
import Foundation

/// Speed without pitch change, by libsonic (a pitch-synchronous overlap-add stretcher made for
/// speech). At 1.0 the samples pass through untouched.
final class TimeStretcher {
    private var stream: sonicStream?
    let sampleRate: Int
    let channels: Int
    private(set) var speed: Double = 1

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit { if let stream { sonicDestroyStream(stream) } }

    var isBypassed: Bool { speed == 1 && stream == nil }

    func setSpeed(_ value: Double) {
        speed = value
        if value != 1, stream == nil {
            stream = sonicCreateStream(Int32(sampleRate), Int32(channels))
        }
        if let stream { sonicSetSpeed(stream, Float(value)) }
    }

    /// Frames fed in but not yet given out, in input frames (so the position can be told exactly).
    var pendingInputFrames: Double {
        guard let stream else { return 0 }
        return Double(sonicSamplesAvailable(stream)) * speed
    }

    /// Feeds `frames` frames and returns what is ready.
    func process(_ input: UnsafePointer<Float>, frames: Int, into output: inout [Float]) {
        output.removeAll(keepingCapacity: true)
        guard let stream else {
            output.append(contentsOf: UnsafeBufferPointer(start: input, count: frames * channels))
            return
        }
        if frames > 0 { sonicWriteFloatToStream(stream, UnsafeMutablePointer(mutating: input), Int32(frames)) }
        drain(stream, into: &output)
        // Back at 1.0 with nothing buffered: pass through again.
        if speed == 1, sonicSamplesAvailable(stream) == 0 {
            sonicDestroyStream(stream)
            self.stream = nil
        }
    }

    /// At the end of the book: what is still inside.
    func flush(into output: inout [Float]) {
        output.removeAll(keepingCapacity: true)
        guard let stream else { return }
        sonicFlushStream(stream)
        drain(stream, into: &output)
    }

    /// Forgets what is buffered (after a seek).
    func reset() {
        guard let stream else { return }
        sonicDestroyStream(stream)
        self.stream = nil
        setSpeed(speed)
    }

    /// Reads everything the stream has ready straight onto the end of `output` (no chunk in between).
    private func drain(_ stream: sonicStream, into output: inout [Float]) {
        while true {
            let available = Int(sonicSamplesAvailable(stream))
            guard available > 0 else { return }
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: available * channels))
            let n = output.withUnsafeMutableBufferPointer { sonicReadFloatFromStream(stream, $0.baseAddress! + start, Int32(available)) }
            let got = max(0, Int(n))
            if got < available { output.removeLast((available - got) * channels) }
            if got == 0 { return }
        }
    }
}
