import Foundation
import TestSupport
import XCTest

/// A remote audiobook's server answering a web page where the manifest should be (maintenance, 200 text/html): the
/// book downloaded before still plays from the manifest kept, and a first fetch says what came back.
final class ManifestAnswerTests: XCTestCase {
    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var down = false
        var isDown: Bool {
            get { lock.withLock { down } }
            set { lock.withLock { down = newValue } }
        }
    }

    func testAMaintenancePageNeverReplacesTheManifestKept() throws {
        let tracks = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let maintenance = Switch()
        server.route("GET", "/m/manifest.json") { _ in
            if maintenance.isDown {
                return .text("<html><body>Down for maintenance</body></html>", contentType: "text/html; charset=utf-8")
            }
            let order = (1...3).map { ["href": "track\($0).mp3", "type": "audio/mpeg", "title": "Track \($0)"] }
            let body = try! JSONSerialization.data(
                withJSONObject: [
                    "metadata": ["@type": "http://schema.org/Audiobook", "title": "Kept Through Maintenance"],
                    "readingOrder": order
                ] as [String: Any])
            return .data(body, contentType: "application/audiobook+json")
        }
        for i in 1...3 {
            let data = try Data(contentsOf: tracks.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/m/track\(i).mp3") { request in .content(data, for: request, contentType: "audio/mpeg")
            }
        }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let url = server.url("/m/manifest.json").absoluteString
        let fetched = try process.run(["fetch", url])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)

        maintenance.isDown = true
        let played = try process.run(["play", url, "--null"])
        XCTAssertEqual(played.status, 0, "the parts downloaded play from the manifest kept: \(played.stderr)")
        XCTAssertTrue(played.stdout.contains("Kept Through Maintenance"), played.stdout)

        let fresh = try ShelfProcess()
        defer { fresh.cleanUp() }
        let first = try fresh.run(["play", url, "--null"])
        XCTAssertEqual(first.status, 75, first.stderr)
        XCTAssertTrue(
            first.stderr.contains("the server answered something that is not an audiobook manifest (text/html"),
            first.stderr)
        XCTAssertFalse(first.stderr.contains("no installed plugin"), first.stderr)
    }
}
