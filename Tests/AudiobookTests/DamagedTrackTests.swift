import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

extension AudioFixtures {
    /// A copy of the three-track MP3 book in a folder of its own, with `damage` applied to its tracks
    /// (file URLs by track number, 1-based) and the manifest's durations of the whole tracks.
    static func damagedBook(_ name: String, damage: ([Int: URL]) throws -> Void) throws -> URL {
        let source = try mp3Book().deletingLastPathComponent()
        let dir = directory.appendingPathComponent("damaged-\(name)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var order: [[String: Any]] = []
        var files: [Int: URL] = [:]
        for i in 1...3 {
            let file = dir.appendingPathComponent("track\(i).mp3")
            try FileManager.default.copyItem(at: source.appendingPathComponent("track\(i).mp3"), to: file)
            files[i] = file
            order.append([
                "href": "track\(i).mp3", "type": "audio/mpeg", "title": "Part \(i)",
                "duration": try duration(of: speechWAV(i - 1))
            ])
        }
        try damage(files)
        let json: [String: Any] = [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Damaged \(name)"],
            "readingOrder": order
        ]
        let url = dir.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        return url
    }

    static func truncate(_ url: URL, to share: Double) throws {
        let data = try Data(contentsOf: url)
        try data.prefix(Int(Double(data.count) * share)).write(to: url)
    }
}

/// Tracks cut short, missing, empty or not audio at all: the book says so, chapter times stay
/// those that play, and playback warns and goes on with the next track.
final class DamagedTrackTests: XCTestCase {
    func testACutShortTrackIsMeasuredNamedAndTheChaptersFollowIt() throws {
        let url = try AudioFixtures.damagedBook("cut") { try AudioFixtures.truncate($0[2]!, to: 0.5) }
        let book = try TestHost.book(url)
        let whole = try AudioFixtures.duration(of: AudioFixtures.speechWAV(1))
        // The manifest carries the length that plays, not the one the file and manifest declare.
        let declared = try XCTUnwrap(book.tracks[1].declaredDuration)
        XCTAssertLessThan(declared, whole * 0.6, "track 2's duration is what its data holds")
        let problems = TrackProblem.find(in: book.manifest)
        XCTAssertEqual(problems.map(\.track), [2])
        XCTAssertTrue(problems[0].problem.contains("cut short"), problems[0].problem)
        XCTAssertFalse(problems[0].missing)
        // Chapter 3 starts where the table of contents says: after what tracks 1 and 2 play.
        let engine = try PlaybackEngine(book: book)
        let tocStart = (book.tracks[0].declaredDuration ?? 0) + declared
        XCTAssertEqual(engine.timeline.seconds(engine.chapterStart(2)), tocStart, accuracy: 0.05)
        // Playing warns about track 2 and plays all three tracks' sound.
        var events: [PlaybackEvent] = []
        engine.onEvent = { events.append($0) }
        let sink = NullSink(keep: true)
        try engine.run(sink: sink)
        let warnings = events.compactMap {
            if case .trackProblem(let t, let m) = $0 { return (t, m) } else { return nil }
        }
        XCTAssertEqual(warnings.map(\.0), [1], "\(events)")
        XCTAssertTrue(warnings.first?.1.contains("track 2") ?? false)
        XCTAssertEqual(Double(sink.samples.count) / Double(engine.sampleRate), engine.timeline.duration, accuracy: 0.05)
    }

    func testMissingGarbageAndEmptyTracksAreSkippedWithAWarning() throws {
        var state: UInt64 = 20
        let noise = Data(
            (0..<100_000).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            })
        let url = try AudioFixtures.damagedBook("gone") { files in
            try noise.write(to: files[1]!)
            try FileManager.default.removeItem(at: files[2]!)
        }
        let book = try TestHost.book(url)
        let problems = TrackProblem.find(in: book.manifest)
        XCTAssertEqual(problems.map(\.track), [1, 2])
        XCTAssertEqual(problems.map(\.missing), [false, true])
        let engine = try PlaybackEngine(book: book)
        var events: [PlaybackEvent] = []
        engine.onEvent = { events.append($0) }
        let sink = NullSink(keep: true)
        XCTAssertNoThrow(try engine.run(sink: sink), "playback goes on past tracks it cannot play")
        let warned = events.compactMap { if case .trackProblem(let t, _) = $0 { return t } else { return nil } }
        XCTAssertEqual(warned, [0, 1])
        XCTAssertTrue(engine.state.ended)
        let third = try AudioFixtures.duration(of: AudioFixtures.speechWAV(2))
        XCTAssertEqual(
            Double(sink.samples.count) / Double(engine.sampleRate), third, accuracy: 0.1, "only track 3 had sound")
        // The chapters keep the times the book declares for the tracks that are not here.
        let declared = try (0..<2).map { try AudioFixtures.duration(of: AudioFixtures.speechWAV($0)) }.reduce(0, +)
        XCTAssertEqual(engine.timeline.seconds(engine.chapterStart(2)), declared, accuracy: 0.05)
    }

    func testAnEmptyAudioFileSaysItIsEmpty() throws {
        let empty = AudioFixtures.directory.appendingPathComponent("empty.mp3")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        XCTAssertThrowsError(try TestHost.book(empty)) { error in
            XCTAssertTrue("\(error)".contains("is empty"), "\(error)")
        }
    }
}

final class DamagedTrackCommandTests: XCTestCase {
    func testInfoNamesDamagedAndMissingTracksAndExitsNonZero() throws {
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let sound = try AudioFixtures.damagedBook("sound") { _ in }
        XCTAssertEqual(try process.run(["info", sound.path]).status, 0)
        let cut = try AudioFixtures.damagedBook("cut-info") { try AudioFixtures.truncate($0[2]!, to: 0.5) }
        let r = try process.run(["info", cut.path])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("track 2 (Part 2, track2.mp3) plays"), r.stderr)
        let json = try process.run(["info", cut.path, "--json"])
        let damaged = try XCTUnwrap((try json.json() as? [String: Any])?["damagedTracks"] as? [[String: Any]])
        XCTAssertEqual(damaged.map { $0["track"] as? Int }, [2])
        let gone = try AudioFixtures.damagedBook("gone-info") { try FileManager.default.removeItem(at: $0[3]!) }
        let missing = try process.run(["info", gone.path])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("track 3 (Part 3, track3.mp3) is missing"), missing.stderr)
        // Playing says so and goes on to the end.
        let play = try process.run(["play", gone.path, "--from", "0", "--null"])
        XCTAssertEqual(play.status, 0, play.stderr)
        XCTAssertTrue(play.stderr.contains("track 3 (Part 3, track3.mp3) cannot be played"), play.stderr)
        XCTAssertTrue(play.stdout.contains("Stopped by the end of the book"), play.stdout)
    }
}
