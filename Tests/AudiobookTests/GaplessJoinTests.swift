import Foundation
import TestSupport
import XCTest

/// Speech split mid-word into three tracks plays back as the unsplit speech: at each join the next track's first
/// sample follows the last one's within a few samples, with no silence between (encoder delay and padding removed:
/// LAME's header for MP3, the edit list and iTunes' `iTunSMPB` count for AAC in MP4).
final class GaplessJoinTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws {
        try AudioFixtures.require("espeak-ng", "ffmpeg", "lame")
        process = try ShelfProcess()
    }
    override func tearDown() { process?.cleanUp() }

    /// The unsplit speech (44.1 kHz mono) and two cuts, each in the loudest 10 ms near a third of it: inside a word.
    func source() throws -> (url: URL, samples: [Float], cuts: [Int]) {
        let raw = process.home.appendingPathComponent("raw.wav"),
            wav = process.home.appendingPathComponent("speech.wav")
        try AudioFixtures.run("espeak-ng", ["-s", "160", "-w", raw.path, AudioFixtures.sentences[1]])
        try AudioFixtures.run(
            "ffmpeg", ["-y", "-v", "error", "-i", raw.path, "-ar", "44100", "-ac", "1", "-c:a", "pcm_s16le", wav.path])
        let samples = try AudioFixtures.readWAV(wav).samples
        let cuts = [1, 2].map { k -> Int in
            let around = samples.count * k / 3
            return stride(from: around - 13_000, to: around + 13_000, by: 441).max { a, b in
                energy(samples[a..<a + 441]) < energy(samples[b..<b + 441])
            }! + 220
        }
        for cut in cuts {
            XCTAssertGreaterThan(energy(samples[(cut - 100)..<(cut + 100)]) / 200, 1e-3, "a cut inside a word")
        }
        return (wav, samples, cuts)
    }

    func energy(_ x: ArraySlice<Float>) -> Double { x.reduce(0.0) { $0 + Double($1 * $1) } }

    /// Splits the speech at `cuts`, encodes each part with `encode(wav, out, frames)` and plays the book into a WAV.
    func playSplit(_ ext: String, type: String, _ encode: (URL, URL, Int) throws -> Void) throws -> (
        source: [Float], played: [Float], cuts: [Int]
    ) {
        let (wav, samples, cuts) = try source()
        let bounds = [0] + cuts + [samples.count]
        let folder = process.home.appendingPathComponent(ext)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var order: [[String: Any]] = []
        for i in 0..<3 {
            let part = folder.appendingPathComponent("part\(i + 1).wav"),
                out = folder.appendingPathComponent("part\(i + 1).\(ext)")
            try AudioFixtures.run(
                "ffmpeg",
                [
                    "-y", "-v", "error", "-i", wav.path, "-af",
                    "atrim=start_sample=\(bounds[i]):end_sample=\(bounds[i + 1])",
                    "-c:a", "pcm_s16le", part.path
                ])
            try encode(part, out, bounds[i + 1] - bounds[i])
            order.append(["href": out.lastPathComponent, "type": type, "title": "Part \(i + 1)"])
        }
        let manifest = folder.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Split"], "readingOrder": order
        ])
        .write(to: manifest)
        let played = folder.appendingPathComponent("played.wav")
        let r = try process.run(["play", manifest.path, "--from", "0", "--out", played.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("cannot"), r.stderr)
        return (samples, try AudioFixtures.readWAV(played).samples, cuts)
    }

    /// How far the played sound is shifted from the source just before and just after `join` (the lag of best
    /// correlation over 30 ms), and the longest run of near silence around it where the source has none.
    func measure(_ source: [Float], _ played: [Float], at join: Int) -> (before: Int, after: Int, silence: Int) {
        func lag(_ from: Int) -> Int {
            let window = source[from..<(from + 1323)]
            var best = (score: -Double.infinity, lag: 0)
            for lag in -1000...1000 where from + lag >= 0 && from + lag + 1323 <= played.count {
                var dot = 0.0, norm = 0.0
                for k in 0..<1323 {
                    let p = Double(played[from + lag + k])
                    dot += p * Double(window[from + k]); norm += p * p
                }
                let score = dot / (norm.squareRoot() + 1e-9)
                if score > best.score { best = (score, lag) }
            }
            return best.lag
        }
        var run = 0, longest = 0
        for v in played[max(0, join - 600)..<min(played.count, join + 600)] {
            run = abs(v) < 1e-4 ? run + 1 : 0
            longest = max(longest, run)
        }
        return (lag(join - 1423), lag(join + 100), longest)
    }

    func assertGapless(_ result: (source: [Float], played: [Float], cuts: [Int]), within tolerance: Int, _ what: String)
    {
        XCTAssertEqual(
            Double(result.played.count), Double(result.source.count), accuracy: Double(2 * tolerance + 2),
            "\(what): the whole length")
        for join in result.cuts {
            let m = measure(result.source, result.played, at: join)
            XCTAssertLessThanOrEqual(abs(m.before), tolerance, "\(what): before the join at \(join)")
            XCTAssertLessThanOrEqual(abs(m.after), tolerance, "\(what): after the join at \(join)")
            XCTAssertLessThan(m.silence, 32, "\(what): silence at the join at \(join)")
        }
    }

    /// LAME writes its delay and padding in the Xing/LAME header; FFmpeg's skip samples remove both.
    func testMP3TracksJoinSampleForSample() throws {
        let result = try playSplit("mp3", type: "audio/mpeg") { wav, out, _ in
            try AudioFixtures.run("lame", ["--quiet", "-b", "128", wav.path, out.path])
        }
        assertGapless(result, within: 2, "MP3")
    }

    /// Failed before: each AAC track after the first began with about 450 samples of near silence (the decoder
    /// started past the priming frame the first sound overlaps). The edit list's length is in milliseconds, so a
    /// join may be off by up to 22 samples (half a millisecond) and no more.
    func testAACTracksJoinWithoutSilence() throws {
        let result = try playSplit("m4a", type: "audio/mp4") { wav, out, _ in
            try AudioFixtures.run(
                "ffmpeg", ["-y", "-v", "error", "-i", wav.path, "-c:a", "aac", "-b:a", "128k", out.path])
        }
        assertGapless(result, within: 24, "AAC")
    }

    /// With iTunes' gapless count (priming, padding, samples), as iTunes and Apple's encoders write it, the joins are
    /// exact. Failed before: the silence above, and the edit list's rounding at each join.
    func testAACTracksWithITunesGaplessInfoJoinSampleForSample() throws {
        let result = try playSplit("m4a", type: "audio/mp4") { wav, out, frames in
            let padding = (frames + 1024 + 1023) / 1024 * 1024 - 1024 - frames
            let tag = String(format: " 00000000 00000400 %08X %016llX 00000000 00000000", padding, UInt64(frames))
            try AudioFixtures.run(
                "ffmpeg",
                [
                    "-y", "-v", "error", "-i", wav.path, "-c:a", "aac", "-b:a", "128k",
                    "-movflags", "use_metadata_tags", "-metadata", "iTunSMPB=\(tag)", out.path
                ])
        }
        assertGapless(result, within: 2, "AAC with iTunSMPB")
    }
}
