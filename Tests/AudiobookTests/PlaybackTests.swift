import Foundation
import Host
import ShelfLibrary
import ShelfReader
import ShelfPlayback
import TestSupport
import XCTest

extension AudioFixtures {
    /// The three MP3 tracks four times over (about 100 seconds), for the sleep timer.
    static func longBook() throws -> URL {
        let manifest = try mp3Book()
        return try once("long") {
            let order = (0..<12).map {
                ["href": "track\($0 % 3 + 1).mp3", "type": "audio/mpeg", "title": "Part \($0 + 1)"]
            }
            let json: [String: Any] = [
                "metadata": ["@type": "http://schema.org/Audiobook", "title": "Long", "identifier": "urn:test:long"],
                "readingOrder": order
            ]
            let url = manifest.deletingLastPathComponent().appendingPathComponent("long.json")
            try JSONSerialization.data(withJSONObject: json).write(to: url)
            return url
        }
    }
}

final class PlaybackTests: XCTestCase {
    func engine(_ url: URL) throws -> PlaybackEngine {
        try PlaybackEngine(book: TestHost.book(url))
    }

    /// Plays from `from` seconds for `seconds` (to the end without) and returns the samples heard. The length is
    /// counted here, not by a sleep timer: a minutes timer fades the sound out, as a listener falling asleep wants.
    func render(_ engine: PlaybackEngine, from: Double? = nil, seconds: Double? = nil) throws -> [Float] {
        if let from { engine.seek(to: from) }
        let sink = NullSink(keep: true)
        guard let seconds else {
            try engine.run(sink: sink)
            return sink.samples
        }
        let wanted = Int((seconds * Double(engine.sampleRate)).rounded()) * engine.channels
        let bounded = BoundedSink(sink, samples: wanted) { engine.quit() }
        try engine.run(sink: bounded)
        return Array(sink.samples.prefix(wanted))
    }

    func testManifestBookDurationsAndChapters() throws {
        let url = try AudioFixtures.mp3Book()
        let book = try TestHost.book(url)
        XCTAssertEqual(book.manifest.title, "Three Openings")
        XCTAssertEqual(book.tracks.count, 3)
        let e = try PlaybackEngine(book: book)
        for i in 0..<3 {
            let wav = try AudioFixtures.duration(of: AudioFixtures.speechWAV(i))
            XCTAssertEqual(
                book.tracks[i].declaredDuration ?? 0, wav, accuracy: 0.06, "manifest duration of track \(i + 1)")
            XCTAssertEqual(
                e.timeline.seconds(e.timeline.lengths[i]), wav, accuracy: 0.03, "measured duration of track \(i + 1)")
            XCTAssertTrue(e.timeline.exact[i])
        }
        XCTAssertEqual(e.chapters.map(\.title), ["One", "Two", "Two, later", "Three"])
        let t1 = e.timeline.seconds(e.timeline.lengths[0])
        XCTAssertEqual(e.timeline.seconds(e.chapterStart(2)), t1 + 2.5, accuracy: 0.001)
        XCTAssertEqual(
            e.timeline.seconds(e.chapterStart(3)), t1 + e.timeline.seconds(e.timeline.lengths[1]), accuracy: 0.001)
        // The manifest's TOC points into tracks with #t=.
        XCTAssertEqual(book.manifest.toc?[1].children?.first?.href, "track2.mp3#t=2.5")
    }

    func testPackagedBookMatchesTheManifestBook() throws {
        let loose = try TestHost.book(AudioFixtures.mp3Book())
        let packed = try TestHost.book(AudioFixtures.packagedBook())
        XCTAssertEqual(packed.manifest.title, "Three Openings")
        XCTAssertEqual(packed.tracks.map(\.href), ["track1.mp3", "track2.mp3", "track3.mp3"])
        for i in 0..<3 {
            let a = try loose.openDecoder(track: i).readAll()
            let b = try packed.openDecoder(track: i).readAll()
            XCTAssertEqual(a.count, b.count)
            XCTAssertEqual(a, b, "track \(i + 1) decodes to the same samples from the zip")
        }
        XCTAssertEqual(packed.manifest.toc?.count, 3)
    }

    func testM4BChaptersAndDuration() throws {
        let (url, starts) = try AudioFixtures.m4b()
        let book = try TestHost.book(url)
        XCTAssertEqual(book.manifest.title, "Joined Openings")
        let e = try PlaybackEngine(book: book)
        XCTAssertEqual(e.chapters.map(\.title), ["Opening 1", "Opening 2", "Opening 3"])
        for (i, s) in starts.enumerated() {
            XCTAssertEqual(e.timeline.seconds(e.chapterStart(i)), s, accuracy: 0.002, "chapter \(i + 1) start")
            XCTAssertTrue(book.manifest.toc![i].href.contains("#t="))
        }
        let total = try (0..<3).map { try AudioFixtures.duration(of: AudioFixtures.speechWAV($0)) }.reduce(0, +)
        XCTAssertEqual(e.timeline.duration, total, accuracy: 0.03)
    }

    func testMP3WithID3Chapters() throws {
        let url = try AudioFixtures.chapteredMP3()
        let (_, starts) = try AudioFixtures.m4b()
        let e = try engine(url)
        XCTAssertEqual(e.chapters.map(\.title), ["Opening 1", "Opening 2", "Opening 3"])
        for (i, s) in starts.enumerated() {
            XCTAssertEqual(e.timeline.seconds(e.chapterStart(i)), s, accuracy: 0.002)
        }
    }

    func testSeekAndSkipCrossTracksBothWays() throws {
        let url = try AudioFixtures.mp3Book()
        let e = try engine(url)
        let rate = e.sampleRate
        let t1 = e.timeline.lengths[0]
        // Forward across the boundary.
        e.seek(toFrame: t1 - Int64(rate / 2))
        e.skip(by: 1)
        var s = e.state
        XCTAssertEqual(s.track, 1)
        XCTAssertEqual(s.position, e.timeline.seconds(t1) + 0.5, accuracy: 0.001)
        // And back.
        e.skip(by: -1)
        s = e.state
        XCTAssertEqual(s.track, 0)
        XCTAssertEqual(s.position, e.timeline.seconds(t1) - 0.5, accuracy: 0.001)
        // Playing across the boundary gives the end of track 1 then the start of track 2.
        let out = try render(e, seconds: 1)
        let book = e.book
        let a = try book.openDecoder(track: 0).readAll()
        let b = try book.openDecoder(track: 1).readAll(limit: rate / 2)
        let want = Array(a.suffix(rate / 2)) + b
        XCTAssertEqual(out.count, want.count)
        // After the seek's fade in (ClickGuard, 5 ms), sample for sample.
        let faded = rate / 200 * e.channels + e.channels
        let diff = zip(out.dropFirst(faded), want.dropFirst(faded)).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThan(diff, 1e-6)
        // Chapters: next from inside track 1 goes to track 2's start; previous from there goes back.
        e.seek(to: 1)
        e.nextChapter()
        XCTAssertEqual(e.state.chapter, 1)
        XCTAssertEqual(e.state.track, 1)
        e.seek(to: e.timeline.seconds(t1) + 0.5)
        e.previousChapter()
        XCTAssertEqual(e.state.chapter, 0)
        XCTAssertEqual(e.state.position, 0, accuracy: 0.001)
        // Seeks past either end clamp.
        e.seek(to: -5)
        XCTAssertEqual(e.state.position, 0)
        e.seek(to: 1e9)
        XCTAssertEqual(e.state.position, e.timeline.duration, accuracy: 0.001)
    }

    func testSpeedStepsAreClamped() {
        XCTAssertEqual(PlaybackEngine.clampSpeed(0.1), 0.5)
        XCTAssertEqual(PlaybackEngine.clampSpeed(9), 3.0)
        XCTAssertEqual(PlaybackEngine.clampSpeed(1.27), 1.25)
        XCTAssertEqual(PlaybackEngine.clampSpeed(1.33), 1.35)
    }

    func testOneMinuteSleepTimerStopsOutputAtOneMinute() throws {
        let e = try engine(AudioFixtures.longBook())
        XCTAssertGreaterThan(e.timeline.duration, 70)
        e.setSleep(.minutes(1))
        let sink = NullSink()
        var events: [PlaybackEvent] = []
        e.onEvent = { events.append($0) }
        try e.run(sink: sink)
        XCTAssertEqual(sink.framesWritten, Int64(60 * e.sampleRate), "exactly one minute of sound")
        XCTAssertTrue(events.contains(.sleepStopped))
        XCTAssertEqual(e.state.position, 60, accuracy: 0.01)
        XCTAssertFalse(e.state.playing)
        // At 1.5x a minute of listening is 90 seconds of the book.
        let f = try engine(AudioFixtures.longBook())
        f.setSpeed(1.5)
        f.setSleep(.minutes(1))
        let sink2 = NullSink()
        try f.run(sink: sink2)
        XCTAssertEqual(sink2.framesWritten, Int64(60 * f.sampleRate))
        XCTAssertEqual(f.state.position, 90, accuracy: 90 * 0.02)
    }

    func testSleepAtEndOfChapterStopsThere() throws {
        let e = try engine(AudioFixtures.mp3Book())
        e.seek(to: 1)
        e.setSleep(.endOfChapter)
        let sink = NullSink()
        try e.run(sink: sink)
        let end = e.timeline.lengths[0]
        XCTAssertEqual(sink.framesWritten, end - Int64(e.sampleRate))
        XCTAssertEqual(e.state.position, e.timeline.seconds(end), accuracy: 0.001)
        // Cancelling it lets playback go on.
        e.setSleep(.endOfChapter)
        e.setSleep(nil)
        let sink2 = NullSink()
        try e.run(sink: sink2)
        XCTAssertTrue(e.state.ended)
    }

    func testResumeStartsWhereTheLastPlayStopped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try LibraryDatabase(path: dir.appendingPathComponent("library.sqlite").path)
        let store = PlaybackPositionStore(database: db)
        let url = try AudioFixtures.longBook()
        let e = try engine(url)
        e.positionStore = store
        e.seek(to: 10)
        e.setSleep(.minutes(0.25))  // 15 seconds
        try e.run(sink: NullSink())
        XCTAssertEqual(e.state.position, 25, accuracy: 0.01)
        let f = try engine(url)
        let saved = try XCTUnwrap(store.restore(book: f.book, timeline: f.timeline))
        XCTAssertEqual(f.timeline.seconds(saved), 25, accuracy: 0.002)
        // Saved as a Locator on the track, with a #t= fragment.
        let row = try XCTUnwrap(db.position(bookID: "urn:test:long"))
        XCTAssertTrue(row.locator.contains("\"fragments\":[\"t="), row.locator)
    }

    func testVolumeScalesSamples() throws {
        let e = try engine(AudioFixtures.mp3Book())
        let a = try render(e, from: 1, seconds: 0.5)
        let f = try engine(AudioFixtures.mp3Book())
        f.setVolume(0.5)
        let b = try render(f, from: 1, seconds: 0.5)
        XCTAssertEqual(a.count, b.count)
        XCTAssertLessThan(zip(a, b).map { abs($0 * 0.5 - $1) }.max() ?? 1, 1e-6)
    }
}

/// Passes samples on until `samples` have been written, then asks the engine to stop.
private final class BoundedSink: AudioSink {
    let inner: NullSink
    let samples: Int
    let stop: () -> Void
    init(_ inner: NullSink, samples: Int, stop: @escaping () -> Void) {
        self.inner = inner
        self.samples = samples
        self.stop = stop
    }
    var isPaced: Bool { false }
    var name: String { inner.name }
    func start(sampleRate: Int, channels: Int) throws { try inner.start(sampleRate: sampleRate, channels: channels) }
    func write(_ samples: UnsafeBufferPointer<Float>) throws {
        try inner.write(samples)
        if inner.samples.count >= self.samples { stop() }
    }
    func finish() throws { try inner.finish() }
}
