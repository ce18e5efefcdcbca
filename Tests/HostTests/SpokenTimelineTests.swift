import Foundation
import Host
import TestSupport
import XCTest

/// A book read aloud is played as an audiobook whose tracks are spoken ahead of playback. Each track spoken whole
/// is measured on the session's timeline as it is finished, as a downloaded part is: the book's length and where
/// its chapters start are known before playback reaches them (the terminal's time left, the chapters list).
final class SpokenTimelineTests: XCTestCase {
    var home: URL!
    let book = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-spoken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }

    /// Fails before ReadAloud told the engine of each finished track (it was measured only once playback opened it
    /// whole, a workaround for the engine defect fixed in 8ae781b): nothing plays here, so the length stayed unknown.
    func testEachTrackSpokenWholeIsMeasuredBeforePlaybackReachesIt() throws {
        let shelf = Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path], environment: ["SHELF_HOME": home.path, "HOME": home.path])
        let session = try shelf.listen(book)
        XCTAssertEqual(try session.start(from: .saved), "from the start")
        var deadline = Date().addingTimeInterval(120)
        while let tracks = session.spokenTracks, !tracks.allSatisfy(\.complete), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let tracks = try XCTUnwrap(session.spokenTracks)
        XCTAssertTrue(tracks.allSatisfy(\.complete), "the whole book is spoken: \(tracks)")
        // The engine is told on the speaking thread, just after the track is marked whole.
        deadline = Date().addingTimeInterval(5)
        while session.duration == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let duration = try XCTUnwrap(session.duration, "the book's length is known once every track is spoken")
        XCTAssertEqual(duration, tracks.map(\.seconds).reduce(0, +), accuracy: 0.01)
        XCTAssertEqual(session.state.position, 0, "nothing played")
        // Each chapter starts where the tracks before its own end.
        for chapter in session.chapters {
            let before = tracks.filter { $0.index < chapter.track }.map(\.seconds).reduce(0, +)
            XCTAssertEqual(session.start(of: chapter), before, accuracy: 0.01, "chapter \(chapter.index + 1)")
        }
        XCTAssertEqual(Set(session.chapters.map(\.track)).count, 3, "the three chapters: \(session.chapters)")
    }
}
