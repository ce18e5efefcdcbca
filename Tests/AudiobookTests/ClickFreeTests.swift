import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Skips and pauses never cut the waveform: at every discontinuity the sound fades out over a few milliseconds and
/// what plays next fades in. Failed before: a skip made a step of up to the tone's whole swing between two samples,
/// and a pause ended the sound mid-swing.
final class ClickFreeTests: XCTestCase {
    /// A 220 Hz tone at half scale changes by at most 0.5 · 2π · 220 / 44100 ≈ 0.016 between two samples.
    let smooth: Float = 0.02

    func largestStep(_ x: [Float], channels: Int) -> (step: Float, at: Int) {
        var best: (Float, Int) = (0, 0)
        var i = channels
        while i < x.count {
            let step = abs(x[i] - x[i - channels])
            if step > best.0 { best = (step, i / channels) }
            i += channels
        }
        return best
    }

    func testSkipsFadeInsteadOfCutting() throws {
        let e = try PlaybackEngine(book: TestHost.book(ListenerTimeTests.tone()))
        e.seek(to: 2)
        var skips = 0
        let sink = EverySink(every: e.sampleRate / 2 * e.channels) {
            skips += 1
            // A skip of a non-whole number of the tone's periods: the phase jumps.
            if skips <= 4 { e.skip(by: skips % 2 == 0 ? -1.3337 : 2.7071) } else { e.quit() }
        }
        try e.run(sink: sink)
        XCTAssertGreaterThan(sink.samples.count, e.sampleRate * e.channels * 2)
        let (step, at) = largestStep(sink.samples, channels: e.channels)
        XCTAssertLessThan(step, smooth, "a step of \(step) at frame \(at)")
    }

    func testAPauseEndsInSilenceAndPlayRisesFromIt() throws {
        var options = PlaybackEngine.Options()
        options.stopWhenPaused = true
        let e = try PlaybackEngine(book: TestHost.book(ListenerTimeTests.tone()), options: options)
        e.seek(to: 3)
        let first = EverySink(every: e.sampleRate * e.channels / 3) { e.pause() }
        try e.run(sink: first)
        XCTAssertLessThan(abs(first.samples.last ?? 1), 0.01, "the sound ends at silence")
        XCTAssertLessThan(largestStep(first.samples, channels: e.channels).step, smooth)
        e.play()
        let second = EverySink(every: e.sampleRate * e.channels / 3) { e.pause() }
        try e.run(sink: second)
        XCTAssertLessThan(abs(second.samples.first ?? 1), 0.01, "the sound starts from silence")
        XCTAssertLessThan(largestStep(second.samples, channels: e.channels).step, smooth)
    }
}

/// Keeps what it is given and calls `then` each time another `every` samples have arrived.
private final class EverySink: AudioSink {
    private(set) var samples: [Float] = []
    private let every: Int
    private var next: Int
    private let then: () -> Void
    init(every: Int, then: @escaping () -> Void) {
        self.every = every
        next = every
        self.then = then
    }
    var isPaced: Bool { true }
    var name: String { "test" }
    func start(sampleRate: Int, channels: Int) throws {}
    func write(_ samples: UnsafeBufferPointer<Float>) throws {
        self.samples += samples
        while self.samples.count >= next {
            next += every
            then()
        }
    }
    func finish() throws {}
}
