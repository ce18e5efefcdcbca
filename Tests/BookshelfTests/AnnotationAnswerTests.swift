import Foundation
import Host
import TestSupport
import XCTest

/// What annotation sync used to drop (`try?` and an ignored result, issue 13): a bookmark the library took without
/// giving it an id, and a failure while `shelf sync` synced annotations. Both are said now.
final class AnnotationAnswerTests: BookshelfTestCase {
    var library: FakeLibrary!
    var service: FakeAnnotationService!
    let entryID = "urn:fake:ebook-free"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let book = try fixture(chapters: FixtureBooks.chapters(2, paragraphs: 12))
        library = try FakeLibrary(epub: try Data(contentsOf: URL(fileURLWithPath: book)))
        service = FakeAnnotationService(library: library, ids: [entryID])
        _ = try ok(["account", "add", library.root, "--name", "fake"])
        let login = try shelf.run(
            ["login", "--username", library.username, "--password-stdin"], stdin: Data((library.password + "\n").utf8))
        XCTAssertEqual(login.status, 0, login.stderr)
        shelf.environment["SHELF_HTTP_RETRIES"] = "1"
        _ = try ok(["browse"])
        _ = try ok(["borrow", entryID])
        _ = try ok(["download", entryID])
    }

    override func tearDown() {
        library?.stop()
        super.tearDown()
    }

    func bookID() throws -> String {
        let books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        return try XCTUnwrap(books.first?["id"] as? String, "\(books)")
    }

    /// The library answers a bookmark's POST 200 with a body that is no annotation and no Location: the bookmark is
    /// there, but without an id shelf cannot know it again. It used to count as sent; now it is a problem said.
    func testABookmarkTheLibraryGaveNoIdIsSaid() throws {
        let book = try bookID()
        _ = try ok(["bookmark", "add", book, "--page", "2"])
        library.server.route("POST", "/annotations/\(FakeLibrary.key(entryID))/", .text("ok"))
        let result = try shelf.run(["annotations", "sync", book, "--json"])
        XCTAssertEqual(result.status, 75, result.stderr)
        let outcome = try XCTUnwrap((try result.json() as? [[String: Any]])?.first)
        XCTAssertEqual(outcome["bookmarksSent"] as? Int, 0, "\(outcome)")
        let problems = outcome["problems"] as? [String] ?? []
        XCTAssertTrue(problems.contains { $0.contains("gave it no id") }, "\(outcome)")
    }

    /// `shelf sync` syncs annotations after the loans; when that fails the sync still succeeds, and now says what
    /// was not synced (it said nothing).
    func testASyncSaysWhenAnnotationsWereNotSynced() throws {
        _ = try ok(["read", try bookID(), "--goto", "2"])
        service.fault = .text(
            #"{"title": "Internal error", "status": 500}"#, status: 500, contentType: "application/api-problem+json")
        let synced = try ok(["sync"])
        // One line, in the host's own words (not "shelf: shelf: ...", as a plugin's would be named).
        XCTAssertTrue(synced.stderr.contains("shelf: warning: the reading position and bookmarks of "), synced.stderr)
        XCTAssertTrue(synced.stderr.contains("were not synced"), synced.stderr)
    }
}
