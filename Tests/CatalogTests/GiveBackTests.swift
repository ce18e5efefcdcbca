import Foundation
import TestSupport
import XCTest

/// Return and cancel-hold act only on what the patron has, at the library that has it (issue 32, item 1). A
/// circulation manager gives a loan and a hold one revoke relation, so following a title's link for the wrong one
/// gives back what the patron meant to keep.
final class GiveBackTests: LibraryTestCase {
    func testReturningATitleOnHoldIsRefusedAndTheHoldKept() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out"])
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 3)
        let refused = try run(["return", "urn:fake:ebook-out"], expect: 64)
        XCTAssertFalse(refused.stdout.contains("Returned"), refused.stdout)
        XCTAssertTrue(
            refused.stderr.contains(
                "“Waiting Game” is on hold at Fake Public Library, not on loan: nothing was returned"),
            refused.stderr)
        XCTAssertTrue(refused.stderr.contains("shelf cancel-hold urn:fake:ebook-out"), refused.stderr)
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 3, "the hold is still the patron's")
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 0, "nothing was sent")
        let holds = try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(holds.count, 1)
    }

    func testCancellingAHoldOnALoanIsRefusedAndTheLoanKept() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let refused = try run(["cancel-hold", "urn:fake:ebook-free", "--json"], expect: 64)
        XCTAssertTrue(
            refused.stderr.contains(
                "“The Open Road” is on loan to you at Fake Public Library, not on hold: nothing was cancelled"),
            refused.stderr)
        XCTAssertTrue(refused.stderr.contains("shelf return urn:fake:ebook-free"), refused.stderr)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"), "the loan is still the patron's")
        XCTAssertEqual(library.server.requests(to: "/works/ebook-free/revoke").count, 0)
    }

    func testATitleNeitherOnLoanNorOnHoldIsRefusedByTheLibrarysWord() throws {
        try addAndLogin()
        try run(["browse"])
        let refused = try run(["return", "urn:fake:audio-free"], expect: 64)
        XCTAssertTrue(
            refused.stderr.contains(
                "“Sound of Rivers” is neither on loan nor on hold at Fake Public Library: nothing was returned"),
            refused.stderr)
        XCTAssertEqual(library.server.requests(to: "/works/audio-free/revoke").count, 0)
    }

    /// Two libraries: the loan is at one, a hold on the same title at the other (the one in use). `return TITLE`
    /// returns the loan where it is, and the hold stays.
    func testAReturnGoesToTheLibraryThatLent() throws {
        try addAndLogin()
        let other = try FakeLibrary()
        defer { other.stop() }
        try run(["browse"])
        try run(["borrow", "urn:fake:audio-free"])  // at "fake"
        try run(["account", "add", other.root, "--name", "other"])
        try run(["account", "use", "other"])
        try run(["login", "--username", other.username, "--password-stdin"], stdin: other.password + "\n")
        other.takeAllCopies("urn:fake:audio-free")
        try run(["browse"])
        try run(["reserve", "urn:fake:audio-free"])
        XCTAssertNotNil(other.holdPosition("urn:fake:audio-free"))

        let returned = try run(["return", "Sound of Rivers"])
        XCTAssertTrue(returned.stdout.contains("Returned “Sound of Rivers”"), returned.stdout)
        XCTAssertFalse(library.onLoan("urn:fake:audio-free"), "the loan was returned at the library that lent it")
        XCTAssertNotNil(other.holdPosition("urn:fake:audio-free"), "the hold at the other library is kept")
        XCTAssertEqual(other.server.requests(to: "/works/audio-free/revoke").count, 0)

        // Named at the wrong library: refused, with where it is.
        try run(["borrow", "urn:fake:audio-free", "--account", "fake"])
        let wrong = try run(["cancel-hold", "urn:fake:audio-free", "--account", "fake"], expect: 64)
        XCTAssertTrue(wrong.stderr.contains("is on loan to you at Fake Public Library, not on hold"), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("shelf return urn:fake:audio-free --account fake"), wrong.stderr)
        XCTAssertTrue(
            wrong.stderr.contains(
                "It is on hold at Fake Public Library: `shelf cancel-hold urn:fake:audio-free --account other`"),
            wrong.stderr)
        XCTAssertTrue(library.onLoan("urn:fake:audio-free"))
    }
}
