import Foundation
import TestSupport
import XCTest

/// The commands that read a book's file (`info`, `toc`, `manifest`, `render`, `positions`, `search`, `resource`,
/// `cover`) take a book on the shelf by name as `read` and `play` do: a patron who listens by title had no way to
/// see the chapters `play --chapter N` takes (`shelf toc Tide` said "Tide: no such file").
final class BookFileByNameTests: BookshelfTestCase {
    func testTheFileCommandsFindABookOnTheShelfByName() throws {
        try ok(["add", try fixture()])
        let byPath = try ok(["toc", try fixture(), "--json"]).stdout
        XCTAssertEqual(
            try ok(["toc", "Tide", "--json"]).stdout, byPath, "the same table of contents by title as by path")
        XCTAssertTrue(try ok(["info", "tide tables"]).stdout.hasPrefix("The Tide Tables\n"))
        // The shelf's copy of the file, described as the file itself is.
        var byID = try json(["info", "urn:uuid:tide-tables-1"]), byFile = try json(["info", try fixture()])
        XCTAssertTrue((byID.removeValue(forKey: "path") as? String ?? "").hasPrefix(shelf.home.path), "\(byID)")
        byFile["path"] = nil
        XCTAssertEqual(NSDictionary(dictionary: byID), NSDictionary(dictionary: byFile))
        XCTAssertTrue(try ok(["search", "Tide", "the"]).stdout.contains("hit"))
    }

    func testANameThatIsNeitherAFileNorABookSaysTheFileIsMissing() throws {
        try ok(["add", try fixture()])
        for name in ["Lighthouse", "missing.epub"] {
            let result = try shelf.run(["info", name])
            XCTAssertEqual(result.status, 66, result.stderr)
            XCTAssertTrue(result.stderr.contains("\(name): no such file"), result.stderr)
        }
        // A part of a title that fits several books lists them, as `read` does.
        try ok(["add", sample])
        let several = try shelf.run(["toc", "e"])
        XCTAssertEqual(several.status, 64, several.stderr)
        XCTAssertTrue(several.stderr.contains("matches 2 books"), several.stderr)
    }
}
