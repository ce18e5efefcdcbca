import Foundation
import TestSupport
import XCTest

/// A remote track that cannot be had: `shelf play URL` says so and goes on with the next track, as for a missing
/// local track. Failed before: playback waited for ever ("waiting for Track 2 to download") once the part had
/// failed, and `shelf downloads` already said "failed".
final class FailedPartTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    /// A loopback library serving the three-track book; `answer(i, n)` answers the n-th request (1 is the first) for
    /// track i, nil serving the track.
    func server(_ answer: @escaping @Sendable (Int, Int) -> LoopbackHTTPServer.Response?) throws -> LoopbackHTTPServer {
        let dir = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        var order: [[String: Any]] = []
        for i in 1...3 {
            let seconds = try AudioFixtures.duration(of: AudioFixtures.speechWAV(i - 1))
            order.append(["href": "/track\(i).mp3", "type": "audio/mpeg", "title": "Track \(i)", "duration": seconds])
            let data = try Data(contentsOf: dir.appendingPathComponent("track\(i).mp3"))
            let count = Counter()
            server.route("GET", "/track\(i).mp3") { request in
                answer(i, count.next())
                    ?? LoopbackHTTPServer.Response.content(data, for: request, contentType: "audio/mpeg")
            }
        }
        let body = try JSONSerialization.data(withJSONObject: [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Openings on the Wire"], "readingOrder": order
        ])
        server.route("GET", "/book/manifest.json") { _ in .data(body, contentType: "application/audiobook+json") }
        return server
    }

    func testATrackThatIsNotThereIsSaidAndPassedOver() throws {
        let server = try server { i, _ in i == 2 ? .status(404) : nil }
        defer { server.stop() }
        let r = try process.run(["play", server.url("/book/manifest.json").absoluteString, "--null"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Track 2"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot be downloaded"), r.stderr)
        XCTAssertTrue(r.stderr.contains("404"), r.stderr)
        XCTAssertTrue(r.stderr.contains("going on with the next track"), r.stderr)
        XCTAssertEqual(server.requests(to: "/track3.mp3").count, 1, "the next track played")
    }

    func testTheFirstTrackNotThereStartsWithTheSecond() throws {
        let server = try server { i, _ in i == 1 ? .status(404) : nil }
        defer { server.stop() }
        let r = try process.run(["play", server.url("/book/manifest.json").absoluteString, "--null"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Track 1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot be downloaded"), r.stderr)
    }

    /// A server that fails for a moment (503, as during maintenance) is asked again after a wait, as every download
    /// is, and the track plays with nothing said.
    func testAPassingFailureIsRetriedWithBackOff() throws {
        let server = try server { i, n in i == 2 && n <= 2 ? .status(503) : nil }
        defer { server.stop() }
        let r = try process.run(["play", server.url("/book/manifest.json").absoluteString, "--null"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("cannot"), r.stderr)
        XCTAssertEqual(server.requests(to: "/track2.mp3").count, 3)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func next() -> Int {
        lock.withLock {
            n += 1; return n
        }
    }
}
