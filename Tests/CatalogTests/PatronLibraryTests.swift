import Foundation
import TestSupport
import XCTest

/// A patron's library misbehaving under the commands that change or fetch what it holds for them: each message says
/// what happened to what is stored and what to do, never advice meant for another case.
final class PatronLibraryTests: LibraryTestCase {
    /// `shelf sync` against a library answering a maintenance page or half a feed: the sync is said to have failed with
    /// nothing stored changed, to be run again later (75), as `shelf watch` says it; not "check the address" (65), an
    /// address the patron never gave.
    func testASyncTheLibraryAnswersBadlySaysNothingChanged() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let faults: [(String, LoopbackHTTPServer.Response)] = [
            ("HTML", .text("<html><body>Down for maintenance</body></html>", contentType: "text/html")),
            (
                "broken Atom",
                .text(
                    #"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:fake:ebook-free</id><title>The Op"#,
                    contentType: "application/atom+xml;profile=opds-catalog;kind=acquisition")
            ),
            ("500", .text("Internal Server Error", status: 500))
        ]
        for (name, fault) in faults {
            library.loansFault = fault
            let result = try run(["sync"], expect: 75)
            XCTAssertTrue(result.stderr.contains("nothing stored here changed"), "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("`shelf sync` again later"), "\(name): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Check the address"), "\(name): \(result.stderr)")
            XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 1, name)
        }
    }

    /// Reserving a title the patron has on loan: it is theirs already, so the way on is to download it, not to
    /// "borrow it with `shelf borrow`" as for a title with a free copy.
    func testReservingYourOwnLoanSaysItIsYours() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let result = try run(["reserve", "urn:fake:ebook-free"])
        XCTAssertTrue(result.stdout.contains("“The Open Road” is already on loan to you"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("Nothing was reserved. Download it with `shelf download urn:fake:ebook-free`."),
            result.stdout)
        XCTAssertFalse(result.stdout.contains("shelf borrow"), result.stdout)
        let json = try json(try run(["reserve", "urn:fake:ebook-free", "--json"]))
        XCTAssertEqual(json["result"] as? String, "already-on-loan")
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-free"), nil, "no hold placed")
    }

    /// Two downloads of one loan at once (a second terminal, the browser app): the second says the first is
    /// downloading it and to wait, not to check free disk space and permissions or the connection; the first
    /// finishes and the book is on the shelf.
    func testASecondDownloadOfTheSameBookSaysToWaitForTheFirst() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        library.inject(.stalled(seconds: 4), on: .fulfil, times: 1)
        final class Box: @unchecked Sendable { var first: ShelfProcess.Result? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let shelf = self.shelf!
        DispatchQueue.global().async {
            box.first = try? shelf.run(["download", "urn:fake:ebook-free"])
            done.signal()
        }
        let deadline = Date().addingTimeInterval(10)
        while library.server.requests(to: "/works/ebook-free/fulfill").isEmpty && Date() < deadline { usleep(50_000) }
        usleep(500_000)
        let second = try run(["download", "urn:fake:ebook-free"], expect: 75)
        XCTAssertTrue(second.stderr.contains("Another shelf command is downloading"), second.stderr)
        XCTAssertTrue(second.stderr.contains("Wait for that one to finish"), second.stderr)
        XCTAssertFalse(second.stderr.contains("disk space"), second.stderr)
        XCTAssertFalse(second.stderr.contains("Check your connection"), second.stderr)
        done.wait()
        XCTAssertEqual(box.first?.status, 0, box.first?.stderr ?? "")
        XCTAssertTrue(try run(["books"]).stdout.contains("The Open Road"))
    }

    /// A page past the catalog's last: the page asked for, not the first one missing, and which pages there are.
    func testAPagePastTheLastSaysWhichPagesThereAre() throws {
        try addAndLogin()
        let result = try run(["browse", "--page", "99"], expect: 66)
        XCTAssertTrue(
            result.stderr.contains("there is no page 99 of Fake Public Library: the last page is 1"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Ask for a page from 1 to 1 (--page N)."), result.stderr)
    }

    /// A return or a hold cancelled while the library cannot be reached: said to have changed nothing, anywhere, so
    /// that running it again is safe; the loan and the hold stay stored.
    func testAReturnThatNeverReachedTheLibrarySaysNothingChanged() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["reserve", "urn:fake:ebook-out"])
        library.stop()
        for arguments in [["return", "urn:fake:ebook-free"], ["cancel-hold", "urn:fake:ebook-out"]] {
            let result = try run(arguments, expect: 75)
            XCTAssertTrue(
                result.stderr.contains("The request never reached the library, so nothing was changed there or here."),
                "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 1)
        XCTAssertEqual(try XCTUnwrap(try run(["holds", "--json"]).json() as? [Any]).count, 1)
    }

    /// A loan's end in `shelf books`, in words a sentence can hold: "due back in 3 days", not "on loan until in 3 days".
    func testTheShelfSaysWhenALoanIsDueInWords() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let noon = Calendar.current.date(byAdding: .hour, value: 12, to: Calendar.current.startOfDay(for: Date()))!
        library.setLoanEnd("urn:fake:ebook-free", Calendar.current.date(byAdding: .day, value: 3, to: noon)!)
        try run(["sync"])
        try run(["download", "urn:fake:ebook-free"])
        let books = try run(["books"]).stdout
        XCTAssertTrue(books.contains("· due back in 3 days"), books)
        XCTAssertFalse(books.contains("until in"), books)
    }

    /// A title without a sample: what to do instead.
    func testATitleWithoutASampleSaysHowToGetTheBook() throws {
        try addAndLogin()
        try run(["browse"])
        let result = try run(["sample", "urn:fake:ebook-out"], expect: 69)
        XCTAssertTrue(
            result.stderr.contains("`shelf book urn:fake:ebook-out` says how to borrow or reserve it."), result.stderr)
    }

    /// Ctrl-C while the library decides a borrow: said as the patron's stop (130), with the request gone and nothing
    /// stored changed, not as an answer that could not be read.
    func testCtrlCDuringABorrowSaysItWasYourStop() throws {
        try addAndLogin()
        try run(["browse"])
        library.inject(.neverAnswers, on: .borrow, times: 1)
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = ["borrow", "urn:fake:audio-free"]
        var environment = shelf.environment
        environment["SHELF_DEADLINE"] = "60"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while library.server.requests(to: "/works/audio-free/borrow").isEmpty && Date() < deadline { usleep(50_000) }
        usleep(300_000)
        process.interrupt()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, said)
        XCTAssertTrue(
            said.contains("stopped at your request before the library confirmed whether it lent you “Sound of Rivers”"),
            said)
        XCTAssertFalse(said.contains("could not be read"), said)
        XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 0, "nothing stored")
    }

    /// Removing an account with loans and holds says they stay with the library and how to see them
    /// again, rather than leaving My Books silently empty.
    func testRemovingAnAccountSaysItsLoansAreStillYours() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["reserve", "urn:fake:ebook-out"])
        let removed = try run(["account", "remove", "fake"])
        XCTAssertTrue(
            removed.stdout.contains(
                "Your 1 loan and 1 hold at Fake Public Library stay with the library; to see them here again"),
            removed.stdout)
        XCTAssertTrue(removed.stdout.contains("`shelf account add \(library.root)`"), removed.stdout)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"), "nothing was returned")
    }
}
