import Foundation
import Host
import TestSupport
import XCTest

/// Issue 19, items 4 and 5: a book and the patron's place in it are never silently lost to another file.
final class BookIdentityTests: BookshelfTestCase {
    /// A DRM-protected copy with the same identifier does not replace the readable copy: `shelf add` refuses with
    /// a message (exit 65), and the book still reads, at the same place.
    func testAProtectedCopyNeverReplacesAReadableOne() throws {
        let readable = try fixture()
        try ok(["add", readable])
        try ok(["read", "tide", "--goto", "4"])
        let protectedCopy = folder.appendingPathComponent("tide-bookshop.epub").path
        try FixtureBooks.write(
            to: protectedCopy, identifier: "urn:uuid:tide-tables-1", chapters: FixtureBooks.chapters(3), protected: true
        )

        let refused = try shelf.run(["add", protectedCopy])
        XCTAssertEqual(refused.status, 65, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("cannot be read"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Adobe ADEPT"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("readable copy on your shelf was kept"), refused.stderr)

        let page = try self.page(["read", "tide"])
        XCTAssertEqual(page.number, 4)
        XCTAssertTrue(page.text.contains("In part 1 passage"), page.text)
    }

    /// A protected copy of a book not on the shelf yet is still added (there is nothing readable to lose), and a
    /// readable copy replaces a protected one.
    func testAReadableCopyReplacesAProtectedOne() throws {
        let protectedCopy = folder.appendingPathComponent("tide-bookshop.epub").path
        try FixtureBooks.write(
            to: protectedCopy, identifier: "urn:uuid:tide-tables-1", chapters: FixtureBooks.chapters(3), protected: true
        )
        try ok(["add", protectedCopy])
        XCTAssertNotEqual(try shelf.run(["read", "tide"]).status, 0)
        let added = try json(["add", try fixture()])
        XCTAssertEqual((added["added"] as? [[String: Any]])?.count, 1, "\(added)")
        XCTAssertTrue(try self.page(["read", "tide"]).text.contains("In part"))
    }

    /// A linked file swapped for another book: `read` says so, shows what the file holds and saves no position;
    /// the real file back, the place is where it was.
    func testAFileSwappedUnderALinkedBookKeepsThePlace() throws {
        let path = try fixture()
        try ok(["add", "--link", path])
        try ok(["read", "tide", "--goto", "5"])
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        try FixtureBooks.write(
            to: path, identifier: "urn:uuid:another-book", title: "The Salt Road", author: "Someone Else",
            chapters: FixtureBooks.chapters(2, first: 7))
        let swapped = try json(["read", "tide", "--next"])
        let notes = (swapped["notes"] as? [String] ?? []).joined(separator: " ")
        XCTAssertTrue(notes.contains("now holds “The Salt Road”, not the book you added"), notes)
        XCTAssertTrue(notes.contains("not saved"), notes)
        try ok(["read", "tide", "--goto", "1"])
        var books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.first?["page"] as? Int, 5, "the saved place is not overwritten")

        try original.write(to: URL(fileURLWithPath: path))
        let back = try json(["read", "tide"])
        XCTAssertEqual(back["page"] as? Int, 5)
        XCTAssertEqual(back["notes"] as? [String], [])
        try ok(["read", "tide", "--next"])
        books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.first?["page"] as? Int, 6, "with the book back, the place is saved again")
    }

    /// The same identifier with other content (another edition copied over a linked file): `read` says the file
    /// changed and saves no position, and no bookmark goes on it; adding the file again makes it the book's file.
    func testAChangedFileWithTheSameIdentifierIsNoticed() throws {
        let path = try fixture()
        try ok(["add", "--link", path])
        try ok(["read", "tide", "--goto", "3"])
        try FixtureBooks.write(to: path, identifier: "urn:uuid:tide-tables-1", chapters: FixtureBooks.chapters(4))
        let changed = try json(["read", "tide", "--next"])
        let notes = (changed["notes"] as? [String] ?? []).joined(separator: " ")
        XCTAssertTrue(notes.contains("has changed since it was added"), notes)
        let bookmark = try shelf.run(["bookmark", "add", "tide"])
        XCTAssertEqual(bookmark.status, 65, bookmark.stderr)
        var books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.first?["page"] as? Int, 3)

        try ok(["add", "--link", path])
        let again = try json(["read", "tide", "--next"])
        XCTAssertEqual(again["notes"] as? [String], [])
        books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.first?["page"] as? Int, again["page"] as? Int)
    }
}
