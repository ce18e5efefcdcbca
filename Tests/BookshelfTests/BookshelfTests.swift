import Foundation
import Host
import ShelfReader
import ShelfPlayback
import TestSupport
import XCTest

/// Helpers every bookshelf test shares: a fresh SHELF_HOME, fixture books, and JSON from the real `shelf`.
class BookshelfTestCase: XCTestCase {
    var shelf: ShelfProcess!
    var folder: URL!

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        folder = shelf.home.appendingPathComponent("fixtures", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { shelf?.cleanUp() }

    @discardableResult
    func ok(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> ShelfProcess.Result {
        let result = try shelf.run(arguments)
        XCTAssertEqual(
            result.status, 0, "shelf \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try ok(arguments + ["--json"], file: file, line: line)
        guard let object = try result.json() as? [String: Any] else {
            XCTFail("not a JSON object: \(result.stdout)", file: file, line: line)
            return [:]
        }
        return object
    }

    func page(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (
        number: Int, text: String, chapter: String?
    ) {
        let object = try json(arguments, file: file, line: line)
        return (object["page"] as? Int ?? -1, object["text"] as? String ?? "", object["chapter"] as? String)
    }

    /// The fixture book: a cover, then `chapters` chapters of 9 paragraphs (3 pages each).
    func fixture(
        _ name: String = "tide.epub", identifier: String = "urn:uuid:tide-tables-1",
        chapters: [FixtureBooks.Chapter] = FixtureBooks.chapters(3)
    ) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try FixtureBooks.write(to: path, identifier: identifier, chapters: chapters)
        return path
    }

    static func squeeze(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    var sample: String { ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path }
}

final class BookshelfListingTests: BookshelfTestCase {
    func testAddListAndRemove() throws {
        let book = try fixture()
        let added = try json(["add", book, sample])
        XCTAssertEqual((added["added"] as? [Any])?.count, 2)
        var books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(Set(books.compactMap { $0["title"] as? String }), ["The Tide Tables", "The Lighthouse Keeper"])
        let tide = try XCTUnwrap(books.first { $0["title"] as? String == "The Tide Tables" })
        XCTAssertEqual(tide["authors"] as? [String], ["Ines Marlow"])
        XCTAssertEqual(tide["format"] as? String, "eBook")
        XCTAssertEqual(tide["percentRead"] as? Int, 0)
        XCTAssertNil(tide["lastOpened"])
        XCTAssertEqual(tide["storage"] as? String, "copy")
        let copy = try XCTUnwrap(tide["path"] as? String)
        XCTAssertTrue(copy.hasPrefix(shelf.home.path), "copied into the data folder: \(copy)")

        // Reading moves the percentage and the last-opened date; the text listing says it in words.
        try ok(["read", "tide", "--goto", "5"])
        books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        let read = try XCTUnwrap(books.first)
        XCTAssertEqual(read["title"] as? String, "The Tide Tables", "the book opened last comes first")
        XCTAssertEqual(read["page"] as? Int, 5)
        XCTAssertEqual(read["percentRead"] as? Int, ReadingProgress.percent(page: 5, of: read["pages"] as? Int ?? 0))
        XCTAssertNotNil(read["lastOpened"])
        let text = try ok(["books"]).stdout
        XCTAssertTrue(text.contains("eBook · \(read["percentRead"]!)% read · opened today"), text)

        // BOOK: a part of a title, the id, the original path; ambiguous and unknown names.
        let ambiguous = try shelf.run(["read", "e"])
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertTrue(
            ambiguous.stderr.contains("The Tide Tables") && ambiguous.stderr.contains("The Lighthouse Keeper"),
            ambiguous.stderr)
        XCTAssertEqual(try shelf.run(["read", "no such book"]).status, 66)
        XCTAssertEqual(try page(["read", "urn:uuid:tide-tables-1"]).number, 5)
        XCTAssertEqual(try page(["read", book]).number, 5)

        // Remove: the row, the position and shelf's copy go.
        let removed = try json(["remove", "THE TIDE TABLES"])
        XCTAssertEqual(removed["deletedFile"] as? String, copy)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
        XCTAssertTrue(FileManager.default.fileExists(atPath: book), "the original stays")
        books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.count, 1)
        XCTAssertEqual(
            try shelf.run(["remove", "The Lighthouse Keeper", "--return"]).status, 64, "not on loan: nothing to return")
    }

    func testLinkKeepsTheFileWhereItIs() throws {
        let book = try fixture()
        let added = try json(["add", "--link", book])
        let entry = try XCTUnwrap((added["added"] as? [[String: Any]])?.first?["book"] as? [String: Any])
        XCTAssertEqual(entry["storage"] as? String, "link")
        XCTAssertEqual(entry["path"] as? String, book)
        try ok(["remove", "The Tide Tables"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: book), "a linked file is never deleted")
    }

    func testBadInputIsRefusedWithoutAddingAnything() throws {
        let junk = folder.appendingPathComponent("junk.epub").path
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: junk))
        let result = try shelf.run(["add", junk, folder.appendingPathComponent("missing.epub").path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(try XCTUnwrap(try ok(["books", "--json"]).json() as? [Any]).count, 0)
        XCTAssertEqual(try shelf.run(["read", "x", "--next", "--prev"]).status, 64)
    }
}

final class ReadingTests: BookshelfTestCase {
    func testReadForwardAcrossChaptersAndBack() throws {
        let chapters = FixtureBooks.chapters(3)
        try ok(["add", try fixture(chapters: chapters)])
        let perChapter = chapters.map(FixtureBooks.pages)
        XCTAssertTrue(perChapter.allSatisfy { $0 >= 3 }, "each chapter spans several pages: \(perChapter)")
        // A first open starts at the body matter, after the cover (page 1 is the cover).
        let first = try page(["read", "Tide"])
        XCTAssertEqual(first.number, 2)
        XCTAssertEqual(first.chapter, "Chapter 1")
        XCTAssertTrue(first.text.contains("Chapter 1"), first.text)

        var seen: [(Int, String, String?)] = [(first.number, first.text, first.chapter)]
        while true {
            let next = try page(["read", "Tide", "--next"])
            if next.number == seen.last!.0 { break }
            XCTAssertEqual(next.number, seen.last!.0 + 1)
            seen.append((next.number, next.text, next.chapter))
        }
        XCTAssertEqual(seen.last?.0, 1 + perChapter.reduce(0, +), "read to the last page")
        // Every paragraph appears exactly once, in order, across the pages, and chapters change at their boundary.
        let all = Self.squeeze(seen.map(\.1).joined(separator: "\n"))
        var cursor = all.startIndex
        for chapter in chapters {
            for paragraph in chapter.paragraphs {
                guard let range = all.range(of: paragraph, range: cursor..<all.endIndex) else {
                    return XCTFail("\(paragraph.prefix(40)) missing or out of order")
                }
                XCTAssertNil(all.range(of: paragraph, range: range.upperBound..<all.endIndex), "shown twice")
                cursor = range.upperBound
            }
        }
        let boundary = 1 + perChapter[0] + 1
        XCTAssertEqual(seen.first { $0.0 == boundary }?.2, "Chapter 2")
        XCTAssertEqual(seen.first { $0.0 == boundary - 1 }?.2, "Chapter 1")
        let status = try ok(["read", "Tide"]).stdout
        XCTAssertTrue(status.contains("Chapter 3 · page \(seen.last!.0) of \(seen.last!.0) · 100%"), status)

        // And back, across the same boundaries, to the first page.
        for expected in stride(from: seen.last!.0 - 1, through: 1, by: -1) {
            let previous = try page(["read", "Tide", "--prev"])
            XCTAssertEqual(previous.number, expected)
            if let shown = seen.first(where: { $0.0 == expected }) { XCTAssertEqual(previous.text, shown.1) }
        }
        XCTAssertTrue(try ok(["read", "Tide", "--prev"]).stdout.contains("This is the first page."))
    }

    func testGotoTableOfContentsAndSearchHit() throws {
        let chapters = FixtureBooks.chapters(3)
        try ok(["add", try fixture(chapters: chapters)])
        XCTAssertEqual(try page(["read", "Tide", "--goto", "6"]).number, 6)
        XCTAssertEqual(try page(["read", "Tide"]).number, 6, "the place is saved")
        XCTAssertEqual(try shelf.run(["read", "Tide", "--goto", "999"]).status, 64)

        let third = try page(["read", "Tide", "--toc", "3"])
        XCTAssertEqual(third.chapter, "Chapter 3")
        XCTAssertEqual(third.number, 2 + FixtureBooks.pages(chapters[0]) + FixtureBooks.pages(chapters[1]))
        let toc = try XCTUnwrap(try ok(["read", "Tide", "--toc", "0", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(toc.compactMap { $0["title"] as? String }, ["Chapter 1", "Chapter 2", "Chapter 3"])

        // A passage deep in chapter 2: the page shown holds it.
        let phrase = "passage 8 the keeper noted"
        let hit = try json(["read", "Tide", "--search", "part 2 \(phrase)"])
        XCTAssertTrue(Self.squeeze(hit["text"] as? String ?? "").contains("part 2 \(phrase)"), "\(hit)")
        XCTAssertEqual(hit["chapter"] as? String, "Chapter 2")
        XCTAssertNotNil(hit["hit"])
        // The second hit of words found in every chapter is in chapter 2.
        let second = try json(["read", "Tide", "--search", "closed the log for entry", "--hit", "10"])
        XCTAssertTrue(
            Self.squeeze(second["text"] as? String ?? "").contains("closed the log for entry 2-1."), "\(second)")
        XCTAssertEqual(try shelf.run(["read", "Tide", "--search", "zeppelin"]).status, 66)
    }
}

final class PagedTextTests: XCTestCase {
    func testEveryLineOnceWhateverThePageCount() {
        let text = (1...37).map { "line \($0)" }.joined(separator: "\n") + "\n"
        for n in [1, 2, 3, 5, 36, 37, 80] {
            let paged = PagedText(text: text, pageCount: n)
            XCTAssertEqual(paged.pages.count, n)
            XCTAssertEqual(paged.pages.joined(), text, "pages \(n)")
        }
        XCTAssertEqual(PagedText(text: "", pageCount: 2).pages, ["", ""])
    }
}
