import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// What a listener hears and is told about time: the sleep timer fades the sound out instead of
/// cutting it mid-word, and the time left is listening time at the speed chosen.
final class ListenerTimeTests: XCTestCase {
    /// A steady 220 Hz tone (ffmpeg's sine source), so that loudness over time is easy to read.
    static func tone() throws -> URL {
        try AudioFixtures.require("ffmpeg")
        return try AudioFixtures.once("tone") {
            let url = AudioFixtures.directory.appendingPathComponent("tone.wav")
            try AudioFixtures.run(
                "ffmpeg",
                [
                    "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=220:duration=20:sample_rate=44100",
                    "-af", "volume=0.5", "-c:a", "pcm_s16le", url.path
                ])
            return url
        }
    }

    func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot()
    }

    func testTheSleepTimerFadesOut() throws {
        let engine = try PlaybackEngine(book: TestHost.book(Self.tone()))
        engine.setSleep(.minutes(0.15))  // 9 seconds
        let sink = NullSink(keep: true)
        try engine.run(sink: sink)
        let rate = engine.sampleRate
        let x = sink.samples
        XCTAssertEqual(x.count, 9 * rate)
        let steady = rms(x[rate..<(2 * rate)])
        XCTAssertEqual(rms(x[(3 * rate)..<(4 * rate)]), steady, accuracy: steady * 0.01, "full level until the fade")
        let middle = rms(x[(x.count - 3 * rate)..<(x.count - 2 * rate)])
        let last = rms(x[(x.count - rate / 4)...])
        XCTAssertLessThan(middle, steady * 0.9, "lower two seconds before the end")
        XCTAssertGreaterThan(middle, steady * 0.2)
        XCTAssertLessThan(last, steady * 0.05, "almost silent at the end")
    }

    func testTimeLeftIsListeningTimeAtTheSpeedChosen() throws {
        let engine = try PlaybackEngine(book: TestHost.book(AudioFixtures.mp3Book()))
        engine.setSpeed(2)
        let state = engine.state
        let remaining = try XCTUnwrap(state.chapterRemaining)
        XCTAssertGreaterThan(remaining, 6)
        let halved = PlaybackTime.words(remaining / 2)
        XCTAssertNotEqual(halved, PlaybackTime.words(remaining))
        XCTAssertTrue(state.sentence.contains("\(halved) left in the chapter"), state.sentence)
    }

    func testFromPastTheEndSaysSoAndListenTakesFromAndChapter() throws {
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let url = try AudioFixtures.mp3Book()
        let past = try process.run(["play", url.path, "--from", "9:00", "--null"])
        XCTAssertEqual(past.status, 64, past.stderr)
        XCTAssertTrue(past.stderr.contains("9:00 is past the end of the book, which lasts 0:"), past.stderr)
        let from = try process.run(["listen", url.path, "--from", "5", "--null"], stdin: Data("q".utf8))
        XCTAssertEqual(from.status, 0, from.stderr)
        XCTAssertTrue(from.stdout.contains("from 0:05"), from.stdout)
        let chapter = try process.run(["listen", url.path, "--chapter", "3", "--null"], stdin: Data("q".utf8))
        XCTAssertEqual(chapter.status, 0, chapter.stderr)
        XCTAssertTrue(chapter.stdout.contains("from chapter 3, Two, later"), chapter.stdout)
    }
}
