import Foundation
import TestSupport
import XCTest

/// A loan the library ended takes its file with it, as in Palace; the book's row (its place, its bookmarks) stays for
/// a later loan (issue 32, item 8).
final class EndedLoanTests: LibraryTestCase {
    func books() throws -> [[String: Any]] {
        let document = try run(["books", "--json"]).json()
        return (document as? [[String: Any]]) ?? ((document as? [String: Any])?["books"] as? [[String: Any]] ?? [])
    }

    func testAnEndedLoansFileIsDeletedAndItsBookKept() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let downloaded = try json(try run(["download", "urn:fake:ebook-free", "--json"]))
        let path = try XCTUnwrap(downloaded["path"] as? String, "\(downloaded)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try books().count, 1)

        try run(["sync"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "still lent: the file stays")

        library.expireLoan("urn:fake:ebook-free")
        try run(["sync"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the loan ended: its file is deleted")
        let kept = try books()
        XCTAssertEqual(kept.count, 1, "the book stays on the shelf with its place and bookmarks: \(kept)")
        XCTAssertEqual(kept.first?["title"] as? String, "The Open Road")
    }
}
