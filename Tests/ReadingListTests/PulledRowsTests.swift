import Foundation
import TestSupport
import XCTest

/// What a pull could not keep is said, and what it keeps fits a terminal's lines (issue 19, item 6): a row without a
/// title was dropped silently, and a title with a newline broke `lists show`.
final class PulledRowsTests: ShelfTestCase {
    func testRowsWithoutATitleAreCountedAndTitlesStayOnOneLine() throws {
        let csv =
            "Book Id,Title,Author,ISBN,ISBN13,My Rating,Date Read,Date Added,Bookshelves,Exclusive Shelf\n"
            + "1,\"The Long\nWay Home\",Ada Vale,,,4,2021/03/02,2021/01/01,,read\n"
            + "2,,Nobody,,,0,,2021/01/02,,read\n"
            + "3,   ,Nobody Either,,,0,,2021/01/03,,to-read\n"
            + "\n"
            + "4,Short Title,Bo Lin,,,0,,2021/01/04,,read\n"
        let path = shelf.home.appendingPathComponent("export.csv")
        try csv.write(to: path, atomically: true, encoding: .utf8)
        try run(["lists", "connect", "goodreads", "--set", "file=\(path.path)"])
        let pulled = try run(["lists", "pull"])
        XCTAssertTrue(pulled.stdout.contains("goodreads: 2 books"), pulled.stdout)
        XCTAssertTrue(pulled.stdout.contains("2 rows skipped: they have no title"), pulled.stdout)
        let shown = try run(["lists", "show"]).stdout
        XCTAssertTrue(shown.contains("\n  The Long Way Home — by Ada Vale"), shown)
        XCTAssertFalse(shown.contains("The Long\n"), shown)
        let object = try json(run(["lists", "pull", "--json"]))
        XCTAssertEqual((object["pulled"] as? [[String: Any]])?.first?["skippedWithoutTitle"] as? Int, 2)
    }
}
