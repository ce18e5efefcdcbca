import Foundation
import TestSupport
import XCTest

/// A book on the shelf whose file was damaged or cut short after it was put there: opening it says so and how to
/// put a good copy back, as the book came onto the shelf; the good copy opens where the patron was.
final class DamagedBookTests: ShelfTestCase {
    func testADamagedLinkedBookSaysWhereToPutAGoodCopy() throws {
        let path = shelf.home.appendingPathComponent("tide.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:damaged-1", chapters: FixtureBooks.chapters(3))
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        try run(["add", path, "--link"])
        try run(["read", "The Tide Tables", "--goto", "3"])
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: path))
        let damaged = try run(["read", "The Tide Tables"], expect: 65)
        XCTAssertTrue(
            damaged.stderr.contains(
                "damaged or cut short: put a good copy at \(path), or add one with `shelf add FILE`"), damaged.stderr)
        try good.write(to: URL(fileURLWithPath: path))
        XCTAssertTrue(try run(["read", "The Tide Tables"]).stdout.contains("page 3 of"), "the place is kept")
    }

    func testAddingADamagedFileSaysNothingWasAdded() throws {
        let path = shelf.home.appendingPathComponent("cut.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:damaged-3", chapters: FixtureBooks.chapters(3))
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: path))
        let result = try run(["add", path], expect: 65)
        XCTAssertTrue(result.stderr.contains("Nothing was added. The file is damaged or cut short"), result.stderr)
        XCTAssertTrue(try run(["books"]).stdout.contains("The shelf is empty"))
    }

    func testADamagedCopyOnTheShelfSaysToAddAGoodOne() throws {
        let path = shelf.home.appendingPathComponent("tide.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:damaged-2", chapters: FixtureBooks.chapters(3))
        try run(["add", path])
        let books = try XCTUnwrap(try run(["books", "--json"]).json() as? [[String: Any]])
        let copy = try XCTUnwrap(books.first?["path"] as? String, "\(books)")
        try Data("PK not really".utf8).write(to: URL(fileURLWithPath: copy))
        let damaged = try run(["read", "The Tide Tables"], expect: 65)
        XCTAssertTrue(
            damaged.stderr.contains(
                "Its file on the shelf is damaged or cut short: add a good copy with `shelf add FILE`"), damaged.stderr)
        try run(["add", path])
        try run(["read", "The Tide Tables"])
    }
}

/// A book file named to `shelf read` before it is on the shelf: said so, with the command that puts it there.
final class BookFileNotOnTheShelfTests: ShelfTestCase {
    func testReadingAFileNotOnTheShelfSaysToAddIt() throws {
        let path = shelf.home.appendingPathComponent("tide.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:not-yet-1", chapters: FixtureBooks.chapters(2))
        let result = try run(["read", path], expect: 66)
        XCTAssertTrue(result.stderr.contains("\(path) is not on the shelf yet"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Put it there with `shelf add \(path)`"), result.stderr)
        try run(["add", path])
        try run(["read", path])
        let missing = try run(["read", "No Such Title"], expect: 66)
        XCTAssertTrue(missing.stderr.contains("no book on the shelf is called \"No Such Title\""), missing.stderr)
    }
}

/// A table of contents entry or a chapter that is not there: the command that lists them, as it runs.
final class ContentsHintTests: ShelfTestCase {
    func testATableOfContentsEntryThatIsNotThereNamesTheCommandThatListsThem() throws {
        let path = shelf.home.appendingPathComponent("tide.epub").path
        try FixtureBooks.write(to: path, identifier: "urn:uuid:contents-1", chapters: FixtureBooks.chapters(2))
        try run(["add", path])
        let result = try run(["read", "Tide", "--toc", "9"], expect: 64)
        XCTAssertTrue(result.stderr.contains("`shelf read \"The Tide Tables\" --toc 0` lists them."), result.stderr)
        XCTAssertEqual(try run(["read", "The Tide Tables", "--toc", "0"]).status, 0, "the hint runs")
    }
}

final class DamagedDownloadTests: LibraryTestCase {
    /// The fake library's loan is no EPUB at all (its bytes are a stand-in): reading it says to download it again.
    func testADamagedDownloadSaysToDownloadItAgain() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["download", "urn:fake:ebook-free"])
        let damaged = try run(["read", "The Open Road"], expect: 65)
        XCTAssertTrue(
            damaged.stderr.contains(
                "Its file is damaged or cut short: download it again (`shelf download urn:fake:ebook-free`)."),
            damaged.stderr)
    }
}
