import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// A remote part that arrives whole while playback waits at the end of what had downloaded of it: playback goes on
/// inside that part. Failed before: `trackBecameAvailable` located the waiting place by the timeline alone, where the
/// end of a part whose estimated length playback had reached is the next part's start, so it put the place there and
/// the rest of the part was never heard (a book of two 4 s parts played 6 s).
final class ArrivalPlaceTests: XCTestCase {
    /// Whether part 1 is whole here; read by the engine's thread, set by the test's.
    final class Arrival: @unchecked Sendable {
        private let lock = NSLock()
        private var whole = false
        var isWhole: Bool {
            get { lock.withLock { whole } }
            set { lock.withLock { whole = newValue } }
        }
    }

    func tone(_ url: URL, hertz: Int) throws {
        try AudioFixtures.run(
            "ffmpeg",
            [
                "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(hertz):duration=4:sample_rate=44100",
                "-af", "volume=0.5", "-c:a", "pcm_s16le", url.path
            ])
    }

    func testAPartArrivingWhileWaitingAtItsEndPlaysOnInsideIt() throws {
        try AudioFixtures.require("ffmpeg")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arrival-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("made.wav")
        try tone(whole, hertz: 220)
        try tone(dir.appendingPathComponent("part2.wav"), hertz: 330)
        // Part 1 downloading: half of it here, and the manifest's estimate of its length (1 s) short of the truth.
        let bytes = try Data(contentsOf: whole)
        let growing = dir.appendingPathComponent("part1.wav.part")
        try bytes.prefix(44 + (bytes.count - 44) / 2).write(to: growing)
        let manifest: [String: Any] = [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Arrivals"],
            "readingOrder": [
                ["href": "part1.wav", "type": "audio/wav", "title": "Part 1", "duration": 1],
                ["href": "part2.wav", "type": "audio/wav", "title": "Part 2", "duration": 4]
            ]
        ]
        let url = dir.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)

        let arrival = Arrival()
        let engine = try PlaybackEngine(
            book: TestHost.book(url), isTrackAvailable: { $0 == 1 || arrival.isWhole },
            growingFile: { $0 == 0 && !arrival.isWhole ? growing.path : nil })
        nonisolated(unsafe) let sink = NullSink(keep: true)
        let done = expectation(description: "the book plays to its end")
        DispatchQueue.global().async {
            do { try engine.run(sink: sink) } catch { XCTFail("\(error)") }
            done.fulfill()
        }
        let deadline = Date().addingTimeInterval(20)
        while engine.state.waitingFor == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(engine.state.waitingFor, "Part 1", "played what had arrived of part 1, then waited")
        XCTAssertEqual(engine.state.position, 2, accuracy: 0.1)
        // The part arrives whole; the downloader's report measures it.
        try FileManager.default.moveItem(at: whole, to: dir.appendingPathComponent("part1.wav"))
        arrival.isWhole = true
        engine.trackBecameAvailable(0)
        XCTAssertEqual(engine.state.position, 2, accuracy: 0.1, "still where part 1 stopped: \(engine.state)")
        XCTAssertEqual(engine.state.track, 0)
        wait(for: [done], timeout: 30)
        XCTAssertEqual(
            Double(sink.samples.count) / Double(engine.sampleRate), 8, accuracy: 0.1, "both parts whole, once each")
    }
}
