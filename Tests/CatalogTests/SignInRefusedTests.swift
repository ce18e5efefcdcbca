import Foundation
import ShelfLibrary
import TestSupport
import XCTest

/// The library refuses the stored sign-in (the PIN changed at the library): `status` and `account list` say so
/// instead of "signed in", until a sync or a new sign-in gets in (issue 32, item 6).
final class SignInRefusedTests: LibraryTestCase {
    func testARefusedSignInIsSaidUntilTheLibraryLetsItIn() throws {
        try addAndLogin()
        try run(["sync"])
        library.password = "changed-at-the-library"
        library.forgetTokens()
        try run(["sync"], expect: 77)

        let status = try run(["status"])
        XCTAssertTrue(status.stdout.contains("sign-in refused"), status.stdout)
        XCTAssertFalse(status.stdout.contains("signed in ·"), status.stdout)
        let list = try run(["account", "list"])
        XCTAssertTrue(list.stdout.contains("Sign-in refused"), list.stdout)
        XCTAssertFalse(list.stdout.contains("Signed in"), list.stdout)
        let document = try XCTUnwrap(try run(["account", "list", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(document.first?["signInRefused"] as? Bool, true)
        let statusDocument = try json(try run(["status", "--json"]))
        XCTAssertEqual((statusDocument["accounts"] as? [[String: Any]])?.first?["signInRefused"] as? Bool, true)

        // Signed in again with the new PIN: no longer refused.
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        XCTAssertTrue(try run(["account", "list"]).stdout.contains("Signed in"))
        XCTAssertFalse(try run(["status"]).stdout.contains("sign-in refused"))
    }
}

/// Item 6, the watcher's side: a refused sign-in is said once (again only after a sync got in and it was refused
/// anew), and the notices the stored end dates allow are still made, marked as not confirmed by the library.
final class WatcherSignInRefusedTests: LibraryTestCase {
    private func cycleTexts(_ result: ShelfProcess.Result) throws -> [String] {
        let document = try XCTUnwrap(result.json() as? [String: Any])
        return (document["notifications"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    func testTheWatcherSaysARefusalOnceAndMakesTheStoredNoticesUnconfirmed() throws {
        try addAndLogin()
        try run(["browse"])
        // A loan with 20 hours left, stored by the borrow; no sync has run the rules on it yet.
        library.setLoanEnd("urn:fake:ebook-free", library.now.addingTimeInterval(20 * 3_600))
        try run(["borrow", "urn:fake:ebook-free"])
        library.password = "changed-at-the-library"
        library.forgetTokens()

        let first = try cycleTexts(try run(["watch", "--once", "--json"], expect: 75))
        XCTAssertEqual(
            first.filter {
                $0
                    == "Fake Public Library refused your sign-in: loans and holds are not updated until you sign in again."
            }
            .count, 1, "\(first)")
        XCTAssertTrue(
            first.contains(
                "The Open Road has one day left before it must be returned. (Not confirmed by the library: your "
                    + "sign-in was refused.)"), "\(first)")
        // The next pass (once its back-off is over) says nothing again.
        let database = shelf.home.appendingPathComponent("data/library.sqlite3").path
        func clearBackoff() throws {
            let db = try LibraryDatabase(path: database)
            defer { db.close() }
            try db.setMeta("watch.backoff.fake", nil)
        }
        try clearBackoff()
        XCTAssertTrue(try cycleTexts(try run(["watch", "--once", "--json"], expect: 75)).isEmpty)

        // In again, then refused again: said again.
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        try clearBackoff()
        try run(["watch", "--once"])
        library.forgetTokens()
        library.password = "changed-again"
        try clearBackoff()
        let again = try cycleTexts(try run(["watch", "--once", "--json"], expect: 75))
        XCTAssertTrue(again.contains { $0.hasPrefix("Fake Public Library refused your sign-in") }, "\(again)")
    }
}
