import Foundation

/// Speed without pitch change by waveform-similarity overlap-add (WSOLA, Verhelst and Roelands 1993):
/// fragments of the input, taken `hop × speed` apart, are overlap-added `hop` apart in the output; each
/// fragment is moved (within `search` frames) to where the input best continues the previous fragment, so
/// the periods of voiced speech line up instead of cancelling. How long the fragments are and how they
/// overlap depends on the speed (`FragmentLayout`). The search is coarse on the signal averaged down to
/// about 5.5 kHz, then exact at full rate around the coarse answer; both run on SIMD vectors.
final class WaveformSimilarityStretcher {
    let sampleRate: Int
    let channels: Int
    private(set) var speed: Double = 1

    private var layout = FragmentLayout(window: 0, hop: 0, search: 0, matched: 0, weights: [])
    private var window: Int { layout.window }
    private var hop: Int { layout.hop }
    private var search: Int { layout.search }
    private var matched: Int { layout.matched }
    /// The first fragment's gain: the weights summed over the fragments before it that do not exist, so
    /// that it plays at full level from its first frame.
    private var firstGain: [Float] = []
    private let decimation: Int

    /// Interleaved input from absolute frame `base` on, and its mix to mono for the search.
    private var input: [Float] = []
    private var mono: [Float] = []
    private var base = 0
    /// Frames fed since the last reset; `fed` also counts the silence padded on by `flush`.
    private var fed = 0
    private var real = 0
    /// Where the next fragment should start (absolute input frame; also the input that the output given
    /// out stands for), and where the last one started.
    private var nominal = 0.0
    private var previous: Int?
    /// The overlap-add in progress: `window` frames, what the fragments so far have added.
    private var accumulator: [Float] = []
    private var target: [Float] = []
    private var coarseTarget: [Float] = []
    private var coarseSignal: [Float] = []

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = max(1, sampleRate)
        self.channels = max(1, channels)
        decimation = max(1, self.sampleRate / 5512)
        configure(for: 1.5)
    }

    func setSpeed(_ value: Double) {
        let clamped = min(max(value, 0.25), 4)
        if FragmentLayout(speed: clamped, sampleRate: sampleRate) != layout {
            // A new layout starts the overlap-add afresh from where the output has got to.
            configure(for: clamped)
            previous = nil
        }
        speed = clamped
    }

    /// Input frames fed and not yet given out.
    var pendingInputFrames: Int { max(0, Int(pendingInput.rounded())) }
    private var pendingInput: Double { Double(real) - nominal }

    /// Forgets everything buffered.
    func reset() {
        input.removeAll(keepingCapacity: true)
        mono.removeAll(keepingCapacity: true)
        base = 0
        fed = 0
        real = 0
        nominal = 0
        previous = nil
        for i in accumulator.indices { accumulator[i] = 0 }
    }

    /// Feeds `frames` frames and appends what is ready to `output`.
    func process(_ samples: UnsafePointer<Float>, frames: Int, into output: inout [Float]) {
        append(samples, frames: frames)
        real = fed
        run(into: &output)
    }

    /// At the end: the rest, at the speed asked (the input padded with silence to finish the last fragments).
    func flush(into output: inout [Float]) {
        let silence = [Float](repeating: 0, count: (window + search) * channels)
        silence.withUnsafeBufferPointer { append($0.baseAddress!, frames: window + search) }
        let before = output.count
        while nominal < Double(real), step(into: &output) {}
        // The last step may stand for input past the end: trim what it gave beyond.
        let over = Int(((nominal - Double(real)) / speed).rounded())
        let extra = min(max(0, over), (output.count - before) / channels)
        output.removeLast(extra * channels)
        reset()
    }

    // MARK: Steps

    private func configure(for speed: Double) {
        layout = FragmentLayout(speed: speed, sampleRate: sampleRate)
        let w = layout.weights
        firstGain = (0..<window).map { f in stride(from: f, to: window, by: hop).reduce(Float(0)) { $0 + w[$1] } }
        accumulator = [Float](repeating: 0, count: window * channels)
        target = [Float](repeating: 0, count: matched)
        coarseTarget = [Float](repeating: 0, count: matched / decimation)
        coarseSignal = [Float](repeating: 0, count: (2 * search + matched) / decimation + 1)
    }

    private func append(_ samples: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        input.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * channels))
        if channels > 1 {
            let scale = 1 / Float(channels)
            for f in 0..<frames {
                var s: Float = 0
                for c in 0..<channels { s += samples[f * channels + c] }
                mono.append(s * scale)
            }
        }
        fed += frames
    }

    private func run(into output: inout [Float]) {
        while step(into: &output) {}
    }

    /// One fragment: placed, overlap-added, and `hop` frames given out. False when more input is needed.
    private func step(into output: inout [Float]) -> Bool {
        let start = Int(nominal)
        // The candidates, and what would have followed the last fragment, must all have arrived.
        guard start + search + window <= fed, (previous ?? 0) + hop + matched <= fed else { return false }
        var position = start
        if let previous {
            position = bestPosition(continuing: previous + hop, around: start)
        }
        addFragment(at: position, fadeIn: previous == nil)
        output.append(contentsOf: accumulator[0..<(hop * channels)])
        accumulator.withUnsafeMutableBufferPointer { a in
            let p = a.baseAddress!
            p.update(from: p + hop * channels, count: (window - hop) * channels)
            (p + (window - hop) * channels).update(repeating: 0, count: hop * channels)
        }
        nominal += Double(hop) * speed
        previous = position
        discard(before: min(position + hop, Int(nominal) - search))
        return true
    }

    /// Adds input[position ..< position + window] × the weights to the accumulator; the very first fragment
    /// after a reset starts at full level (no fade-in from silence at the start or after a seek).
    private func addFragment(at position: Int, fadeIn: Bool) {
        let offset = (position - base) * channels
        input.withUnsafeBufferPointer { i in
            accumulator.withUnsafeMutableBufferPointer { a in
                (fadeIn ? firstGain : layout.weights).withUnsafeBufferPointer { w in
                    let from = i.baseAddress! + offset
                    if channels == 1 {
                        for f in 0..<window { a[f] += from[f] * w[f] }
                    } else {
                        for f in 0..<window {
                            for c in 0..<channels { a[f * channels + c] += from[f * channels + c] * w[f] }
                        }
                    }
                }
            }
        }
    }

    private func discard(before frame: Int) {
        let drop = frame - base
        guard drop > 0, drop >= 4 * window || drop * 2 >= input.count / channels else { return }
        input.removeFirst(drop * channels)
        if channels > 1 { mono.removeFirst(drop) }
        base += drop
    }

    // MARK: Search

    /// The start in [around − search, around + search] whose first `matched` frames best match (normalised
    /// cross-correlation) those from `continuation`: what would have followed the last fragment.
    private func bestPosition(continuing continuation: Int, around: Int) -> Int {
        let lower = max(base, around - search)
        let upper = around + search
        guard upper > lower else { return lower }
        return (channels == 1 ? input : mono).withUnsafeBufferPointer { signal -> Int in
            let s = signal.baseAddress! - base
            let n = matched
            target.withUnsafeMutableBufferPointer { t in t.baseAddress!.update(from: s + continuation, count: n) }
            // Coarse: averages of `decimation` frames.
            let d = decimation
            let coarseLength = n / d
            let span = (upper - lower + n) / d
            var coarse = lower
            if d > 1, coarseLength >= 8 {
                coarseTarget.withUnsafeMutableBufferPointer { ct in
                    Self.average(s + continuation, into: ct.baseAddress!, count: coarseLength, by: d)
                }
                coarseSignal.withUnsafeMutableBufferPointer { cs in
                    Self.average(s + lower, into: cs.baseAddress!, count: min(span, cs.count), by: d)
                }
                let best = coarseTarget.withUnsafeBufferPointer { ct in
                    coarseSignal.withUnsafeBufferPointer { cs in
                        Self.bestLag(
                            ct.baseAddress!, coarseLength, in: cs.baseAddress!, lags: (upper - lower) / d + 1,
                            available: min(span, cs.count))
                    }
                }
                coarse = lower + best * d
            }
            // Exact, around the coarse answer.
            let from = max(lower, coarse - d)
            let to = min(upper, coarse + d)
            let best = target.withUnsafeBufferPointer { t in
                Self.bestLag(t.baseAddress!, n, in: s + from, lags: to - from + 1, available: to - from + n)
            }
            return from + best
        }
    }

    private static func average(_ s: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, count: Int, by d: Int)
    {
        let scale = 1 / Float(d)
        for j in 0..<count {
            var sum: Float = 0
            let p = s + j * d
            for k in 0..<d { sum += p[k] }
            out[j] = sum * scale
        }
    }

    /// The lag in 0..<lags maximising Σ t[i]·s[lag + i] / √(Σ s[lag + i]²) (i < n); s holds `available` values.
    private static func bestLag(
        _ t: UnsafePointer<Float>, _ n: Int, in s: UnsafePointer<Float>, lags: Int, available: Int
    ) -> Int {
        let count = min(lags, available - n + 1)
        guard count > 1 else { return 0 }
        var energy = 0.0
        for i in 0..<n { energy += Double(s[i] * s[i]) }
        var best = 0
        var bestScore = -Double.greatestFiniteMagnitude
        for lag in 0..<count {
            if lag > 0 {
                let out = Double(s[lag - 1]), into = Double(s[lag + n - 1])
                energy += into * into - out * out
            }
            let score = Double(dot(t, s + lag, n)) / (max(energy, 0) + 1e-9).squareRoot()
            if score > bestScore {
                bestScore = score
                best = lag
            }
        }
        return best
    }

    /// Σ a[i]·b[i], sixteen lanes at a time.
    @inline(__always)
    private static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        let stride = MemoryLayout<Float>.stride
        var acc0 = SIMD8<Float>(repeating: 0)
        var acc1 = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 16 <= n {
            acc0 +=
                ra.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
            acc1 +=
                ra.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
            i += 16
        }
        var total = (acc0 + acc1).sum()
        while i < n {
            total += a[i] * b[i]
            i += 1
        }
        return total
    }
}
