import Foundation
import Host
import TestSupport
import XCTest

/// Ctrl-C stops a download at once, in `fetch` and in `play URL` waiting for its first part: the
/// part in flight stays as a `.part` file and the next run resumes it with a Range request.
final class InterruptTests: XCTestCase {
    final class Flag: @unchecked Sendable {
        private var value = true
        private let lock = NSLock()
        var slow: Bool {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// A loopback library serving the three-track book at 5 kB a second while `flag.slow`.
    func slowServer(_ flag: Flag) throws -> (LoopbackHTTPServer, URL) {
        let manifest = try AudioFixtures.mp3Book()
        let dir = manifest.deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        let order = (1...3).map { ["href": "/track\($0).mp3", "type": "audio/mpeg", "title": "Track \($0)"] }
        let body = try JSONSerialization.data(withJSONObject: [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Slow Openings"], "readingOrder": order
        ])
        server.route("GET", "/book/manifest.json") { _ in .data(body, contentType: "application/audiobook+json") }
        for i in 1...3 {
            let data = try Data(contentsOf: dir.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/track\(i).mp3") { request in
                let response = LoopbackHTTPServer.Response.content(data, for: request, contentType: "audio/mpeg")
                return flag.slow ? response.with(fault: .throttle(chunk: 1000, interval: 0.2)) : response
            }
        }
        return (server, dir)
    }

    /// Runs shelf with `arguments`, interrupts it (SIGINT) a second after the first part was asked
    /// for, and returns its exit status and output.
    func interrupted(_ process: ShelfProcess, _ arguments: [String], server: LoopbackHTTPServer) throws -> (Int32, Data)
    {
        let shelf = Process()
        shelf.executableURL = ShelfProcess.executable
        shelf.arguments = arguments
        shelf.environment = process.environment
        let out = Pipe()
        shelf.standardOutput = out
        shelf.standardError = FileHandle.nullDevice
        try shelf.run()
        let deadline = Date().addingTimeInterval(30)
        while server.requests(to: "/track1.mp3").isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 1)
        shelf.interrupt()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        shelf.waitUntilExit()
        return (shelf.terminationStatus, output)
    }

    func testCtrlCStopsFetchAndTheNextFetchResumes() throws {
        let flag = Flag()
        let (server, dir) = try slowServer(flag)
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let url = server.url("/book/manifest.json").absoluteString
        let (status, report) = try interrupted(process, ["fetch", url, "--parallel", "1", "--json"], server: server)
        XCTAssertEqual(status, 130, "an interrupted fetch says it was interrupted")
        let parts = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: report) as? [String: Any])?["parts"] as? [[String: Any]],
            String(decoding: report, as: UTF8.self))
        XCTAssertEqual(
            parts.map { $0["state"] as? String }, ["paused", "queued", "queued"], "the download stopped at once")
        let path = try XCTUnwrap(parts[0]["path"] as? String)
        let kept =
            (try? FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(kept, 0, "the partial part is kept for resuming")
        XCTAssertTrue(server.requests(to: "/track2.mp3").isEmpty, "no other part was started")

        flag.slow = false
        let again = try process.run(["fetch", url, "--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(server.requests(to: "/track1.mp3").compactMap { $0.header("Range") }, ["bytes=\(kept)-"])
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path)),
            try Data(contentsOf: dir.appendingPathComponent("track1.mp3")))
    }

    func testCtrlCStopsPlayWaitingForItsFirstPart() throws {
        let flag = Flag()
        let (server, _) = try slowServer(flag)
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let url = server.url("/book/manifest.json").absoluteString
        let (status, _) = try interrupted(process, ["play", url, "--null"], server: server)
        XCTAssertEqual(status, 130)
        // Stopped at once: part 1 is not whole, and what arrived is kept for the next run.
        let downloads = try XCTUnwrap(try process.run(["downloads", "--json"]).json() as? [[String: Any]])
        let parts = try XCTUnwrap(downloads.first?["parts"] as? [[String: Any]])
        XCTAssertNotEqual(parts.first?["state"] as? String, "complete")
        XCTAssertGreaterThan(parts.first?["bytes"] as? Int ?? 0, 0)
    }
}
