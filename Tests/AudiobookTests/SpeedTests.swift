import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Speed without pitch change: 1.5x gives 1/1.5 of the duration, the same fundamental frequency,
/// and a spectrogram close to FFmpeg's atempo filter on the same input.
final class SpeedTests: XCTestCase {
    func joinedWAV() throws -> URL {
        let (m4b, _) = try AudioFixtures.m4b()
        return m4b.deletingLastPathComponent().appendingPathComponent("joined.wav")
    }

    func stretched(_ url: URL, speed: Double) throws -> (samples: [Float], rate: Int, sourceFrames: Int64) {
        let e = try PlaybackEngine(book: TestHost.book(url))
        e.setSpeed(speed)
        let sink = NullSink(keep: true)
        try e.run(sink: sink)
        return (sink.samples, e.sampleRate, e.timeline.totalFrames)
    }

    func testOnePointFiveTimesKeepsPitchAndMatchesAtempo() throws {
        let wav = try joinedWAV()
        let (out, rate, frames) = try stretched(wav, speed: 1.5)
        // Duration: 1/1.5 within 2%.
        let expected = Double(frames) / 1.5
        XCTAssertEqual(
            Double(out.count), expected, accuracy: expected * 0.02,
            "1.5x lasts \(Double(out.count) / Double(rate)) s for \(Double(frames) / Double(rate)) s")
        // Pitch: the median fundamental of voiced frames stays within 5%.
        let original = try AudioFixtures.readWAV(wav)
        let f0In = Spectral.medianF0(original.samples, rate: rate)
        let f0Out = Spectral.medianF0(out, rate: rate)
        XCTAssertGreaterThan(f0In, 60)
        XCTAssertEqual(f0Out, f0In, accuracy: f0In * 0.05, "fundamental \(f0In) Hz became \(f0Out) Hz")
        // Spectrogram against ffmpeg -filter:a atempo=1.5 of the same input.
        let ref = AudioFixtures.directory.appendingPathComponent("atempo.wav")
        try AudioFixtures.run(
            "ffmpeg", ["-y", "-v", "error", "-i", wav.path, "-filter:a", "atempo=1.5", "-c:a", "pcm_f32le", ref.path])
        let reference = try AudioFixtures.readWAV(ref).samples
        let similarity = Spectral.spectrogramCorrelation(out, reference, rate: rate)
        // A control: the original at 1x against atempo is far less alike (timing differs).
        let control = Spectral.spectrogramCorrelation(original.samples, reference, rate: rate)
        print(
            "speed 1.5: duration ratio \(Double(out.count) / expected), f0 \(f0In) -> \(f0Out) Hz, spectrogram correlation with atempo \(similarity) (control at 1x: \(control))"
        )
        XCTAssertGreaterThan(similarity, 0.85, "log-band spectrogram correlation with atempo")
        XCTAssertGreaterThan(similarity, control + 0.1)
    }

    func testHalfAndTripleSpeedDurations() throws {
        let wav = try joinedWAV()
        for speed in [0.5, 3.0] {
            let (out, _, frames) = try stretched(wav, speed: speed)
            let expected = Double(frames) / speed
            XCTAssertEqual(Double(out.count), expected, accuracy: expected * 0.02, "speed \(speed)")
        }
    }
}

/// The measures the speed test uses, stated:
/// - F0: per 40 ms frame, the lag of the highest normalised autocorrelation between 60 and 400 Hz;
///   frames count as voiced when that peak exceeds 0.6 and the frame is not near-silent; the median wins.
/// - Spectrogram: 2048-sample Hann frames, hop 512, power summed into 32 log-spaced bands from 80 Hz
///   to 8 kHz, in dB (floor -100); both spectrograms cut to the shorter; Pearson correlation of all cells.
enum Spectral {
    static func medianF0(_ x: [Float], rate: Int) -> Double {
        let n = rate * 40 / 1000
        let minLag = rate / 400, maxLag = rate / 60
        var f0s: [Double] = []
        var start = 0
        while start + n + maxLag < x.count {
            let frame = Array(x[start..<(start + n + maxLag)])
            var energy: Float = 0
            for i in 0..<n { energy += frame[i] * frame[i] }
            if energy / Float(n) > 1e-4 {
                var best = 0.0, bestLag = 0
                for lag in minLag...maxLag {
                    var num: Float = 0, e2: Float = 0
                    for i in 0..<n { num += frame[i] * frame[i + lag]; e2 += frame[i + lag] * frame[i + lag] }
                    let r = Double(num) / (Double(energy * e2).squareRoot() + 1e-12)
                    if r > best { best = r; bestLag = lag }
                }
                if best > 0.6, bestLag > 0 { f0s.append(Double(rate) / Double(bestLag)) }
            }
            start += n
        }
        guard !f0s.isEmpty else { return 0 }
        f0s.sort()
        return f0s[f0s.count / 2]
    }

    static func spectrogram(_ x: [Float], rate: Int) -> [[Double]] {
        let size = 2048, hop = 512, bands = 32
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        let edges = (0...bands).map { 80 * pow(8000.0 / 80, Double($0) / Double(bands)) }
        var out: [[Double]] = []
        var start = 0
        while start + size <= x.count {
            var re = (0..<size).map { Double(x[start + $0]) * window[$0] }
            var im = [Double](repeating: 0, count: size)
            fft(&re, &im)
            var row = [Double](repeating: 0, count: bands)
            for k in 1..<(size / 2) {
                let f = Double(k) * Double(rate) / Double(size)
                guard f >= edges[0], f < edges[bands] else { continue }
                var b = 0
                while b < bands - 1, f >= edges[b + 1] { b += 1 }
                row[b] += re[k] * re[k] + im[k] * im[k]
            }
            out.append(row.map { max(-100, 10 * log10($0 + 1e-10)) })
            start += hop
        }
        return out
    }

    static func spectrogramCorrelation(_ a: [Float], _ b: [Float], rate: Int) -> Double {
        let sa = spectrogram(a, rate: rate), sb = spectrogram(b, rate: rate)
        let n = min(sa.count, sb.count)
        var xs: [Double] = [], ys: [Double] = []
        for i in 0..<n { xs += sa[i]; ys += sb[i] }
        let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in xs.indices { let dx = xs[i] - mx, dy = ys[i] - my; sxy += dx * dy; sxx += dx * dx; syy += dy * dy }
        return sxy / ((sxx * syy).squareRoot() + 1e-12)
    }

    /// In-place radix-2 FFT.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var len = 2
        while len <= n {
            let angle = -2 * Double.pi / Double(len)
            for i in stride(from: 0, to: n, by: len) {
                for k in 0..<(len / 2) {
                    let wr = cos(angle * Double(k)), wi = sin(angle * Double(k))
                    let ur = re[i + k], ui = im[i + k]
                    let vr = re[i + k + len / 2] * wr - im[i + k + len / 2] * wi
                    let vi = re[i + k + len / 2] * wi + im[i + k + len / 2] * wr
                    re[i + k] = ur + vr; im[i + k] = ui + vi
                    re[i + k + len / 2] = ur - vr; im[i + k + len / 2] = ui - vi
                }
            }
            len <<= 1
        }
    }
}
