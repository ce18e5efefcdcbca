import Foundation
import ShelfCore
import ShelfLibrary
import TestSupport
import XCTest

/// Issue 32, item 3: the wish list and `shelf book` never say a title is available from what shelf saw before; they
/// ask the library (each account) or say how old what they show is. A wish is looked for at every account, and a copy
/// freed at any of them is announced.
final class FreshAvailabilityTests: LibraryTestCase {
    /// Makes every catalog entry shelf remembers `days` old, as if the library had last been asked then.
    private func ageSightings(days: Double) throws {
        let database = try LibraryDatabase(path: shelf.home.appendingPathComponent("data/library.sqlite3").path)
        defer { database.close() }
        let then = Date().addingTimeInterval(-days * 86_400).databaseMilliseconds
        try database.connection.execute("UPDATE catalog_entries SET seen_at = ?", [then])
    }

    private func wishWords() throws -> [String] {
        let document = try XCTUnwrap(try run(["wishlist", "--json"]).json() as? [String: Any])
        return try XCTUnwrap(document["wishes"] as? [[String: Any]]).compactMap { $0["words"] as? String }
    }

    func testTheWishListAsksTheLibraryAboutAWishSeenFree() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["wish", "The Open Road"])
        // Another patron takes every copy: the wish list must not go on saying one is free.
        library.takeAllCopies("urn:fake:ebook-free")
        library.server.clearRequests()
        let words = try wishWords()
        XCTAssertGreaterThan(library.server.requests(to: "/works/ebook-free").count, 0, "the library was not asked")
        XCTAssertEqual(words.count, 1)
        XCTAssertTrue(words[0].hasPrefix("0 of 3 copies available"), words[0])
    }

    func testAnOldSightingIsSaidWithItsAgeAndNeverAnnounced() throws {
        try addAndLogin()
        library.takeAllCopies("urn:fake:ebook-free")
        try run(["browse"])
        try run(["wish", "The Open Road"])
        // Seen free three days ago, and the library does not answer now.
        library.setAvailable("urn:fake:ebook-free", 2)
        try run(["browse"])
        try ageSightings(days: 3)
        library.inject(.garbage, on: .entry)
        let listed = try run(["wishlist"])
        XCTAssertTrue(listed.stdout.contains("seen 3 days ago: 2 of 3 copies available"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("available to borrow now"), listed.stdout)
        let notices = try run(["notifications", "--json"]).stdout
        XCTAssertFalse(notices.contains("available to borrow now"), notices)
        // The library answers again: now it is said, and announced.
        library.clearFaults()
        let again = try run(["wishlist"])
        XCTAssertTrue(again.stdout.contains("The Open Road is available to borrow now at"), again.stdout)
        XCTAssertFalse(again.stdout.contains("seen 3 days ago"), again.stdout)
    }

    func testBookSaysHowOldWhatItShowsIsWhenTheLibraryDoesNotAnswer() throws {
        try addAndLogin()
        try run(["browse"])
        try ageSightings(days: 3)
        library.inject(.garbage, on: .entry)
        let shown = try run(["book", "urn:fake:ebook-free"])
        XCTAssertTrue(
            shown.stdout.contains(
                "The library did not answer just now: this is what shelf saw of this title before (seen 3 days ago)."),
            shown.stdout)
        let json = try XCTUnwrap(try run(["book", "urn:fake:ebook-free", "--json"]).json() as? [String: Any])
        XCTAssertEqual(
            json["availabilityNote"] as? String,
            "The library did not answer just now: this is what shelf saw of this title before (seen 3 days ago).")
        library.clearFaults()
        let answered = try run(["book", "urn:fake:ebook-free"])
        XCTAssertFalse(answered.stdout.contains("did not answer"), answered.stdout)
    }

    /// Two libraries: the wish matched at the first; a copy freed at the second is seen and announced there.
    func testACopyFreedAtAnyLibraryIsAnnounced() throws {
        let other = try FakeLibrary()
        defer { other.stop() }
        try addAndLogin()
        try run(["account", "add", other.root, "--name", "other"])
        try run(["login", "other", "--username", other.username, "--password-stdin"], stdin: other.password + "\n")
        library.takeAllCopies("urn:fake:ebook-free")
        other.takeAllCopies("urn:fake:ebook-free")
        try run(["browse", "--account", "fake"])
        try run(["browse", "--account", "other"])
        try run(["wish", "The Open Road"])
        other.setAvailable("urn:fake:ebook-free", 1)
        let listed = try run(["wishlist"])
        XCTAssertTrue(
            listed.stdout.contains("The Open Road is available to borrow now at Fake Public Library"), listed.stdout)
        let document = try XCTUnwrap(try run(["wishlist", "--json"]).json() as? [String: Any])
        let wish = try XCTUnwrap((document["wishes"] as? [[String: Any]])?.first)
        XCTAssertEqual(wish["account"] as? String, "other")
        XCTAssertEqual(wish["available"] as? Bool, true)
    }
}
