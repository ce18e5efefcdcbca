import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// A remote audiobook whose manifest gives no `duration` for its parts (found by trying it: the book had the length
/// of its first part, played that part and said it had reached the end; the time left, the chapter starts and the
/// progress were those of a book that short). Each part's length is learnt from its audio as it arrives, and until
/// then shelf says the length is not known, never 0 as if it were.
final class UnknownLengthTests: XCTestCase {
    /// The fixture's tracks' lengths in seconds.
    func trackSeconds() throws -> [Double] {
        try (0..<3).map { try AudioFixtures.duration(of: AudioFixtures.speechWAV($0)) }
    }

    /// A loopback server with the three-track book, no durations in its manifest; track i (1 to 3) answered with
    /// `fault(i)` when there is one.
    func server(_ fault: @escaping @Sendable (Int) -> LoopbackHTTPServer.Fault?) throws -> LoopbackHTTPServer {
        let dir = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        var order: [[String: Any]] = []
        for i in 1...3 {
            order.append(["href": "/track\(i).mp3", "type": "audio/mpeg", "title": "Track \(i)"])
            let data = try Data(contentsOf: dir.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/track\(i).mp3") { request in
                let answer = LoopbackHTTPServer.Response.content(data, for: request, contentType: "audio/mpeg")
                return fault(i).map { answer.with(fault: $0) } ?? answer
            }
        }
        let body = try JSONSerialization.data(withJSONObject: [
            "metadata": [
                "@type": "http://schema.org/Audiobook", "title": "Lengths Untold", "identifier": "urn:test:untold"
            ],
            "readingOrder": order
        ])
        // Two addresses for it: the cache keeps a book's parts by its address.
        for path in ["/book/manifest.json", "/again/manifest.json"] {
            server.route("GET", path) { _ in .data(body, contentType: "application/audiobook+json") }
        }
        return server
    }

    /// On the timeline a part whose length is unknown is where the frame after the known ones plays (it was
    /// skipped, as a part of no length), until it is measured.
    func testAPartOfUnknownLengthIsWherePlaybackGoesNext() {
        var timeline = Timeline(
            sampleRate: 10, lengths: [50, 0, 0, 30], exact: [true, false, false, true],
            known: [true, false, false, true])
        XCTAssertFalse(timeline.isLengthKnown)
        XCTAssertEqual(timeline.unknownTracks, 2)
        XCTAssertEqual(timeline.locate(50).track, 1)
        XCTAssertEqual(timeline.locate(49).track, 0)
        timeline.setLength(20, ofTrack: 1)
        XCTAssertEqual(timeline.locate(60).track, 1)
        XCTAssertEqual(timeline.locate(60).offset, 10)
        XCTAssertEqual(timeline.locate(70).track, 2, "the next part of unknown length")
        timeline.setLength(0, ofTrack: 2)
        XCTAssertEqual(timeline.locate(70).track, 3, "a part measured empty is passed over")
        XCTAssertTrue(timeline.isLengthKnown)
        XCTAssertEqual(timeline.duration, 10)
    }

    /// Parts 2 and 3 arrive after the first has started playing: every one plays, and the end of the book is the
    /// end of the third, with the length they make together.
    func testEveryPartPlaysAndTheEndIsTheWholeBooks() throws {
        let server = try server { $0 == 1 ? nil : .stallBody(after: 0, seconds: 1) }
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let total = try trackSeconds().reduce(0, +)
        let played = try process.run([
            "play", server.url("/book/manifest.json").absoluteString, "--from", "0", "--null", "--json"
        ])
        XCTAssertEqual(played.status, 0, played.stderr)
        let report = try XCTUnwrap(try played.json() as? [String: Any])
        XCTAssertEqual(report["stoppedBecause"] as? String, "the end of the book")
        let state = try XCTUnwrap(report["state"] as? [String: Any])
        XCTAssertEqual(state["position"] as? Double ?? 0, total, accuracy: 0.1, "the end of track 3: \(state)")
        XCTAssertEqual(state["duration"] as? Double ?? 0, total, accuracy: 0.1)
        XCTAssertEqual(state["listened"] as? Double ?? 0, total, accuracy: 0.1, "every track heard")
        XCTAssertEqual(state["track"] as? Int, 2)
    }

    /// While parts 2 and 3 are on their way the player says the length is not known (not the first part's length
    /// as the book's); each part is measured as it arrives, without playing it, and then the length, the chapter
    /// starts and the time left are the book's.
    func testTheLengthIsUnknownUntilThePartsArriveThenMeasured() throws {
        let server = try server { $0 == 1 ? nil : .stallBody(after: 0, seconds: 2) }
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let listen = try process.run(
            ["listen", server.url("/book/manifest.json").absoluteString, "--null"], stdin: Data("tq".utf8))
        XCTAssertEqual(listen.status, 0, listen.stderr)
        let said = listen.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            said.first,
            "“Lengths Untold”, 3 chapters, \(PlaybackState.lengthUnknown); from the start. "
                + "Paused: press space to play, h for help, q to quit.", listen.stdout)
        XCTAssertTrue(
            said.count > 1 && said[1].hasSuffix("0 seconds in the book; \(PlaybackState.lengthUnknown); normal speed."),
            listen.stdout)

        let t = try trackSeconds()
        let shelf = Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path],
            environment: ["SHELF_HOME": process.home.path, "HOME": process.home.path])
        // The other address: its parts download afresh, not from the cache `listen` filled.
        let session = try shelf.listen(server.url("/again/manifest.json").absoluteString)
        XCTAssertNil(session.duration, "not known while parts 2 and 3 are on their way")
        XCTAssertNil(session.state.duration)
        let deadline = Date().addingTimeInterval(30)
        while session.duration == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let duration = try XCTUnwrap(session.duration, "measured as the parts arrived")
        XCTAssertEqual(duration, t.reduce(0, +), accuracy: 0.06)
        XCTAssertEqual(session.start(of: session.chapters[2]), t[0] + t[1], accuracy: 0.06, "chapter 3 is track 3")
        XCTAssertEqual(session.state.chapterRemaining ?? 0, t[0], accuracy: 0.06)
        XCTAssertEqual(session.state.position, 0, "nothing played")
    }

    /// A part that is still downloading as it plays is not measured by what has been decoded of it so far: with
    /// parts 2 and 3 whole and measured, and half of part 1 played, the book's length is still unknown (it was said
    /// to be the half of part 1 decoded plus parts 2 and 3), and the place is in part 1, which plays on when the rest
    /// arrives (it was said to be the start of part 2, "Track 2", while shelf waited for part 1).
    func testAPartPlayingAsItDownloadsLeavesTheLengthUnknown() throws {
        let track1 = try Data(
            contentsOf: try AudioFixtures.mp3Book().deletingLastPathComponent().appendingPathComponent("track1.mp3"))
        let server = try server { $0 == 1 ? .stallBody(after: track1.count / 2, seconds: 60) : nil }
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let shelf = Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path],
            environment: ["SHELF_HOME": process.home.path, "HOME": process.home.path])
        let session = try shelf.listen(server.url("/book/manifest.json").absoluteString)
        _ = try session.start(from: .time(0))
        let t = try trackSeconds()
        let stopped = expectation(description: "the session stops")
        DispatchQueue.global().async {
            _ = try? session.run(to: .nothing())
            stopped.fulfill()
        }
        // As fast as the output takes it: the first half of part 1, then it waits for the rest.
        let deadline = Date().addingTimeInterval(20)
        while session.state.position < t[0] / 4, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.5)
        let state = session.state
        session.quit()
        wait(for: [stopped], timeout: 20)
        XCTAssertGreaterThan(state.position, t[0] / 4, "part 1 played as it downloaded: \(state)")
        XCTAssertLessThan(state.position, t[0], "part 1 is not whole yet: \(state)")
        XCTAssertNil(state.duration, "part 1 is still downloading: \(state)")
        XCTAssertNil(session.duration)
        XCTAssertEqual(state.track, 0, "still in part 1, waiting for the rest of it: \(state)")
        XCTAssertEqual(state.chapterTitle, "Track 1")
        XCTAssertNil(state.chapterRemaining, "part 1's end is not known yet")
    }
}
