import Foundation

/// Speed without pitch change for speech, written here after libsonic's method (pitch-synchronous
/// overlap-add): the pitch period at the current point is found by the average magnitude difference
/// function (AMDF), coarsely on a signal averaged down to about 4 kHz and then exactly at full rate
/// around the coarse answer; for speed above 1 a period is cross-faded into the next one and dropped,
/// below 1 one is repeated. It works on floats as they come from the decoder (no conversion to 16
/// bits and back) and its AMDF runs on SIMD vectors, which makes it several times cheaper than the
/// libsonic build Debian ships while producing the same kind of output.
final class PitchSynchronousStretcher {
    let sampleRate: Int
    let channels: Int
    private(set) var speed: Double = 1
    private let minPeriod: Int
    private let maxPeriod: Int
    private let maxRequired: Int
    private let skip: Int
    /// Interleaved input not yet consumed: frames from `head` to the end.
    private var input: [Float] = []
    private var head = 0
    /// The input mixed to mono (same frames as `input`), for the pitch search when there are several channels.
    private var mono: [Float] = []
    private var down: [Float]
    private var remainingToCopy = 0
    private var previousPeriod = 0

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = max(1, sampleRate)
        self.channels = max(1, channels)
        minPeriod = max(2, self.sampleRate / 400)
        maxPeriod = max(minPeriod + 1, self.sampleRate / 65)
        maxRequired = 2 * maxPeriod
        skip = max(1, self.sampleRate / 4000)
        down = [Float](repeating: 0, count: maxRequired / skip + 1)
    }

    func setSpeed(_ value: Double) { speed = min(max(value, 0.25), 4) }

    /// Input frames buffered and not yet given out.
    var pendingInputFrames: Int { input.count / channels - head }

    /// Forgets everything buffered.
    func reset() {
        input.removeAll(keepingCapacity: true)
        mono.removeAll(keepingCapacity: true)
        head = 0
        remainingToCopy = 0
        previousPeriod = 0
    }

    /// Feeds `frames` frames and appends what is ready to `output`.
    func process(_ samples: UnsafePointer<Float>, frames: Int, into output: inout [Float]) {
        if frames > 0 {
            input.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * channels))
            if channels > 1 {
                for f in 0..<frames {
                    var s: Float = 0
                    for c in 0..<channels { s += samples[f * channels + c] }
                    mono.append(s / Float(channels))
                }
            }
        }
        run(into: &output)
    }

    /// At the end: what is still inside, at the speed asked (the last fraction of a period, shortened or
    /// lengthened by dropping or repeating its end).
    func flush(into output: inout [Float]) {
        run(into: &output)
        let left = pendingInputFrames
        let wanted = Int((Double(left) / speed).rounded())
        if wanted > 0 {
            input.withUnsafeBufferPointer { buf in
                let base = buf.baseAddress! + head * channels
                if wanted <= left {
                    output.append(contentsOf: UnsafeBufferPointer(start: base, count: wanted * channels))
                } else {
                    output.append(contentsOf: UnsafeBufferPointer(start: base, count: left * channels))
                    for i in 0..<(wanted - left) {
                        let f = left - 1 - (i % max(1, left))
                        output.append(contentsOf: UnsafeBufferPointer(start: base + f * channels, count: channels))
                    }
                }
            }
        }
        reset()
    }

    private func run(into output: inout [Float]) {
        let available = input.count / channels
        if abs(speed - 1) < 0.00001 {
            // At 1.0 nothing is stretched: what is buffered goes out as it is.
            input.withUnsafeBufferPointer { b in
                output.append(contentsOf: UnsafeBufferPointer(start: b.baseAddress! + head * channels, count: (available - head) * channels))
            }
            reset()
            return
        }
        guard available - head >= maxRequired else { return }
        var position = head
        if channels == 1 {
            input.withUnsafeBufferPointer { inBuf in step(inBuf, inBuf, &position, available, &output) }
        } else {
            input.withUnsafeBufferPointer { inBuf in mono.withUnsafeBufferPointer { m in step(inBuf, m, &position, available, &output) } }
        }
        head = position
        // Drop what was consumed once it is most of the buffer.
        if head > 0, head * 2 >= input.count / channels {
            input.removeFirst(head * channels)
            if channels > 1 { mono.removeFirst(head) }
            head = 0
        }
    }

    private func step(_ inBuf: UnsafeBufferPointer<Float>, _ signal: UnsafeBufferPointer<Float>, _ position: inout Int, _ available: Int,
                      _ output: inout [Float]) {
        while position + maxRequired <= available {
            if remainingToCopy > 0 {
                let n = min(remainingToCopy, maxRequired)
                output.append(contentsOf: UnsafeBufferPointer(start: inBuf.baseAddress! + position * channels, count: n * channels))
                remainingToCopy -= n
                position += n
                continue
            }
            let period = findPeriod(signal.baseAddress! + position)
            let from = inBuf.baseAddress! + position * channels
            if speed > 1 {
                let newFrames: Int
                if speed >= 2 {
                    newFrames = Int(Double(period) / (speed - 1))
                } else {
                    newFrames = period
                    remainingToCopy = Int(Double(period) * (2 - speed) / (speed - 1))
                }
                overlapAdd(newFrames, into: &output, down: from, up: from + period * channels)
                position += period + newFrames
            } else {
                let newFrames: Int
                if speed < 0.5 {
                    newFrames = Int(Double(period) * speed / (1 - speed))
                } else {
                    newFrames = period
                    remainingToCopy = Int(Double(period) * (2 * speed - 1) / (1 - speed))
                }
                output.append(contentsOf: UnsafeBufferPointer(start: from, count: period * channels))
                overlapAdd(newFrames, into: &output, down: from + period * channels, up: from)
                position += newFrames
            }
        }
    }

    /// A linear cross-fade of `frames` frames from `down` into `up`, appended to `output`.
    private func overlapAdd(_ frames: Int, into output: inout [Float], down: UnsafePointer<Float>, up: UnsafePointer<Float>) {
        guard frames > 0 else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: frames * channels))
        let scale = 1 / Float(frames)
        output.withUnsafeMutableBufferPointer { out in
            let o = out.baseAddress! + start
            for f in 0..<frames {
                let t = Float(f) * scale
                for c in 0..<channels {
                    let i = f * channels + c
                    o[i] = down[i] * (1 - t) + up[i] * t
                }
            }
        }
    }

    /// The pitch period at `samples` (mono, at least `maxRequired` frames).
    private func findPeriod(_ samples: UnsafePointer<Float>) -> Int {
        guard skip > 1 else { return Self.bestPeriod(samples, minPeriod, maxPeriod).period }
        let count = maxRequired / skip
        down.withUnsafeMutableBufferPointer { d in
            let scale = 1 / Float(skip)
            for j in 0..<count {
                var s: Float = 0
                let base = samples + j * skip
                for k in 0..<skip { s += base[k] }
                d[j] = s * scale
            }
        }
        let coarse = down.withUnsafeBufferPointer { d in
            Self.bestPeriod(d.baseAddress!, max(1, minPeriod / skip), min(maxPeriod / skip, count / 2)).period
        } * skip
        let lower = max(minPeriod, coarse - 2 * skip)
        let upper = min(maxPeriod, coarse + 2 * skip)
        let period = lower < upper ? Self.bestPeriod(samples, lower, upper).period : coarse
        previousPeriod = period
        return period
    }

    /// The period in `lower...upper` with the smallest mean absolute difference between the signal and
    /// itself shifted by that period (over one period).
    static func bestPeriod(_ s: UnsafePointer<Float>, _ lower: Int, _ upper: Int) -> (period: Int, diff: Float) {
        var best = lower
        var bestDiff = Float.greatestFiniteMagnitude
        var period = lower
        while period <= upper {
            let diff = amdf(s, period) / Float(period)
            if diff < bestDiff {
                bestDiff = diff
                best = period
            }
            period += 1
        }
        return (best, bestDiff)
    }

    /// Σ |s[i] − s[i + period]| for i in 0..<period, eight lanes at a time.
    @inline(__always)
    static func amdf(_ s: UnsafePointer<Float>, _ period: Int) -> Float {
        let raw = UnsafeRawPointer(s)
        var acc0 = SIMD8<Float>(repeating: 0)
        var acc1 = SIMD8<Float>(repeating: 0)
        var i = 0
        let stride = MemoryLayout<Float>.stride
        let magnitude = SIMD8<UInt32>(repeating: 0x7FFF_FFFF)
        while i + 16 <= period {
            let a0 = raw.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
            let b0 = raw.loadUnaligned(fromByteOffset: (i + period) * stride, as: SIMD8<Float>.self)
            let a1 = raw.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
            let b1 = raw.loadUnaligned(fromByteOffset: (i + 8 + period) * stride, as: SIMD8<Float>.self)
            // |d| by clearing the sign bit (pointwiseMax is a lane-by-lane loop).
            let d0 = unsafeBitCast(a0 - b0, to: SIMD8<UInt32>.self) & magnitude
            let d1 = unsafeBitCast(a1 - b1, to: SIMD8<UInt32>.self) & magnitude
            acc0 += unsafeBitCast(d0, to: SIMD8<Float>.self)
            acc1 += unsafeBitCast(d1, to: SIMD8<Float>.self)
            i += 16
        }
        var total = (acc0 + acc1).sum()
        while i < period {
            total += abs(s[i] - s[i + period])
            i += 1
        }
        return total
    }
}
