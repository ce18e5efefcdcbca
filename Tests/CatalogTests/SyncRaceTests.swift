import Foundation
import TestSupport
import XCTest

/// A borrow, reserve or return made while a sync waits for the library's loans feed is newer than that feed: the
/// sync never undoes it, and no notice is made again for a hold the patron borrowed meanwhile (issue 32, item 4).
final class SyncRaceTests: LibraryTestCase {
    /// Starts `shelf sync` on its own thread, waits until the library has its loans request (whose answer is made now
    /// and arrives `delay` later), runs `meanwhile`, and returns once the sync ended.
    func syncWhile(delay: TimeInterval = 3, _ meanwhile: () throws -> Void) throws {
        let asked = library.server.requests(to: "/loans").count
        library.loansDelay = delay
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var synced: ShelfProcess.Result?  // written before done.signal(), read after wait
        DispatchQueue.global().async {
            synced = try? self.shelf.run(["sync"])
            done.signal()
        }
        let deadline = Date().addingTimeInterval(20)
        while library.server.requests(to: "/loans").count == asked && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        library.loansDelay = 0
        try meanwhile()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(synced?.status, 0, "\(synced?.stdout ?? "") \(synced?.stderr ?? "")")
    }

    func loans() throws -> [String] {
        try XCTUnwrap(try run(["loans", "--json"]).json() as? [[String: Any]]).compactMap {
            ($0["entry"] as? [String: Any])?["id"] as? String
        }
    }

    func holds() throws -> [String] {
        try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]]).compactMap {
            ($0["entry"] as? [String: Any])?["id"] as? String
        }
    }

    func testABorrowDuringASyncIsNotUndoneByItsOlderAnswer() throws {
        try addAndLogin()
        try run(["browse"])
        try syncWhile {
            try run(["borrow", "urn:fake:ebook-free"])
        }
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        XCTAssertEqual(try loans(), ["urn:fake:ebook-free"], "the loan made during the sync is in My Books")
        // The next sync, asked after the borrow, agrees.
        let again = try run(["sync", "--json"])
        XCTAssertEqual(try loans(), ["urn:fake:ebook-free"], String(again.stdout.prefix(1500)) + again.stderr)
    }

    func testAReturnAndAReserveDuringASyncStay() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try syncWhile {
            try run(["return", "urn:fake:ebook-free"])
            try run(["reserve", "urn:fake:ebook-out"])
        }
        XCTAssertEqual(try loans(), [], "the returned loan does not come back from the older answer")
        XCTAssertEqual(try holds(), ["urn:fake:ebook-out"], "the hold placed during the sync is in Reservations")
    }

    func testAReadyHoldBorrowedDuringASyncIsNotAnnouncedAgain() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady("urn:fake:ebook-out")
        try run(["sync"])
        try syncWhile {
            try run(["borrow", "urn:fake:ebook-out"])
        }
        XCTAssertEqual(try loans(), ["urn:fake:ebook-out"])
        XCTAssertEqual(try holds(), [])
        let unread = try XCTUnwrap(try run(["notifications", "--json"]).json() as? [[String: Any]])
        XCTAssertFalse(unread.contains { $0["kind"] as? String == "hold-ready" }, "\(unread)")
    }
}
