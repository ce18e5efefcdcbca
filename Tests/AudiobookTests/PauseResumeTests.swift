import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Resuming after a pause within one listening (`shelf listen`'s space key, the session's `play`) does what
/// resuming in a new `shelf play` does: the two seconds before the stop again, rising from silence. A move made
/// while paused is the place chosen, and plays from there as it is.
final class PauseResumeTests: XCTestCase {
    func engine() throws -> PlaybackEngine { try PlaybackEngine(book: TestHost.book(ListenerTimeTests.tone())) }

    /// Plays into nothing until `seconds` of sound went out, then calls `then` (a pause, for instance) from the
    /// playing thread, as a key pressed while it plays would; `run` returns when playback stops.
    func play(_ engine: PlaybackEngine, seconds: Double, then: @escaping () -> Void) throws -> [Float] {
        let sink = CallingSink(after: Int(seconds * Double(engine.sampleRate)) * engine.channels, then: then)
        try engine.run(sink: sink)
        return sink.samples
    }

    func rms(_ x: ArraySlice<Float>) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot() }

    func testPlayAfterAPauseReplaysTwoSecondsAndFadesIn() throws {
        let e = try engine()
        e.seek(to: 8)
        _ = try play(e, seconds: 3) { e.pause() }
        let paused = e.state.position
        XCTAssertGreaterThan(paused, 10.9)
        XCTAssertFalse(e.state.playing)
        e.play()
        XCTAssertEqual(e.state.position, paused - 2, accuracy: 0.001, "the two seconds before the pause again")
        let heard = try play(e, seconds: 1) { e.quit() }
        let rate = e.sampleRate * e.channels
        let steady = rms(heard[(rate * 3 / 5)..<rate])
        XCTAssertGreaterThan(steady, 0.01, "the tone itself")
        XCTAssertLessThan(rms(heard[0..<(rate / 100)]), steady * 0.05, "the first 10 ms are almost silent")
        XCTAssertLessThan(rms(heard[(rate / 5)..<(rate / 5 + rate / 100)]), steady * 0.9, "still rising at 0.2 s")
    }

    func testTheSleepTimersStopResumesTheSameWay() throws {
        let e = try engine()
        e.seek(to: 4)
        e.setSleep(.minutes(0.05))
        try e.run(sink: NullSink())
        let stopped = e.state.position
        XCTAssertEqual(stopped, 7, accuracy: 0.01)
        e.play()
        XCTAssertEqual(e.state.position, stopped - 2, accuracy: 0.001)
    }

    func testAMoveWhilePausedPlaysFromWhereItWent() throws {
        let e = try engine()
        e.seek(to: 8)
        _ = try play(e, seconds: 1) { e.pause() }
        e.seek(to: 5)
        e.play()
        XCTAssertEqual(e.state.position, 5, accuracy: 0.001, "nothing replayed before a place the listener chose")
        // Play, pause and play at once: two seconds back, once.
        e.pause()
        e.play()
        XCTAssertEqual(e.state.position, 3, accuracy: 0.001)
        e.play()
        XCTAssertEqual(e.state.position, 3, accuracy: 0.001, "play while playing changes nothing")
    }
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
