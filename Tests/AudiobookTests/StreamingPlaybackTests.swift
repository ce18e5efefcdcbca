import Foundation
import Host
import TestSupport
import XCTest

/// A remote book plays from a part while it downloads: the first sound comes from the first bytes of track 1, not
/// after the whole of it, and what is heard is what the whole book would have sounded, sample for sample.
final class StreamingPlaybackTests: XCTestCase {
    /// Everything a process writes on stdout, read as it comes.
    final class Collected: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var bytes: Data { lock.withLock { data } }
    }

    /// A loopback library serving the three-track book, each track answered with `fault`. The manifest declares
    /// each track's duration short by up to a second, as manifests that give whole seconds do.
    func server(_ fault: @escaping (Int) -> LoopbackHTTPServer.Fault) throws -> LoopbackHTTPServer {
        let dir = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        var order: [[String: Any]] = []
        for i in 1...3 {
            let seconds = try AudioFixtures.duration(of: AudioFixtures.speechWAV(i - 1))
            order.append([
                "href": "/track\(i).mp3", "type": "audio/mpeg", "title": "Track \(i)",
                "duration": seconds.rounded(.down)
            ])
            let data = try Data(contentsOf: dir.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/track\(i).mp3") { request in
                LoopbackHTTPServer.Response.content(data, for: request, contentType: "audio/mpeg").with(fault: fault(i))
            }
        }
        let body = try JSONSerialization.data(withJSONObject: [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Openings on the Wire"], "readingOrder": order
        ])
        server.route("GET", "/book/manifest.json") { _ in .data(body, contentType: "application/audiobook+json") }
        return server
    }

    /// Starts `shelf play ARGS --raw`, collecting the PCM it writes.
    func startRawPlay(_ process: ShelfProcess, _ target: String) throws -> (Process, Collected) {
        let shelf = Process()
        shelf.executableURL = ShelfProcess.executable
        shelf.arguments = ["play", target, "--from", "0", "--raw"]
        shelf.environment = process.environment
        let out = Pipe()
        shelf.standardOutput = out
        shelf.standardError = FileHandle.nullDevice
        let collected = Collected()
        out.fileHandleForReading.readabilityHandler = { handle in
            let more = handle.availableData
            if !more.isEmpty { collected.append(more) }
        }
        try shelf.run()
        return (shelf, collected)
    }

    /// The local book's sound, as `shelf play --raw` writes it.
    func localSound(_ process: ShelfProcess) throws -> Data {
        let (shelf, collected) = try startRawPlay(process, try AudioFixtures.mp3Book().path)
        shelf.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.1)
        return collected.bytes
    }

    func testTheFirstSoundComesBeforeTheFirstPartIsWhole() throws {
        let track1 = try Data(
            contentsOf: try AudioFixtures.mp3Book().deletingLastPathComponent().appendingPathComponent("track1.mp3"))
        // Half of track 1 arrives at once; the rest only after a minute.
        let server = try server { i in
            i == 1 ? .stallBody(after: track1.count / 2, seconds: 60) : .stallBody(after: 0, seconds: 60)
        }
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let second = 44100 * 2  // a second of 16-bit mono
        let (shelf, collected) = try startRawPlay(process, server.url("/book/manifest.json").absoluteString)
        let deadline = Date().addingTimeInterval(20)
        while collected.bytes.count < second, shelf.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let heard = collected.bytes
        shelf.interrupt()
        shelf.waitUntilExit()
        XCTAssertGreaterThanOrEqual(heard.count, second, "a second of sound while track 1 is half downloaded")
        let local = try localSound(process)
        XCTAssertEqual(heard.prefix(second), local.prefix(second), "the same sound as the whole track's")
    }

    func testABookPlayedWhileItDownloadsSoundsAsTheWholeBook() throws {
        // About 100 kB a second: the player, faster than that into a pipe, keeps catching up with the download.
        let server = try server { _ in .throttle(chunk: 5000, interval: 0.05) }
        defer { server.stop() }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let (shelf, collected) = try startRawPlay(process, server.url("/book/manifest.json").absoluteString)
        shelf.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(shelf.terminationStatus, 0)
        let streamed = collected.bytes
        let local = try localSound(process)
        XCTAssertEqual(streamed.count, local.count, "every frame of every track, none cut at the manifest's durations")
        let differing = zip(streamed, local).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        XCTAssertNil(differing, "the streamed sound differs from byte \(differing ?? 0) of \(local.count)")
    }
}
