import Foundation
import TestSupport
import XCTest

/// Issue 32, defect 0: an answer shelf could not read never makes a command act on what it guessed. A borrow of a
/// ready hold answered with a web page, the library having lent nothing, left the patron's hold cancelled by shelf
/// (it took the hold for one the library had placed because of the borrow).
final class UnreadableAnswerTests: LibraryTestCase {
    private func readyHold() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady("urn:fake:ebook-out")
        try run(["sync"])
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 1)
    }

    func testAGarbageBorrowAnswerKeepsTheReadyHold() throws {
        try readyHold()
        for fault in [FakeLibrary.Fault.garbage, .malformed, .truncated] {
            library.inject(fault, on: .borrow, acts: false, times: 1)
            let result = try run(["borrow", "urn:fake:ebook-out"], expect: 69)
            XCTAssertEqual(
                library.holdPosition("urn:fake:ebook-out"), 1, "shelf cancelled the patron's hold (\(fault))")
            XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 0, "\(fault)")
            XCTAssertTrue(result.stdout.contains("Nothing was borrowed"), result.stdout)
            XCTAssertFalse(result.stdout.contains("cancelled"), result.stdout)
            XCTAssertFalse(result.stdout.contains("placed"), result.stdout)
            let holds = try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
            XCTAssertEqual(holds.count, 1, "the hold is still in Reservations")
        }
        // Answered properly, the same borrow lends the waiting copy.
        try run(["borrow", "urn:fake:ebook-out"])
        XCTAssertTrue(library.onLoan("urn:fake:ebook-out"))
    }

    /// A return answered with the loan's own entry, still on loan, is no return: shelf asks again and keeps the loan.
    func testAReturnAnsweredWithTheLoanStillListedIsNotAReturn() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        library.refuseToAct(on: .revoke)
        let result = try run(["return", "urn:fake:ebook-free"], expect: 75)
        XCTAssertFalse(result.stdout.contains("Returned"), result.stdout)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        let loans = try XCTUnwrap(try run(["loans", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(loans.count, 1, "the loan is still in My Books")
    }
}
