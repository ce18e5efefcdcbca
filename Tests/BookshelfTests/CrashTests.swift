import Foundation
import Host
import TestSupport
import XCTest

/// `kill -9` in the middle of saving a place or a bookmark: the database stays whole and nothing written before is
/// lost.
final class CrashTests: BookshelfTestCase {
    func testKillDuringReadNextAndBookmarkWrites() throws {
        try ok(["add", try fixture(chapters: FixtureBooks.chapters(4))])
        var known = Set<Int64>()
        for page in 3...5 { known.insert(Int64(try json(["bookmark", "add", "Tide", "--page", "\(page)"])["id"] as? Int ?? 0)) }
        var page = try self.page(["read", "Tide"]).number
        let databasePath = shelf.home.appendingPathComponent("data/library.sqlite3").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath))
        var generator = SystemRandomNumberGenerator()
        for round in 0..<16 {
            let arguments = round % 2 == 0 ? ["read", "Tide", "--next"] : ["bookmark", "add", "Tide", "--note", "round \(round)"]
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
            XCTAssertEqual(try database.connection.scalar("PRAGMA integrity_check", as: String.self), "ok", "round \(round)")
            let now = try XCTUnwrap(try database.shelfBook(id: "urn:uuid:tide-tables-1")?.progress?.page, "round \(round)")
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
