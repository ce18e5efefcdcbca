import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Resuming after a pause within one listening (`shelf listen`'s space key, the session's `play`) does what
/// resuming in a new `shelf play` does: after a stop of more than 5 seconds, the two seconds before the stop again,
/// rising from silence, while the place stays where it stopped; after a shorter one, on from where it stopped. A
/// move made while paused is the place chosen, and plays from there as it is.
final class PauseResumeTests: XCTestCase {
    let clock = TestClock()
    func engine() throws -> PlaybackEngine {
        var options = PlaybackEngine.Options()
        options.now = { [clock] in clock.now }
        return try PlaybackEngine(book: TestHost.book(ListenerTimeTests.tone()), options: options)
    }

    /// Plays into nothing until `seconds` of sound went out, then calls `then` (a pause, for instance) from the
    /// playing thread, as a key pressed while it plays would; `run` returns when playback stops.
    func play(_ engine: PlaybackEngine, seconds: Double, then: @escaping () -> Void) throws -> [Float] {
        let sink = CallingSink(after: Int(seconds * Double(engine.sampleRate)) * engine.channels, then: then)
        try engine.run(sink: sink)
        return sink.samples
    }

    func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot()
    }

    func testPlayAfterALongPauseReplaysTwoSecondsAndFadesIn() throws {
        let e = try engine()
        e.seek(to: 8)
        _ = try play(e, seconds: 3) { e.pause() }
        let paused = e.state.position
        XCTAssertGreaterThan(paused, 10.9)
        XCTAssertFalse(e.state.playing)
        clock.wait(6)
        e.play()
        XCTAssertEqual(e.state.position, paused, accuracy: 0.001, "the place is still where it stopped")
        let heard = try play(e, seconds: 1) { e.pause() }
        let rate = e.sampleRate * e.channels
        let steady = rms(heard[(rate * 3 / 5)..<rate])
        XCTAssertGreaterThan(steady, 0.01, "the tone itself")
        XCTAssertLessThan(rms(heard[0..<(rate / 100)]), steady * 0.05, "the first 10 ms are almost silent")
        XCTAssertLessThan(rms(heard[(rate / 5)..<(rate / 5 + rate / 100)]), steady * 0.9, "still rising at 0.2 s")
        XCTAssertEqual(
            e.state.position, paused, accuracy: 0.001, "one second of the two replayed: the place has not moved")
        e.play()
        _ = try play(e, seconds: 1.5) { e.pause() }
        // Steps of 32768 frames on a sink that is not a device: at least 2.5 s played since the replay began.
        XCTAssertGreaterThan(e.state.position, paused + 0.4, "past the stop, the place moves on")
    }

    /// Failed before: each quick pause and play walked the place back two seconds (11, 9, 7 ...), and so did a
    /// play that was quit before it played anything.
    func testQuickPausesNeverWalkThePlaceBack() throws {
        let e = try engine()
        e.seek(to: 8)
        _ = try play(e, seconds: 3) { e.pause() }
        let paused = e.state.position
        for _ in 0..<3 {
            clock.wait(1)
            e.play()
            XCTAssertEqual(e.state.position, paused, accuracy: 0.001)
            e.pause()
        }
        clock.wait(60)
        for _ in 0..<3 {
            e.play()
            e.pause()
            XCTAssertEqual(
                e.state.position, paused, accuracy: 0.001, "replayed seconds not yet heard are not the place")
        }
    }

    func testTheSleepTimersStopResumesTheSameWay() throws {
        let e = try engine()
        e.seek(to: 4)
        e.setSleep(.minutes(0.05))
        try e.run(sink: NullSink())
        let stopped = e.state.position
        XCTAssertEqual(stopped, 7, accuracy: 0.01)
        clock.wait(10)
        e.play()
        let heard = try play(e, seconds: 1) { e.quit() }
        XCTAssertLessThan(rms(heard[0..<(e.sampleRate * e.channels / 100)]), 0.01, "fading in again")
        XCTAssertEqual(e.state.position, stopped, accuracy: 0.001)
    }

    func testAMoveWhilePausedPlaysFromWhereItWent() throws {
        let e = try engine()
        e.seek(to: 8)
        _ = try play(e, seconds: 1) { e.pause() }
        e.seek(to: 5)
        clock.wait(10)
        e.play()
        XCTAssertEqual(e.state.position, 5, accuracy: 0.001, "nothing replayed before a place the listener chose")
        e.play()
        XCTAssertEqual(e.state.position, 5, accuracy: 0.001, "play while playing changes nothing")
    }
}

/// A clock the tests move on instead of waiting.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { date } }
    func wait(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
}

/// Keeps what it is given and calls `then` once `after` samples have arrived.
private final class CallingSink: AudioSink {
    private(set) var samples: [Float] = []
    private let after: Int
    private var then: (() -> Void)?
    init(after: Int, then: @escaping () -> Void) {
        self.after = after
        self.then = then
    }
    var isPaced: Bool { false }
    var name: String { "test" }
    func start(sampleRate: Int, channels: Int) throws {}
    func write(_ samples: UnsafeBufferPointer<Float>) throws {
        self.samples += samples
        if self.samples.count >= after, let call = then {
            then = nil
            call()
        }
    }
    func finish() throws {}
}
