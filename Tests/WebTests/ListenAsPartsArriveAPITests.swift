import Foundation
import TestSupport
import Web
import XCTest

/// Issue 33, item 2: Listen on a loaned audiobook downloads it with `listen`, which puts the book on the shelf once
/// its first part is whole; the player's routes then serve that part and say, through `GET /api/player/arrivals`,
/// how far the others are (the fake library sends them slowly), until every part is here.
final class ListenAsPartsArriveAPITests: LibraryWebTestCase {
    let title = "urn:fake:audio-free"
    var book: FakeAudiobook!

    override func makeLibrary() throws -> FakeLibrary {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw XCTSkip("needs ffmpeg to make the audiobook's parts (scripts/install-deps.sh installs it)")
        }
        let library = try FakeLibrary()
        // Three parts of 4 s (some 16 KB each); after the first, 1 KB every half second.
        book = try FakeAudiobook.make(title: "Sound of Rivers", count: 3, seconds: 4, chunk: 1024, interval: 0.5)
        library.serveAudiobook(book, for: title)
        return library
    }

    func waitUntil(_ seconds: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    /// Borrows the audiobook, presses Listen, and waits until the book is on the shelf; its arrivals' address.
    func listen() throws -> String {
        XCTAssertEqual(try post("/api/accounts", ["url": library.root, "name": "fake"]).status, 201)
        _ = try post("/api/accounts/fake/sign-in", ["barcode": library.username, "pin": library.password])
        _ = try get("/api/catalog?format=all")
        XCTAssertEqual(try post("/api/book/borrow", ["id": title]).json()["result"] as? String, "loaned")
        XCTAssertEqual(try post("/api/book/download", ["id": title, "listen": true]).status, 202)
        // The book is on the shelf once its first part is here, long before the others.
        let id = "catalog:fake:\(title)"
        XCTAssertTrue(try waitUntil(20) { try get("/api/shelf").text.contains(id) }, "the book never reached the shelf")
        return "/api/player/arrivals?book=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
    }

    func testListenPlaysTheFirstPartWhileTheOthersArrive() throws {
        let path = try listen()
        let first = try get(path)
        XCTAssertEqual(first.status, 200, first.text)
        let answer = try first.json()
        let tracks = try XCTUnwrap(answer["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.map { $0["state"] as? String }, ["here", "downloading", "downloading"], "\(answer)")
        XCTAssertEqual(tracks[1]["wait"] as? String, "Waiting for Part 2 to download.")
        let arriving = try XCTUnwrap(answer["arriving"] as? [String: Any], "\(answer)")
        XCTAssertEqual(arriving["here"] as? Int, 1)
        XCTAssertEqual(arriving["count"] as? Int, 3)
        let message = arriving["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("Parts here: 1 of 3; the rest is arriving: "), message)

        // Part 1 is served from its file; part 2, still on its way, is refused with the sentence.
        let one = try get(try XCTUnwrap(tracks[0]["url"] as? String))
        XCTAssertEqual(one.status, 200)
        XCTAssertEqual(one.body, book.parts[0])
        let two = try get(try XCTUnwrap(tracks[1]["url"] as? String))
        XCTAssertEqual(two.status, 409, two.text)
        XCTAssertTrue(two.text.contains("Part 2 is still downloading"), two.text)

        // Once every part has arrived, nothing is arriving and every part is served.
        XCTAssertTrue(try waitUntil(90) { try get(path).json()["arriving"] is NSNull }, "the parts never all arrived")
        let done = try XCTUnwrap(try get(path).json()["tracks"] as? [[String: Any]])
        XCTAssertEqual(done.map { $0["state"] as? String }, ["here", "here", "here"])
        XCTAssertEqual(try get(try XCTUnwrap(done[2]["url"] as? String)).body, book.parts[2])
    }

    /// A part the library will not send is said as such, and the rest is no longer "arriving" for ever.
    func testAPartThatCannotBeDownloadedIsSaidSoAndNothingWaitsForIt() throws {
        library.server.route("GET", "/audiobooks/audio-free/part-3.mp3", .status(404))
        let path = try listen()
        XCTAssertTrue(
            try waitUntil(60) { (try get(path).json()["arriving"] as? [String: Any])?["stopped"] as? Bool == true },
            "the download of the rest never said it stopped")
        let answer = try get(path).json()
        let tracks = try XCTUnwrap(answer["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.map { $0["state"] as? String }, ["here", "here", "unplayable"], "\(answer)")
        let why = tracks[2]["why"] as? String ?? ""
        XCTAssertTrue(why.hasPrefix("Part 3 cannot be played: it cannot be downloaded ("), why)
        let arriving = try XCTUnwrap(answer["arriving"] as? [String: Any])
        XCTAssertEqual(arriving["message"] as? String, "Parts here: 2 of 3; the download of the rest stopped.")
    }

    /// A stopped download's hint on the terminal names the command that resumes it as it is typed: `shelf download`
    /// with the loan's id (and `--account` once the patron has several libraries). Before, `shelf play` said nothing
    /// of the stopped download, and the host's hint read "`shelf download` of the loan resumes it.".
    func testTheTerminalNamesTheLoanWhoseDownloadStopped() throws {
        library.server.route("GET", "/audiobooks/audio-free/part-3.mp3", .status(404))
        let path = try listen()
        XCTAssertTrue(
            try waitUntil(60) { (try get(path).json()["arriving"] as? [String: Any])?["stopped"] as? Bool == true },
            "the download of the rest never said it stopped")
        let book = "catalog:fake:\(title)"
        let one = try shelf.run(["play", book, "--null"])
        XCTAssertTrue(
            one.stderr.contains(
                "Parts here: 2 of 3; the download of the rest stopped. `shelf download \(title)` resumes it."),
            one.stderr)
        // With a second library the command names this loan's.
        XCTAssertEqual(try shelf.run(["account", "add", library.root, "--name", "other"]).status, 0)
        let two = try shelf.run(["play", book, "--null"])
        XCTAssertTrue(two.stderr.contains("`shelf download \(title) --account fake` resumes it."), two.stderr)
    }
}
