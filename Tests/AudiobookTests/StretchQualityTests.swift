import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Speech played faster or slower keeps its voicing at least as well as FFmpeg's atempo does, for
/// more than one voice: the periodicity measure of bench/audio/periodicity.py (issue 20), computed
/// here on the signal averaged down to about 11 kHz so that a debug build measures it quickly.
final class StretchQualityTests: XCTestCase {
    static let voices = ["en-us", "en-gb+f3"]

    func speech(_ voice: String) throws -> URL {
        try AudioFixtures.require("espeak-ng", "ffmpeg")
        return try AudioFixtures.once("voice-\(voice)") {
            let raw = AudioFixtures.directory.appendingPathComponent("voice-\(voice)-raw.wav")
            let wav = AudioFixtures.directory.appendingPathComponent("voice-\(voice).wav")
            try AudioFixtures.run("espeak-ng", ["-v", voice, "-s", "165", "-w", raw.path, AudioFixtures.sentences.prefix(2).joined(separator: " ")])
            try AudioFixtures.run("ffmpeg", ["-y", "-v", "error", "-i", raw.path, "-ar", "44100", "-ac", "1", "-c:a", "pcm_s16le", wav.path])
            return wav
        }
    }

    func testStretchedSpeechKeepsAtLeastAtemposPeriodicity() throws {
        for voice in Self.voices {
            let wav = try speech(voice)
            for speed in [0.5, 2.0, 3.0] {
                let engine = try PlaybackEngine(book: TestHost.book(wav))
                engine.setSpeed(speed)
                let sink = NullSink(keep: true)
                try engine.run(sink: sink)
                let reference = AudioFixtures.directory.appendingPathComponent("atempo-\(voice)-\(speed).wav")
                try AudioFixtures.run("ffmpeg", ["-y", "-v", "error", "-i", wav.path, "-filter:a", "atempo=\(speed)",
                                                 "-c:a", "pcm_s16le", reference.path])
                let theirs = try AudioFixtures.readWAV(reference)
                let ours = Periodicity.share(sink.samples, rate: engine.sampleRate)
                let atempo = Periodicity.share(theirs.samples, rate: theirs.rate)
                print("periodicity \(voice) at \(speed)x: shelf \(ours), atempo \(atempo)")
                XCTAssertGreaterThanOrEqual(ours, atempo, "\(voice) at \(speed)x")
            }
        }
    }
}

/// Mono, 30 ms frames every 10 ms; frames within 30 dB of the loudest are kept; the share of those
/// whose autocorrelation r(k) / r(0) peaks above 0.5 at a lag between 1/400 s and 1/60 s.
enum Periodicity {
    static func share(_ samples: [Float], rate: Int) -> Double {
        let factor = max(1, rate / 11025)
        let r = rate / factor
        let x: [Float] = stride(from: 0, to: samples.count - factor + 1, by: factor).map { i in
            var s: Float = 0
            for k in 0..<factor { s += samples[i + k] }
            return s / Float(factor)
        }
        let length = r * 30 / 1000, hop = r / 100
        let lags = (r / 400)...(r / 60)
        guard x.count > length else { return 0 }
        let starts = Array(stride(from: 0, through: x.count - length, by: hop))
        let energies: [Float] = x.withUnsafeBufferPointer { p in
            starts.map { s in (0..<length).reduce(Float(0)) { $0 + p[s + $1] * p[s + $1] } }
        }
        let loudest = energies.max() ?? 0
        guard loudest > 0 else { return 0 }
        let floor = loudest * 0.001 // 30 dB
        var kept = 0, periodic = 0
        x.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            for (n, s) in starts.enumerated() where energies[n] >= floor {
                kept += 1
                var peak: Float = -1
                let frame = p + s
                for k in lags {
                    var sum: Float = 0
                    var i = 0
                    while i < length - k { sum += frame[i] * frame[i + k]; i += 1 }
                    peak = max(peak, sum)
                }
                if peak / energies[n] > 0.5 { periodic += 1 }
            }
        }
        return kept == 0 ? 0 : Double(periodic) / Double(kept)
    }
}
