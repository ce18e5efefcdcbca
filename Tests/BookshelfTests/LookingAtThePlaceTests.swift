import Foundation
import Host
import ShelfLibrary
import TestSupport
import XCTest

/// `shelf read BOOK` with no move shows the place; it does not write it back. It used to save the page it had read,
/// so a place another front end saved while it ran (the browser, a moment after a page turn) was written over with
/// the page before: a lost update, seen as the browser's page-turn test failing now and then under load.
final class LookingAtThePlaceTests: BookshelfTestCase {
    func testReadingWithoutAMoveLeavesTheSavedPlaceAsItWas() throws {
        try ok(["add", try fixture(chapters: FixtureBooks.chapters(4))])
        try ok(["read", "Tide", "--goto", "3"])
        let database = try LibraryDatabase(path: shelf.home.appendingPathComponent("data/library.sqlite3").path)
        defer { database.close() }
        let id = "urn:uuid:tide-tables-1"
        let saved = try XCTUnwrap(try database.position(bookID: id))
        let opened = try XCTUnwrap(try database.book(id: id)?.openedAt)
        Thread.sleep(forTimeInterval: 0.01)  // the times are kept in milliseconds
        XCTAssertEqual(try json(["read", "Tide"])["page"] as? Int, 3)
        XCTAssertEqual(try database.position(bookID: id), saved, "the place is not written again")
        XCTAssertGreaterThan(try XCTUnwrap(try database.book(id: id)?.openedAt), opened, "the book was opened now")
        // A move still saves.
        XCTAssertEqual(try json(["read", "Tide", "--next"])["page"] as? Int, 4)
        XCTAssertNotEqual(try database.position(bookID: id), saved)
    }
}
