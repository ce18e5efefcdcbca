import Foundation
import Host
import ShelfReader
import TestSupport
import XCTest

/// Annotation sync (issue 8, item 7): two "devices" — two SHELF_HOMEs signed in to the same account of the loopback
/// library — continue each other's reading through a scripted W3C Web Annotation service.
final class AnnotationSyncTests: BookshelfTestCase {
    var library: FakeLibrary!
    var service: FakeAnnotationService!
    var other: ShelfProcess!
    let entryID = "urn:fake:ebook-free"
    let idling = "http://librarysimplified.org/terms/annotation/idling"
    let bookmarking = "http://www.w3.org/ns/oa#bookmarking"

    override func setUpWithError() throws {
        try super.setUpWithError()
        // The library lends a real book: a cover and 4 chapters of 12 paragraphs (4 pages each).
        let book = try fixture(chapters: FixtureBooks.chapters(4, paragraphs: 12))
        library = try FakeLibrary(epub: try Data(contentsOf: URL(fileURLWithPath: book)))
        service = FakeAnnotationService(library: library, ids: [entryID])
        other = try ShelfProcess()
        for device in [shelf!, other!] {
            try run(device, ["account", "add", library.root, "--name", "fake"])
            try run(
                device, ["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        }
        shelf.environment["SHELF_HTTP_RETRIES"] = "1"
        other.environment["SHELF_HTTP_RETRIES"] = "1"
    }

    override func tearDown() {
        library?.stop()
        other?.cleanUp()
        super.tearDown()
    }

    @discardableResult
    func run(
        _ device: ShelfProcess, _ arguments: [String], stdin: String? = nil, expect status: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ShelfProcess.Result {
        let result = try device.run(arguments, stdin: stdin.map { Data($0.utf8) })
        XCTAssertEqual(
            result.status, status, "shelf \(arguments.joined(separator: " ")):\n\(result.stdout)\n\(result.stderr)",
            file: file, line: line)
        return result
    }

    func object(_ device: ShelfProcess, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line)
        throws -> Any
    {
        let result = try run(device, arguments + ["--json"], file: file, line: line)
        return try result.json()
    }

    /// The page `device` resumes at.
    func resumes(_ device: ShelfProcess, _ book: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> Int
    {
        (try object(device, ["read", book], file: file, line: line) as? [String: Any])?["page"] as? Int ?? -1
    }

    func bookmarks(_ device: ShelfProcess, _ book: String) throws -> [[String: Any]] {
        try object(device, ["bookmarks", book]) as? [[String: Any]] ?? []
    }

    @discardableResult
    func syncResults(
        _ device: ShelfProcess, _ arguments: [String] = [], expect status: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [[String: Any]] {
        let result = try run(
            device, ["annotations", "sync"] + arguments + ["--json"], expect: status, file: file, line: line)
        return try result.json() as? [[String: Any]] ?? []
    }

    func locator(_ json: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Downloads the loan on `device` and returns its shelf id.
    func download(_ device: ShelfProcess) throws -> String {
        try run(device, ["download", entryID])
        let books = try object(device, ["books"]) as? [[String: Any]] ?? []
        return try XCTUnwrap(books.first?["id"] as? String, "\(books)")
    }

    func testTwoDevicesConverge() throws {
        // Device A borrows, reads to page 5, bookmarks page 7, syncs.
        try run(shelf, ["browse"])
        try run(shelf, ["borrow", entryID])
        let bookA = try download(shelf)
        XCTAssertEqual(try page(["read", bookA, "--goto", "5"]).number, 5)
        let mark = try json(["bookmark", "add", bookA, "--page", "7"])
        let markLocator = try XCTUnwrap(mark["locator"] as? [String: Any])
        var results = try syncResults(shelf, [bookA])
        XCTAssertEqual(results.first?["position"] as? String, "sent", "\(results)")
        XCTAssertEqual(results.first?["bookmarksSent"] as? Int, 1)

        // What went over the wire: W3C Web Annotations with Readium locators in fragment selectors.
        let position = try XCTUnwrap(service.annotations(entryID, motivation: idling).first)
        XCTAssertEqual(position["@context"] as? String, "http://www.w3.org/ns/anno.jsonld")
        XCTAssertEqual(position["type"] as? String, "Annotation")
        let target = try XCTUnwrap(position["target"] as? [String: Any])
        XCTAssertEqual(target["source"] as? String, entryID)
        let selector = try XCTUnwrap(target["selector"] as? [String: Any])
        XCTAssertEqual(selector["type"] as? String, "oa:FragmentSelector")
        let sent = try locator(try XCTUnwrap(selector["value"] as? String))
        XCTAssertEqual((sent["locations"] as? [String: Any])?["position"] as? Int, 5)
        XCTAssertNotNil((sent["text"] as? [String: Any])?["highlight"] as? String, "the locator carries its text quote")
        let body = try XCTUnwrap(position["body"] as? [String: Any])
        XCTAssertTrue((body["http://librarysimplified.org/terms/device"] as? String)?.hasPrefix("urn:uuid:") == true)
        XCTAssertNotNil(body["http://librarysimplified.org/terms/time"] as? String)
        XCTAssertEqual(service.annotations(entryID, motivation: bookmarking).count, 1)
        // A second sync has nothing to send.
        results = try syncResults(shelf)
        XCTAssertEqual(results.first?["position"] as? String, "unchanged", "\(results)")
        XCTAssertEqual(results.first?["bookmarksSent"] as? Int, 0)
        XCTAssertEqual(service.annotations(entryID, motivation: bookmarking).count, 1)

        // Device B (same account) fetches the loan, downloads it, syncs: it resumes at page 5 with the bookmark.
        try run(other, ["sync"])
        let bookB = try download(other)
        results = try syncResults(other)
        XCTAssertEqual(results.first?["position"] as? String, "fetched", "\(results)")
        XCTAssertEqual(results.first?["bookmarksFetched"] as? Int, 1)
        XCTAssertEqual(try resumes(other, bookB), 5)
        var marksB = try bookmarks(other, bookB)
        XCTAssertEqual(marksB.count, 1)
        XCTAssertEqual(marksB.first?["page"] as? Int, 7)
        XCTAssertEqual((marksB.first?["locator"] as? [String: Any])?["href"] as? String, markLocator["href"] as? String)

        // B reads further; `shelf sync` (loans) sends it, and A's `shelf sync` brings A to B's page.
        for _ in 0..<4 { try run(other, ["read", bookB, "--next"]) }
        XCTAssertEqual(try resumes(other, bookB), 9)
        try run(other, ["sync"])
        let value =
            ((service.annotations(entryID, motivation: idling).first?["target"] as? [String: Any])?["selector"]
            as? [String: Any])?["value"] as? String
        XCTAssertEqual((try locator(try XCTUnwrap(value))["locations"] as? [String: Any])?["position"] as? Int, 9)
        try run(shelf, ["sync"])
        XCTAssertEqual(try resumes(shelf, bookA), 9)
        // The furthest place wins: A going back is not undone by a sync, but B's further place is never lost.
        XCTAssertEqual(try page(["read", bookA, "--goto", "3"]).number, 3)
        results = try syncResults(shelf)
        XCTAssertEqual(results.first?["position"] as? String, "fetched")
        XCTAssertEqual(try resumes(shelf, bookA), 9)

        // Both bookmark the same page: kept once. A bookmark removed on A disappears on B.
        try run(other, ["bookmark", "add", bookB, "--page", "12"])
        try run(shelf, ["bookmark", "add", bookA, "--page", "12"])
        try syncResults(other)
        try syncResults(shelf)
        try syncResults(other)
        XCTAssertEqual(service.annotations(entryID, motivation: bookmarking).count, 2)
        XCTAssertEqual(try bookmarks(shelf, bookA).count, 2)
        XCTAssertEqual(try bookmarks(other, bookB).count, 2)
        let markID = try XCTUnwrap(mark["id"] as? Int)
        try run(shelf, ["bookmark", "remove", "\(markID)"])
        results = try syncResults(shelf)
        XCTAssertEqual(results.first?["bookmarksRemovedThere"] as? Int, 1, "\(results)")
        XCTAssertEqual(service.annotations(entryID, motivation: bookmarking).count, 1)
        results = try syncResults(other)
        XCTAssertEqual(results.first?["bookmarksRemovedHere"] as? Int, 1, "\(results)")
        marksB = try bookmarks(other, bookB)
        XCTAssertEqual(marksB.map { $0["page"] as? Int }, [12])
    }

    func testABrokenServiceChangesNothingHere() throws {
        try run(shelf, ["browse"])
        try run(shelf, ["borrow", entryID])
        let bookA = try download(shelf)
        XCTAssertEqual(try page(["read", bookA, "--goto", "6"]).number, 6)
        try run(shelf, ["bookmark", "add", bookA, "--page", "8"])
        try syncResults(shelf)
        try run(other, ["sync"])
        let bookB = try download(other)
        XCTAssertEqual((try object(other, ["read", bookB, "--goto", "2"]) as? [String: Any])?["page"] as? Int, 2)

        let faults: [(String, LoopbackHTTPServer.Response)] = [
            (
                "500",
                .text(
                    #"{"title": "Internal error", "status": 500}"#, status: 500,
                    contentType: "application/api-problem+json")
            ),
            ("garbage", .text("<html><body>Gateway says hello</body></html>", contentType: "application/ld+json")),
            (
                "wrong JSON",
                .text(#"{"type": "AnnotationCollection", "first": "nope"}"#, contentType: "application/ld+json")
            )
        ]
        for (name, fault) in faults {
            service.fault = fault
            // B: the sync fails; its place and (absent) bookmarks are as they were.
            let failed = try syncResults(other, expect: 75)
            XCTAssertNotNil(failed.first?["error"] as? String, "\(name): \(failed)")
            XCTAssertEqual(try resumes(other, bookB), 2, name)
            XCTAssertTrue(try bookmarks(other, bookB).isEmpty, name)
            let one = try run(other, ["annotations", "sync", bookB], expect: name == "500" ? 75 : 65)
            XCTAssertTrue(one.stderr.contains("Nothing stored") || name == "500", one.stderr)
            // A moves on and bookmarks while the service is down: nothing is lost, and `shelf sync` still succeeds.
            try run(shelf, ["read", bookA, "--next"])
            try run(shelf, ["bookmark", "add", bookA])
            try run(shelf, ["sync"])
        }
        XCTAssertEqual(try resumes(shelf, bookA), 9)
        XCTAssertEqual(try bookmarks(shelf, bookA).count, 4)

        // The service comes back: everything A did while it was down goes over, and B catches up.
        service.fault = nil
        let results = try syncResults(shelf)
        XCTAssertEqual(results.first?["bookmarksSent"] as? Int, 3, "\(results)")
        try syncResults(other)
        XCTAssertEqual(try resumes(other, bookB), 9)
        XCTAssertEqual(try bookmarks(other, bookB).count, 4)
    }

    func testBooksWithoutTheLinkAreLeftAlone() throws {
        library.offersAnnotations = false
        try run(shelf, ["browse"])
        try run(shelf, ["borrow", entryID])
        let book = try download(shelf)
        try run(shelf, ["read", book])
        XCTAssertEqual(try syncResults(shelf).count, 0)
        try run(shelf, ["annotations", "sync", book], expect: 69)
        try run(shelf, ["annotations", "sync", book, "extra"], expect: 64)
        try run(shelf, ["annotations", "pull"], expect: 64)
        XCTAssertTrue(library.server.requests.allSatisfy { !$0.path.hasPrefix("/annotations/") })
    }
}
