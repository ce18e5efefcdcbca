import Foundation
import Host
import ShelfLibrary
import TestSupport
import XCTest

/// `kill -9` in the middle of saving a place or a bookmark: the database stays whole and nothing written before is
/// lost.
final class CrashTests: BookshelfTestCase {
    func testKillDuringReadNextAndBookmarkWrites() throws {
        try ok(["add", try fixture(chapters: FixtureBooks.chapters(4))])
        var known = Set<Int64>()
        for page in 3...5 {
            known.insert(Int64(try json(["bookmark", "add", "Tide", "--page", "\(page)"])["id"] as? Int ?? 0))
        }
        var page = try self.page(["read", "Tide"]).number
        let databasePath = shelf.home.appendingPathComponent("data/library.sqlite3").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath))
        var generator = SystemRandomNumberGenerator()
        for round in 0..<16 {
            let arguments =
                round % 2 == 0 ? ["read", "Tide", "--next"] : ["bookmark", "add", "Tide", "--note", "round \(round)"]
            let process = Process()
            process.executableURL = ShelfProcess.executable
            process.arguments = arguments
            process.environment = shelf.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Anywhere from before the database is opened to after the write.
            usleep(UInt32.random(in: 0...120_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let database = try LibraryDatabase(path: databasePath)
            defer { database.close() }
            XCTAssertEqual(
                try database.connection.scalar("PRAGMA integrity_check", as: String.self), "ok", "round \(round)")
            let now = try XCTUnwrap(
                try database.shelfBook(id: "urn:uuid:tide-tables-1")?.progress?.page, "round \(round)")
            XCTAssertNotNil(try database.readingLocator(bookID: "urn:uuid:tide-tables-1"))
            if round % 2 == 0 {
                XCTAssertTrue(now == page || now == page + 1, "round \(round): page \(now) after \(page)")
            } else {
                XCTAssertEqual(now, page, "a bookmark write does not move the place")
            }
            page = now
            let ids = Set(try database.bookmarks(bookID: "urn:uuid:tide-tables-1").map(\.id))
            XCTAssertTrue(known.isSubset(of: ids), "round \(round): lost \(known.subtracting(ids))")
            XCTAssertLessThanOrEqual(ids.count - known.count, 1)
            known = ids
        }
        // After all that, shelf still reads on from the saved page.
        XCTAssertEqual(try self.page(["read", "Tide", "--next"]).number, page + 1)
    }
}

/// Real books from the shared corpus: reading across chapter boundaries, search and bookmarks over another copy.
final class CorpusReadingTests: BookshelfTestCase {
    func testReadAcrossChaptersOfACorpusBook() throws {
        guard let corpus = Corpus.root else {
            throw XCTSkip("../shared/corpus is absent: the fixture tests cover the same behaviour")
        }
        let book = corpus.appendingPathComponent("epub/epub2-feedbooks-moby-dick.epub").path
        guard FileManager.default.fileExists(atPath: book) else { throw XCTSkip("the corpus has no Moby Dick EPUB") }
        try ok(["add", book])
        let start = try page(["read", "Moby"])
        var last = start
        var chapters = Set<String>()
        for _ in 0..<40 {
            let next = try page(["read", "Moby", "--next"])
            XCTAssertEqual(next.number, last.number + 1)
            if let chapter = next.chapter { chapters.insert(chapter) }
            last = next
        }
        XCTAssertGreaterThan(chapters.count, 1, "crossed a chapter boundary")
        for _ in 0..<40 { last = try page(["read", "Moby", "--prev"]) }
        XCTAssertEqual(last.number, start.number)
        XCTAssertEqual(last.text, start.text)
        let hit = try json(["read", "Moby", "--search", "Call me Ishmael"])
        XCTAssertTrue(Self.squeeze(hit["text"] as? String ?? "").contains("Call me Ishmael"))
        let mark = try json(["bookmark", "add", "Moby", "--page", "\(start.number + 30)"])
        // The same book as another file: re-zipped copies keep the identifier, so it replaces the edition.
        try ok(["add", book])
        let jumped = try page(["read", "Moby", "--bookmark", "\(mark["id"] as? Int ?? 0)"])
        XCTAssertEqual(jumped.number, start.number + 30)
    }
}
