import Foundation
@testable import Host
@testable import ShelfLibrary
import Readium
import XCTest

/// Locators keep the members this model does not name, as links do: a bookmark a plugin made precise
/// (`cssSelector`, `partialCfi`, ...) comes back as it was stored, through every path a locator takes.
final class LocatorMembersTests: XCTestCase {
    let json = #"""
        {"href": "c1.xhtml", "type": "application/xhtml+xml",
         "locations": {"progression": 0.25, "cssSelector": "#c1 > p:nth-child(3)", "partialCfi": "/4/2/6:12"},
         "text": {"highlight": "Call me Ishmael"}, "x-vendor": {"note": [1, true, null]}}
        """#

    func check(_ locator: Locator, _ how: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(locator.locations.progression, 0.25, how, file: file, line: line)
        XCTAssertEqual(
            locator.locations.extra["cssSelector"], .string("#c1 > p:nth-child(3)"), how, file: file, line: line)
        XCTAssertEqual(locator.locations.extra["partialCfi"], .string("/4/2/6:12"), how, file: file, line: line)
        XCTAssertEqual(
            locator.extra["x-vendor"], .object(["note": .array([.number(1), .bool(true), .null])]), how, file: file,
            line: line)
        XCTAssertNil(locator.extra["href"], how, file: file, line: line)
    }

    func testUnknownMembersSurviveEveryReaderAndWriter() throws {
        let fast = try Locator.parse(json)  // the reader
        check(fast, "reader")
        check(try JSONDecoder().decode(Locator.self, from: Data(json.utf8)), "Codable")
        check(try Locator.parse(fast.jsonString()), "writer")
        check(try JSONDecoder().decode(Locator.self, from: JSONEncoder().encode(fast)), "JSONEncoder")
        XCTAssertEqual(try Locator.parse(fast.jsonString()), fast)
        XCTAssertTrue(fast.jsonString().contains(##""cssSelector":"#c1 > p:nth-child(3)""##), fast.jsonString())
    }

    func testABookmarksCSSSelectorSurvivesTheLibrary() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "shelf-locator-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try LibraryDatabase(path: folder.appendingPathComponent("library.sqlite3").path)
        defer { database.close() }
        try database.upsertBook(
            BookRecord(
                id: "moby", path: "/books/moby.epub", sourceURI: nil, mediaType: "application/epub+zip",
                pluginID: "org.shelf.epub3", title: "Moby-Dick", authors: ["Herman Melville"],
                addedAt: Date(), openedAt: nil))
        let stored = try database.addBookmark(Bookmark(bookID: "moby", locator: try Locator.parse(json), note: "whale"))
        let read = try XCTUnwrap(try database.bookmark(id: stored.id))
        check(read.locator, "stored bookmark")
        XCTAssertEqual(read.locator, stored.locator)
    }
}
