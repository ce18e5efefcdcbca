import Foundation
import TestSupport
import XCTest

/// Issue 18, items 1-4: what shelf says about a borrow, hold or return comes only from an answer read completely.
/// The fake library on loopback answers with malformed, truncated, stalled, never-ending and garbage answers; after
/// each case the library's state and shelf's agree (or shelf says it could not tell, exits 75 and changed nothing).
final class CirculationFaultTests: LibraryTestCase {
    private func storedLoans() throws -> [String] {
        try XCTUnwrap(try run(["loans", "--json"]).json() as? [[String: Any]]).compactMap {
            ($0["entry"] as? [String: Any])?["id"] as? String
        }
    }

    private func storedHolds() throws -> [String] {
        try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]]).compactMap {
            ($0["entry"] as? [String: Any])?["id"] as? String
        }
    }

    /// Asserts that shelf's loans are exactly the library's.
    private func assertLoansAgree(file: StaticString = #filePath, line: UInt = #line) throws {
        let library = Set(
            ["urn:fake:ebook-free", "urn:fake:ebook-out", "urn:fake:audio-free", "urn:fake:classic"]
                .filter { self.library.onLoan($0) })
        XCTAssertEqual(
            Set(try storedLoans()), library, "shelf's loans and the library's differ", file: file, line: line)
    }

    private func requests(_ path: String) -> Int { library.server.requests(to: path).count }

    // MARK: Item 1: a 200 that is not a readable entry never reports success

    func testBorrowAnsweredWithGarbageThatLentNothingIsNotReportedAsALoan() throws {
        try addAndLogin()
        try run(["browse"])
        for fault in [FakeLibrary.Fault.garbage, .malformed] {
            library.inject(fault, on: .borrow, acts: false)
            let result = try run(["borrow", "urn:fake:ebook-free"], expect: 75)
            XCTAssertFalse(result.stdout.contains("Borrowed"), result.stdout)
            XCTAssertTrue(result.stderr.contains("nothing was borrowed"), result.stderr)
            XCTAssertFalse(library.onLoan("urn:fake:ebook-free"))
            try assertLoansAgree()
            XCTAssertEqual(requests("/works/ebook-free/borrow"), 1, "the borrow was sent again")
            library.server.clearRequests()
        }
    }

    func testBorrowAnsweredWithGarbageThatDidLendIsConfirmedByAskingAgain() throws {
        try addAndLogin()
        try run(["browse"])
        library.inject(.garbage, on: .borrow, acts: true)
        let result = try run(["borrow", "urn:fake:ebook-free"])
        XCTAssertTrue(result.stdout.contains("Borrowed"), result.stdout)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        try assertLoansAgree()
        XCTAssertEqual(requests("/works/ebook-free/borrow"), 1)
    }

    func testReturnAnsweredWithGarbageThatTookNothingBackKeepsTheLoan() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        library.inject(.garbage, on: .revoke, acts: false)
        let result = try run(["return", "urn:fake:ebook-free"], expect: 75)
        XCTAssertFalse(result.stdout.contains("Returned"), result.stdout)
        XCTAssertTrue(result.stderr.contains("still lists"), result.stderr)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        try assertLoansAgree()
    }

    /// The same for the file of a loan: a 200 whose body is a web page (or a token document that is not one) is not
    /// a download. Nothing is kept, nothing is put on the shelf, and a copy downloaded before stays as it was.
    func testDownloadAnsweredWithGarbageKeepsNothingAndNeverReplacesTheBook() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let folder = shelf.home.appendingPathComponent("data/downloads/fake")
        func files() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        }
        library.inject(.garbage, on: .fulfil, times: 1)
        let garbage = try run(["download", "urn:fake:ebook-free"], expect: 75)
        XCTAssertFalse(garbage.stdout.contains("Downloaded"), garbage.stdout)
        XCTAssertTrue(garbage.stderr.contains("web page"), garbage.stderr)
        XCTAssertEqual(files(), [], "a garbage answer was kept")
        XCTAssertEqual(
            try XCTUnwrap(try run(["books", "--json"]).json() as? [Any]).count, 0, "a garbage answer went on the shelf")

        let good = try json(run(["download", "urn:fake:ebook-free", "--json"]))
        let path = try XCTUnwrap(good["path"] as? String)
        XCTAssertEqual(FileManager.default.contents(atPath: path), library.epub)
        library.inject(.garbage, on: .fulfil, times: 1)
        try run(["download", "urn:fake:ebook-free"], expect: 75)
        XCTAssertEqual(FileManager.default.contents(atPath: path), library.epub, "a garbage answer replaced the book")
        XCTAssertEqual(files(), [URL(fileURLWithPath: path).lastPathComponent])

        // A bearer-token step answered with garbage: not followed, nothing kept.
        library.add(
            FakeLibrary.Book(
                id: "urn:fake:bearer", title: "Token Tale", author: "Fay Key", audiobook: false,
                copies: 1, available: 1, fulfilment: "bearer"))
        try run(["browse"])
        try run(["borrow", "urn:fake:bearer"])
        library.inject(.garbage, on: .fulfil, times: 1)
        let token = try run(["download", "urn:fake:bearer"], expect: 75)
        XCTAssertTrue(token.stderr.contains("instead of a bearer-token document"), token.stderr)
        XCTAssertEqual(files(), [URL(fileURLWithPath: path).lastPathComponent])
    }

    // MARK: Item 2: unreadable answers; ask again, never re-send, stale data never decides

    func testBorrowWithTruncatedEntryNeverDecidesFromStaleDataAndSendsTheBorrowOnce() throws {
        shelf.environment["SHELF_HTTP_RETRIES"] = "4"
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        // The loan ends at the library; shelf's stored copy still says "on loan".
        library.expireLoan("urn:fake:ebook-free")
        library.inject(.truncated, on: .entry)
        library.inject(.truncated, on: .borrow)
        // The loans feed, read whole, says there is no loan: shelf drops its stale copy and, without the title's
        // own entry (and its borrow link), says it could not borrow.
        let stale = try run(["borrow", "urn:fake:ebook-free"], expect: 75)
        XCTAssertFalse(stale.stdout.contains("already on loan"), stale.stdout)
        XCTAssertTrue(stale.stderr.contains("nothing was borrowed"), stale.stderr)
        try assertLoansAgree()
        // Found again in the catalog, the borrow is sent once; its truncated answer is confirmed by the loans feed.
        library.clearFaults()
        try run(["browse"])
        library.inject(.truncated, on: .entry)
        library.inject(.truncated, on: .borrow)
        let result = try run(["borrow", "urn:fake:ebook-free"])
        XCTAssertTrue(result.stdout.contains("Borrowed"), result.stdout)
        XCTAssertEqual(requests("/works/ebook-free/borrow"), 2, "one borrow before, exactly one now")
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        try assertLoansAgree()
    }

    func testReturnWithTruncatedAnswerIsSentOnceAndConfirmedFromTheLoansFeed() throws {
        shelf.environment["SHELF_HTTP_RETRIES"] = "4"
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        library.inject(.truncated, on: .revoke)
        library.inject(.truncated, on: .entry)
        let result = try run(["return", "urn:fake:ebook-free"])
        XCTAssertTrue(result.stdout.contains("Returned"), result.stdout)
        XCTAssertEqual(requests("/works/ebook-free/revoke"), 1, "the revoke was re-sent")
        XCTAssertFalse(library.onLoan("urn:fake:ebook-free"))
        try assertLoansAgree()
    }

    func testUnreadableEverywhereSaysTheLibraryDidNotConfirmAndChangesNothing() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        for route in [FakeLibrary.Route.revoke, .entry, .loans] { library.inject(.truncated, on: route) }
        let result = try run(["return", "urn:fake:ebook-free"], expect: 75)
        XCTAssertTrue(result.stderr.contains("the library did not confirm"), result.stderr)
        XCTAssertTrue(result.stderr.contains("run `shelf sync`"), result.stderr)
        // Nothing stored changed: the loan is still listed until the library says otherwise.
        XCTAssertEqual(try storedLoans(), ["urn:fake:ebook-free"])
        XCTAssertEqual(requests("/works/ebook-free/revoke"), 1)
        // The library did take it back; the sync shelf advised brings both into agreement.
        library.clearFaults()
        try run(["sync"])
        try assertLoansAgree()
    }

    func testReserveAndCancelHoldWithMalformedAnswersAreConfirmedByAskingAgain() throws {
        try addAndLogin()
        try run(["browse"])
        library.inject(.malformed, on: .borrow)
        let reserved = try run(["reserve", "urn:fake:ebook-out"])
        XCTAssertTrue(reserved.stdout.contains("Reserved"), reserved.stdout)
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 3)
        XCTAssertEqual(try storedHolds(), ["urn:fake:ebook-out"])
        library.inject(.malformed, on: .revoke)
        try run(["cancel-hold", "urn:fake:ebook-out"])
        XCTAssertNil(library.holdPosition("urn:fake:ebook-out"))
        XCTAssertEqual(try storedHolds(), [])
        XCTAssertEqual(requests("/works/ebook-out/revoke"), 1)
    }

    func testReturnOfALoanTheLibraryNoLongerHasRemovesTheStaleCopy() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        library.expireLoan("urn:fake:ebook-free")
        let result = try run(["return", "urn:fake:ebook-free"], expect: 69)
        XCTAssertTrue(result.stderr.contains("has no loan"), result.stderr)
        try assertLoansAgree()
    }

    func testSyncAnsweredWithAPageOfGarbageKeepsTheLoans() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        for fault in [FakeLibrary.Fault.garbage, .malformed, .truncated] {
            library.inject(fault, on: .loans)
            let failed = try shelf.run(["sync"])
            XCTAssertNotEqual(failed.status, 0, "\(fault): " + failed.stdout)
            XCTAssertEqual(try storedLoans(), ["urn:fake:ebook-free"], "\(fault)")
        }
    }

    // MARK: Item 3: a loan not downloaded yet

    func testBorrowingWhatIsAlreadyOnLoanAndNotDownloadedSaysSo() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let again = try run(["borrow", "urn:fake:ebook-free"])
        XCTAssertTrue(again.stdout.contains("already on loan"), again.stdout)
        try assertLoansAgree()
    }

    // MARK: Item 4: one deadline per command; Ctrl-C ends it

    func testALibraryThatNeverAnswersCostsOneDeadlineNotFourTimeouts() throws {
        shelf.environment["SHELF_HTTP_RETRIES"] = "4"
        shelf.environment["SHELF_HTTP_TIMEOUT"] = "30"
        shelf.environment["SHELF_DEADLINE"] = "3"
        try addAndLogin()
        try run(["browse"])
        for route in FakeLibrary.Route.allCases { library.inject(.neverAnswers, on: route) }
        let started = Date()
        let result = try run(["borrow", "urn:fake:ebook-free"], expect: 75)
        // Four 30 s attempts took two minutes; the deadline of 3 s ends it, with time to ask once more.
        XCTAssertLessThan(Date().timeIntervalSince(started), 25)
        XCTAssertTrue(result.stderr.contains("at most 3 s"), result.stderr)
        try assertLoansAgree()
    }

    func testAStallShorterThanTheDeadlineStillGivesTheAnswer() throws {
        shelf.environment["SHELF_DEADLINE"] = "20"
        try addAndLogin()
        try run(["browse"])
        library.inject(.stalled(seconds: 2), on: .borrow)
        let result = try run(["borrow", "urn:fake:ebook-free"])
        XCTAssertTrue(result.stdout.contains("Borrowed"), result.stdout)
        try assertLoansAgree()
    }

    func testABorrowStalledPastTheDeadlineIsConfirmedByAskingAgain() throws {
        shelf.environment["SHELF_DEADLINE"] = "4"
        try addAndLogin()
        try run(["browse"])
        library.inject(.stalled(seconds: 30), on: .borrow)
        let result = try run(["borrow", "urn:fake:ebook-free"])
        XCTAssertTrue(result.stdout.contains("Borrowed"), result.stdout)
        XCTAssertEqual(requests("/works/ebook-free/borrow"), 1)
        try assertLoansAgree()
    }

    func testCtrlCEndsAWaitAtOnce() throws {
        shelf.environment["SHELF_DEADLINE"] = "50"
        try addAndLogin()
        try run(["browse"])
        library.inject(.neverAnswers, on: .entry)
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = ["borrow", "urn:fake:ebook-free"]
        process.environment = shelf.environment
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        // Wait until the request is at the library, then interrupt as a terminal's Ctrl-C does.
        let asked = Date().addingTimeInterval(20)
        while requests("/works/ebook-free") == 0, Date() < asked { Thread.sleep(forTimeInterval: 0.05) }
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(interrupted), 10, "Ctrl-C did not end the wait")
        XCTAssertEqual(
            process.terminationStatus, 130,
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
