import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Audiobooks from a library (`shelf download ID` hands them to the part downloader), a refresh
/// through the loan's fulfil link, chapters still downloading, and background fetches.
final class DownloadTests: XCTestCase {
    final class Count: @unchecked Sendable {
        private var n = 0
        private let lock = NSLock()
        func next() -> Int { lock.lock(); defer { lock.unlock() }; n += 1; return n }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }

    @discardableResult
    func run(
        _ process: ShelfProcess, _ arguments: [String], stdin: String? = nil, expect status: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ShelfProcess.Result {
        let r = try process.run(arguments, stdin: stdin.map { Data($0.utf8) })
        XCTAssertEqual(
            r.status, status, "shelf \(arguments.joined(separator: " ")):\n\(r.stdout)\n\(r.stderr)", file: file,
            line: line)
        return r
    }

    func object(_ r: ShelfProcess.Result) throws -> [String: Any] {
        try XCTUnwrap(try r.json() as? [String: Any], r.stdout)
    }

    /// The bundled library on disk (a file:// account): the manifest and both tracks land in the
    /// downloads folder, `shelf downloads` lists them complete, and the book plays with the library gone.
    func testDownloadingASampleAudiobookFetchesEveryTrackAndPlaysOffline() throws {
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let copy = process.home.appendingPathComponent("library-copy")
        try FileManager.default.copyItem(
            at: ShelfProcess.packageRoot.appendingPathComponent("samples/library"), to: copy)
        try run(process, ["account", "add", "file://" + copy.path, "--name", "sample"])
        try run(process, ["browse", "--format", "audiobook"])
        let r = try object(run(process, ["download", "harbour-bells", "--json"]))
        XCTAssertEqual(r["mediaType"] as? String, "application/audiobook+json")
        XCTAssertEqual(r["supported"] as? Bool, true)
        let manifest = URL(fileURLWithPath: try XCTUnwrap(r["path"] as? String))
        let folder = manifest.deletingPathExtension()
        for (i, name) in ["harbour-bells-1.wav", "harbour-bells-2.wav"].enumerated() {
            let part = folder.appendingPathComponent(String(format: "part-%04d.wav", i + 1))
            XCTAssertEqual(
                try Data(contentsOf: part), try Data(contentsOf: copy.appendingPathComponent("audio/\(name)")), name)
        }
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path),
            "the manifest as the library sent it is kept")
        let downloads = try XCTUnwrap(try run(process, ["downloads", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(downloads.first?["title"] as? String, "Harbour Bells")
        XCTAssertEqual(
            (downloads.first?["parts"] as? [[String: Any]])?.map { $0["state"] as? String }, ["complete", "complete"])

        // Offline: the library is gone, the book plays from the downloads folder, TOC and all.
        try FileManager.default.removeItem(at: copy)
        let toc = try run(process, ["toc", manifest.path])
        XCTAssertTrue(toc.stdout.contains("The Last Boat"), toc.stdout)
        let out = process.home.appendingPathComponent("out.wav")
        let play = try object(run(process, ["play", manifest.path, "--out", out.path, "--json"]))
        let state = try XCTUnwrap(play["state"] as? [String: Any])
        XCTAssertEqual(state["ended"] as? Bool, true)
        XCTAssertEqual(state["duration"] as? Double ?? 0, 4.2, accuracy: 0.05)
        let wav = try AudioFixtures.readWAV(out)
        XCTAssertEqual(Double(wav.samples.count) / Double(wav.rate), 4.2, accuracy: 0.05)
        // By its catalog ID too.
        let byID = try object(run(process, ["play", "harbour-bells", "--from", "0", "--null", "--json"]))
        XCTAssertEqual((byID["state"] as? [String: Any])?["ended"] as? Bool, true)
        XCTAssertEqual(byID["title"] as? String, "Harbour Bells")
    }

    /// A borrowed audiobook whose signed track URLs have expired: the refresh goes through the
    /// loan's fulfil link (a new session and new signatures), since the manifest's own URL would
    /// only give the same stale links again.
    func testABorrowedAudiobookRefreshesThroughTheLoansFulfilLink() throws {
        let tracks = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let library = try FakeLibrary()
        defer { library.stop() }
        library.add(
            FakeLibrary.Book(
                id: "urn:fake:audio-free", title: "Sound of Rivers", author: "Cleo Hart", audiobook: true,
                copies: 2, available: 1, fulfilment: "bearer"))
        let fulfils = Count()
        // Each fulfilment opens a new session: a bearer-token document leading to that session's manifest.
        library.server.route("GET", "/works/audio-free/fulfill") { _ in
            let session = fulfils.next()
            return .text(
                #"{"token_type": "Bearer", "expires_in": 500, "access_token": "t\#(session)", "location": "\#(library.url("/sessions/\(session)/manifest.json"))"}"#,
                contentType: "application/vnd.librarysimplified.bearer-token+json")
        }
        for session in 1...4 {
            library.server.route("GET", "/sessions/\(session)/manifest.json") { _ in
                let order = (1...3).map {
                    ["href": "/signed/track\($0).mp3?sig=s\(session)", "type": "audio/mpeg", "title": "Track \($0)"]
                }
                let body = try! JSONSerialization.data(
                    withJSONObject: [
                        "metadata": ["@type": "http://schema.org/Audiobook", "title": "Sound of Rivers"],
                        "readingOrder": order,
                        "toc": [
                            ["href": "/signed/track1.mp3?sig=s\(session)#t=0", "title": "Source"],
                            ["href": "/signed/track3.mp3?sig=s\(session)#t=1", "title": "Estuary"]
                        ]
                    ] as [String: Any])
                return .data(body, contentType: "application/audiobook+json")
            }
        }
        for i in 1...3 {
            let data = try Data(contentsOf: tracks.appendingPathComponent("track\(i).mp3"))
            // Only the latest session's signatures are good: the first session has expired.
            library.server.route("GET", "/signed/track\(i).mp3") { request in
                guard request.query == "sig=s\(fulfils.value)", fulfils.value >= 2 else { return .status(403) }
                return .content(data, for: request, contentType: "audio/mpeg")
            }
        }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        try run(process, ["account", "add", library.root, "--name", "fake"])
        try run(process, ["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        try run(process, ["browse"])
        try run(process, ["borrow", "urn:fake:audio-free"])
        let r = try object(run(process, ["download", "audio-free", "--json"]))
        XCTAssertEqual(r["mediaType"] as? String, "application/audiobook+json")
        XCTAssertEqual(fulfils.value, 2, "the expired links were renewed through the fulfil link, once")
        XCTAssertTrue(
            library.server.requests(to: "/sessions/1/manifest.json").count == 1
                && library.server.requests(to: "/sessions/2/manifest.json").count == 1)
        let manifest = URL(fileURLWithPath: try XCTUnwrap(r["path"] as? String))
        for i in 1...3 {
            let part = manifest.deletingPathExtension().appendingPathComponent(String(format: "part-%04d.mp3", i))
            XCTAssertEqual(
                try Data(contentsOf: part), try Data(contentsOf: tracks.appendingPathComponent("track\(i).mp3")),
                "track \(i)")
        }
        // The rewritten manifest keeps the TOC's time fragments on the local files.
        let toc = try run(process, ["toc", manifest.path])
        XCTAssertTrue(toc.stdout.contains("Estuary"), toc.stdout)
        library.stop()
        let play = try object(run(process, ["play", manifest.path, "--null", "--json"]))
        XCTAssertEqual((play["state"] as? [String: Any])?["ended"] as? Bool, true)
    }

    /// A remote book whose second part is slow: `shelf listen` lists that chapter as still
    /// downloading and refuses to go to it.
    func testAChapterStillDownloadingIsShownAndCannotBeChosen() throws {
        let tracks = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/book/manifest.json") { _ in
            let order = (1...3).map {
                ["href": "/t/track\($0).mp3", "type": "audio/mpeg", "title": "Track \($0)", "duration": 2]
                    as [String: Any]
            }
            let body = try! JSONSerialization.data(
                withJSONObject: [
                    "metadata": ["@type": "http://schema.org/Audiobook", "title": "Slow Middle"], "readingOrder": order,
                    "toc": [
                        ["href": "/t/track1.mp3", "title": "First"], ["href": "/t/track2.mp3", "title": "Middle"],
                        ["href": "/t/track3.mp3", "title": "Last"]
                    ]
                ] as [String: Any])
            return .data(body, contentType: "application/audiobook+json")
        }
        for i in 1...3 {
            let data = try Data(contentsOf: tracks.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/t/track\(i).mp3") { request in
                if i == 2 { Thread.sleep(forTimeInterval: 8) }  // still downloading while the player is open
                return .content(data, for: request, contentType: "audio/mpeg")
            }
        }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let r = try run(
            process, ["listen", server.url("/book/manifest.json").absoluteString, "--null"], stdin: "cg2\nq")
        XCTAssertTrue(
            r.stdout.contains("2. Middle, at 0:0") && r.stdout.contains("(still downloading, cannot be chosen yet)"),
            r.stdout)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertFalse(lines.contains { $0.hasPrefix("1. First") && $0.contains("still downloading") }, r.stdout)
        XCTAssertTrue(r.stdout.contains("Chapter 2 is still downloading and cannot be chosen yet."), r.stdout)
        // From the command line too.
        let play = try process.run([
            "play", server.url("/book/manifest.json").absoluteString, "--chapter", "2", "--null"
        ])
        if play.status != 0 { XCTAssertTrue(play.stderr.contains("still downloading"), play.stderr) }
    }

    /// `shelf fetch --background` returns at once; the download goes on in a process of its own
    /// and `shelf downloads` ends up showing every part complete.
    func testBackgroundFetchFinishesWithEveryPartComplete() throws {
        let tracks = try AudioFixtures.mp3Book().deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/bg/manifest.json") { _ in
            let order = (1...3).map { ["href": "track\($0).mp3", "type": "audio/mpeg", "title": "Track \($0)"] }
            let body = try! JSONSerialization.data(
                withJSONObject: [
                    "metadata": ["@type": "http://schema.org/Audiobook", "title": "In The Background"],
                    "readingOrder": order
                ] as [String: Any])
            return .data(body, contentType: "application/audiobook+json")
        }
        for i in 1...3 {
            let data = try Data(contentsOf: tracks.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/bg/track\(i).mp3") { request in
                Thread.sleep(forTimeInterval: 0.5)  // slow enough that the command returns first
                return .content(data, for: request, contentType: "audio/mpeg")
            }
        }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let url = server.url("/bg/manifest.json").absoluteString
        let started = Date()
        let r = try object(run(process, ["fetch", url, "--background", "--json"]))
        XCTAssertNotNil(r["pid"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        var states: [String?] = []
        var items: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(60)
        repeat {
            Thread.sleep(forTimeInterval: 0.3)
            items = (try? process.run(["downloads", "--json"]).json() as? [[String: Any]]) ?? []
            states = (items.first?["parts"] as? [[String: Any]])?.map { $0["state"] as? String } ?? []
        } while (states != ["complete", "complete", "complete"] || items.first?["active"] as? Bool == true)
            && Date() < deadline
        XCTAssertEqual(states, ["complete", "complete", "complete"], "\(items)")
        XCTAssertEqual(items.first?["title"] as? String, "In The Background")
        for (i, p) in ((items.first?["parts"] as? [[String: Any]]) ?? []).enumerated() {
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: p["path"] as! String)),
                try Data(contentsOf: tracks.appendingPathComponent("track\(i + 1).mp3")))
        }
        let text = try run(process, ["downloads"]).stdout
        XCTAssertTrue(text.contains("In The Background: 3 of 3 parts complete"), text)
    }
}
