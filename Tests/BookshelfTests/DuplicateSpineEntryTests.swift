import Foundation
import XCTest

/// A manifest item the spine lists twice (EPUB 3.3 allows it) is read twice: each spine entry has pages of its own,
/// `--next` goes from the chapter before the second entry into it, and a place saved there comes back there, though
/// its words are also the first entry's. The EPUB plugin used to drop the second entry (the book was read as if
/// the spine listed the item once).
final class DuplicateSpineEntryTests: BookshelfTestCase {
    func testEachSpineEntryOfOneItemHasPagesOfItsOwn() throws {
        let chapters = FixtureBooks.chapters(2)
        let path = folder.appendingPathComponent("twice.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:twice-1", chapters: chapters, spine: [0, 1, 0])
        try ok(["add", path])
        let first = FixtureBooks.pages(chapters[0])
        let second = FixtureBooks.pages(chapters[1])
        // The cover's page, then chapter 1, chapter 2 and chapter 1 again.
        let again = 1 + first + second + 1
        let last = try json(["read", "Tide", "--goto", String(again - 1)])
        XCTAssertEqual(last["pages"] as? Int, 1 + 2 * first + second, "both entries' pages are counted")
        XCTAssertEqual(last["chapter"] as? String, "Chapter 2")
        let next = try json(["read", "Tide", "--next"])
        XCTAssertEqual(next["page"] as? Int, again, "on from chapter 2 into the second entry")
        XCTAssertEqual(next["chapter"] as? String, "Chapter 1")
        XCTAssertEqual(try json(["read", "Tide", "--next"])["page"] as? Int, again + 1)
        // Its words are the first entry's too: the place still comes back to the second entry.
        XCTAssertEqual(try json(["read", "Tide"])["page"] as? Int, again + 1)
    }

    /// A bookmark is in the spine entry it was made in: `shelf bookmarks` (and `B` in `shelf read`, which lists the
    /// same pages) gives its page there, though the other entry has the same words at the same progression.
    func testABookmarkStaysInTheSpineEntryItWasMadeIn() throws {
        let chapters = FixtureBooks.chapters(2)
        let path = folder.appendingPathComponent("twice.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:twice-2", chapters: chapters, spine: [0, 1, 0])
        try ok(["add", path])
        let again = 1 + FixtureBooks.pages(chapters[0]) + FixtureBooks.pages(chapters[1]) + 1
        let second = try json(["bookmark", "add", "Tide", "--page", String(again)])
        XCTAssertEqual(second["page"] as? Int, again)
        // The browser's locator of the same screen in the first entry: the same file, progression and words; its
        // position (the page the browser counted) says which entry.
        var locator = try XCTUnwrap(second["locator"] as? [String: Any])
        var locations = try XCTUnwrap(locator["locations"] as? [String: Any])
        locations["position"] = 2
        locator["locations"] = locations
        let text = String(decoding: try JSONSerialization.data(withJSONObject: locator), as: UTF8.self)
        let first = try json(["bookmark", "add", "Tide", "--locator", text])
        XCTAssertEqual(first["page"] as? Int, 2, "the same words in the first entry")
        let listed = try XCTUnwrap(try ok(["bookmarks", "Tide", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(listed.compactMap { $0["page"] as? Int }.sorted(), [2, again])
        let id = try XCTUnwrap(second["id"] as? Int)
        XCTAssertEqual(try json(["read", "Tide", "--bookmark", String(id)])["page"] as? Int, again)
    }
}
