import Foundation
import TestSupport
import XCTest

/// Issue 18, items 10 and 11: a wish is found in a library's catalog without the patron browsing it, politely, and
/// one title gives one notice however many wishes name it.
final class WishSearchTests: LibraryTestCase {
    private func wishNotices() throws -> [String] {
        try XCTUnwrap(try run(["notifications", "--json"]).json() as? [[String: Any]])
            .filter { $0["kind"] as? String == "wish-available" }.compactMap { $0["text"] as? String }
    }

    private func searches() -> [LoopbackHTTPServer.Request] { library.server.requests(to: "/search") }

    func testSyncFindsAWishedTitleInACatalogNeverBrowsed() throws {
        library.add(
            .init(
                id: "urn:fake:range", title: "Range", author: "David Epstein", audiobook: false, copies: 2, available: 1
            ))
        try run(["account", "add", library.root, "--name", "fake"])
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        // Nothing browsed or searched: the catalog's entries are unknown to shelf.
        try run(["wish", "Range", "--author", "David Epstein"])
        let synced = try run(["sync"])
        XCTAssertEqual(
            try wishNotices(), ["Range is available to borrow now at Fake Public Library."],
            synced.stdout + synced.stderr)
        let wishes = try XCTUnwrap(try json(run(["wishlist", "--json"]))["wishes"] as? [[String: Any]])
        XCTAssertEqual(wishes.first?["entryId"] as? String, "urn:fake:range")
        // Matched now: later syncs do not search for it again.
        let before = searches().count
        try run(["sync"])
        XCTAssertEqual(searches().count, before)
        XCTAssertEqual(try wishNotices().count, 1, "announced once")
    }

    func testSearchesAreBoundedPerSyncAndAWishNotFoundIsNotSearchedAgainAtOnce() throws {
        try addAndLogin()
        for index in 0..<10 { try run(["wish", "Absent Title \(index)", "--author", "Nobody"]) }
        try run(["sync"])
        let first = searches()
        XCTAssertGreaterThan(first.count, 0)
        XCTAssertLessThanOrEqual(first.count, 6, "a bounded number of searches per sync")
        try run(["sync"])
        let second = Array(searches().dropFirst(first.count))
        XCTAssertGreaterThan(second.count, 0, "the wishes not yet searched come next")
        let queries = { (requests: [LoopbackHTTPServer.Request]) in Set(requests.compactMap { $0.queryItems["q"] }) }
        XCTAssertTrue(queries(first).isDisjoint(with: queries(second)), "the oldest unsearched first, none twice")
    }

    func testTwoWishesForOneTitleGiveOneNotice() throws {
        library.add(
            .init(
                id: "urn:fake:range", title: "Range", author: "David Epstein", audiobook: false, copies: 1, available: 0
            ))
        try addAndLogin()
        try run(["catalog-search", "Range"])
        try run(["wish", "Range", "--author", "David Epstein"])
        try run(["wish", "Range", "--author", "Epstein"])
        library.setAvailable("urn:fake:range", 1)
        let listed = try run(["wishlist"])
        let notice = "Range is available to borrow now at Fake Public Library."
        XCTAssertEqual(listed.stdout.components(separatedBy: notice).count - 1, 1, listed.stdout)
        XCTAssertEqual(try wishNotices(), [notice])
    }
}
