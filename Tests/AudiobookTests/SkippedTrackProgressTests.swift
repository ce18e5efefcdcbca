import Foundation
import TestSupport
import XCTest

/// A track that cannot be played is skipped, and never counts as listened: a book whose last track is missing or
/// damaged ends where its sound did. Failed before: playing such a book to its end saved the book's end, so the
/// shelf said "0:06 of 0:06 listened (100%)" of a book whose last 2 seconds nobody heard.
final class SkippedTrackProgressTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    /// Three 2-second tone tracks; `damage` spoils the third.
    func book(_ damage: (URL) throws -> Void) throws -> URL {
        try AudioFixtures.require("ffmpeg")
        let dir = process.home.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var order: [[String: Any]] = []
        for i in 1...3 {
            let file = dir.appendingPathComponent("t\(i).wav")
            try AudioFixtures.run(
                "ffmpeg",
                [
                    "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=220:duration=2:sample_rate=44100",
                    "-c:a", "pcm_s16le", file.path
                ])
            order.append(["href": "t\(i).wav", "type": "audio/wav", "title": "Part \(i)", "duration": 2])
        }
        try damage(dir.appendingPathComponent("t3.wav"))
        let manifest: [String: Any] = [
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Last Part Lost", "identifier": "urn:x:lost"],
            "readingOrder": order
        ]
        let url = dir.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)
        return url
    }

    func assertEndsWhereTheSoundDid(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let played = try process.run(["play", url.path, "--null"])
        XCTAssertEqual(played.status, 0, played.stderr, file: file, line: line)
        XCTAssertTrue(played.stderr.contains("track 3"), played.stderr, file: file, line: line)
        XCTAssertTrue(played.stdout.contains("at 0:04 of 0:06"), played.stdout, file: file, line: line)
        let books = try process.run(["books", "--json"])
        let list = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(books.stdout.utf8)) as? [[String: Any]], file: file, line: line)
        let record = try XCTUnwrap(list.first, file: file, line: line)
        XCTAssertEqual(record["percentRead"] as? Int, 66, "\(record)", file: file, line: line)
        XCTAssertEqual(record["listened"] as? Double ?? 0, 4, accuracy: 0.05, "\(record)", file: file, line: line)
        // Played again, it ends there again, having tried the lost track once more.
        let again = try process.run(["play", url.path, "--null"])
        XCTAssertEqual(again.status, 0, again.stderr, file: file, line: line)
        XCTAssertTrue(again.stdout.contains("at 0:04 of 0:06"), again.stdout, file: file, line: line)
    }

    func testAMissingLastTrackIsNotListened() throws {
        try assertEndsWhereTheSoundDid(try book { try FileManager.default.removeItem(at: $0) })
    }

    func testADamagedLastTrackIsNotListened() throws {
        try assertEndsWhereTheSoundDid(try book { try Data(repeating: 0x5A, count: 50_000).write(to: $0) })
    }
}
