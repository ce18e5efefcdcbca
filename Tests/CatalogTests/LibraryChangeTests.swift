import Foundation
import TestSupport
import XCTest

/// Issue 32, item 8: what the library changed on its own (a loan ended early, a hold cancelled, a ready hold that
/// lapsed) is said by the sync, once, as a notification; the ended loan's book says in My Books why it has no file.
final class LibraryChangeTests: LibraryTestCase {
    private func notificationKinds() throws -> [String] {
        try XCTUnwrap(try run(["notifications", "--json"]).json() as? [[String: Any]]).compactMap {
            $0["kind"] as? String
        }
    }

    func testALoanEndedEarlyAndAHoldCancelledAreSaidAndTheBookSaysWhy() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["download", "urn:fake:ebook-free"])
        try run(["reserve", "urn:fake:ebook-out"])
        try run(["sync"])

        library.expireLoan("urn:fake:ebook-free")
        library.dropHold("urn:fake:ebook-out")
        let synced = try run(["sync"])
        XCTAssertTrue(
            synced.stderr.contains(
                "The Open Road is no longer on loan to you: the library ended the loan early. Its file was deleted; "
                    + "your place and bookmarks are kept."), synced.stderr)
        XCTAssertTrue(
            synced.stderr.contains("Your hold on Waiting Game was cancelled: the library no longer lists it."),
            synced.stderr)
        XCTAssertEqual(Set(try notificationKinds()), ["loan-ended", "hold-cancelled"])

        let books = try XCTUnwrap(try run(["books", "--json"]).json() as? [[String: Any]])
        let book = try XCTUnwrap(books.first)
        XCTAssertNil(book["path"])
        let why = try XCTUnwrap(book["unavailable"] as? String, "\(book)")
        XCTAssertTrue(why.hasPrefix("The loan ended at the library on "), why)

        // Told once: the next sync says nothing new.
        let again = try run(["sync"])
        XCTAssertFalse(again.stderr.contains("Notification:"), again.stderr)
    }

    func testAReadyHoldNotBorrowedInTimeIsSaidToHaveExpired() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady("urn:fake:ebook-out")
        library.setHoldEnd("urn:fake:ebook-out", library.now.addingTimeInterval(3_600))
        try run(["sync"])
        library.advanceClock(by: 7_200)
        library.dropHold("urn:fake:ebook-out")
        let synced = try run(["sync"])
        XCTAssertTrue(
            synced.stderr.contains("Your hold on Waiting Game has expired: it was not borrowed in time."), synced.stderr
        )
        XCTAssertTrue(try notificationKinds().contains("hold-lapsed"))
    }

    /// A return and a cancel made here are the patron's: the sync tells of no change.
    func testChangesMadeHereAreNotSaidAsTheLibrarys() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["reserve", "urn:fake:ebook-out"])
        try run(["sync"])
        try run(["return", "urn:fake:ebook-free"])
        try run(["cancel-hold", "urn:fake:ebook-out"])
        let synced = try run(["sync"])
        XCTAssertFalse(synced.stderr.contains("Notification:"), synced.stderr)
        XCTAssertTrue(try notificationKinds().isEmpty)
    }
}

/// Item 8: a title the library took out of its catalog is not offered for borrowing from what shelf saw of it.
final class WithdrawnTitleTests: LibraryTestCase {
    func testATitleGoneFromTheCatalogIsNotOfferedFromTheCache() throws {
        try addAndLogin()
        try run(["browse"])
        library.withdraw("urn:fake:ebook-free")
        let shown = try run(["book", "urn:fake:ebook-free"])
        XCTAssertTrue(
            shown.stdout.contains(
                "The library no longer has “The Open Road” in its catalog: it cannot be borrowed or reserved."),
            shown.stdout)
        XCTAssertFalse(shown.stdout.contains("Borrow it"), shown.stdout)
        // Forgotten from what shelf has seen: no borrowing it from there.
        let borrowed = try run(["borrow", "urn:fake:ebook-free"], expect: 66)
        XCTAssertEqual(library.server.requests(to: "/works/ebook-free/borrow").count, 0, borrowed.stderr)
    }
}

/// Item 7 (seeds 002/003): a hold on a physical copy at a branch, which the library's loans feed does not list.
final class BranchHoldTests: LibraryTestCase {
    func testABranchHoldIsAPhysicalCopyKeptAcrossSyncsAndNotPlacedTwice() throws {
        library.listsBranchHolds = false
        try addAndLogin()
        try run(["browse"])
        let placed = try run(["reserve", "urn:fake:ebook-out", "--branch", "Eastside Branch"])
        XCTAssertTrue(placed.stdout.contains("as a physical copy to collect at Eastside Branch"), placed.stdout)
        XCTAssertFalse(placed.stdout.contains("eBook"), placed.stdout)
        try run(["sync"])
        let holds = try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(holds.count, 1, "the sync dropped the branch's hold the feed does not list")
        XCTAssertEqual(holds.first?["branch"] as? String, "Eastside Branch")
        let again = try run(["reserve", "urn:fake:ebook-out", "--branch", "eastside branch"])
        XCTAssertTrue(again.stdout.contains("You already have a hold on a physical copy"), again.stdout)
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/hold").count, 1, "a second hold was sent")
    }

    /// The holds listing names a branch's hold as a physical copy, says shelf keeps one the library's list does not
    /// show, and `cancel-hold` of it (no revoke link from the library) is refused, nothing sent: ask the branch.
    func testTheHoldsListingNamesTheBranchAndCancelIsLeftToTheBranch() throws {
        library.listsBranchHolds = false
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out", "--branch", "Eastside Branch"])
        try run(["sync"])
        let listed = try run(["holds"]).stdout
        XCTAssertTrue(listed.contains("Physical copy at Eastside Branch"), listed)
        XCTAssertTrue(listed.contains("kept by shelf: your library's list does not show it"), listed)
        XCTAssertFalse(listed.contains("eBook"), listed)
        let holds = try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(holds.first?["kind"] as? String, "Physical copy at Eastside Branch")
        XCTAssertEqual(holds.first?["canCancel"] as? Bool, false)

        let cancel = try shelf.run(["cancel-hold", "urn:fake:ebook-out"])
        XCTAssertEqual(cancel.status, 69, cancel.stderr)
        XCTAssertTrue(cancel.stderr.contains("Ask Eastside Branch to cancel it."), cancel.stderr)
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 0, "a cancel was sent")
        XCTAssertEqual(try XCTUnwrap(try run(["holds", "--json"]).json() as? [Any]).count, 1, "the hold was dropped")
    }

    /// Issue 33: an e-book hold and a hold on a physical copy at a branch of the same title are two holds. Before the
    /// holds were keyed by branch too, the second replaced the first (one row per title).
    func testAnEBookHoldAndABranchHoldOfOneTitleAreBothKept() throws {
        library.listsBranchHolds = false
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out", "--branch", "Eastside Branch"])
        let placed = try run(["reserve", "urn:fake:ebook-out"])
        XCTAssertTrue(placed.stdout.contains("Reserved"), placed.stdout)
        func holds() throws -> [[String: Any]] {
            try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
        }
        let both = try holds()
        XCTAssertEqual(Set(both.map { $0["branch"] as? String ?? "e-book" }), ["Eastside Branch", "e-book"], "\(both)")
        // The sync lists the e-book hold; the branch's hold, which the feed does not list, stays beside it.
        let synced = try run(["sync"])
        XCTAssertFalse(synced.stderr.contains("Notification:"), synced.stderr)
        XCTAssertEqual(Set(try holds().map { $0["branch"] as? String ?? "e-book" }), ["Eastside Branch", "e-book"])
        // Cancel names the e-book hold (the one the library can cancel); the branch's stays.
        try run(["cancel-hold", "urn:fake:ebook-out", "--digital"])
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 1)
        try run(["sync"])
        XCTAssertEqual(try holds().map { $0["branch"] as? String }, ["Eastside Branch"])
    }

    /// Issue 33: with an e-book hold and a branch hold of one title, a cancel names its hold. Before, every cancel
    /// meant the e-book hold: `--branch` was refused and the e-book hold went instead.
    func testCancellingTheBranchHoldLeavesTheEBookHoldAndTheReverse() throws {
        library.listsBranchHolds = false
        library.revokesBranchHolds = true
        try addAndLogin()
        try run(["browse"])
        func holds() throws -> [String] {
            try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]]).map {
                $0["branch"] as? String ?? "e-book"
            }.sorted()
        }
        func both() throws {
            try run(["reserve", "urn:fake:ebook-out", "--branch", "Eastside Branch"])
            try run(["reserve", "urn:fake:ebook-out"])
            XCTAssertEqual(try holds(), ["Eastside Branch", "e-book"])
        }
        try both()
        // Neither named: refused with the choices, nothing sent.
        let unnamed = try shelf.run(["cancel-hold", "urn:fake:ebook-out"])
        XCTAssertEqual(unnamed.status, 64, unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains("2 holds on"), unnamed.stderr)
        XCTAssertTrue(
            unnamed.stderr.contains("--branch \"Eastside Branch\"` cancels the physical copy"), unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains("--digital` cancels the eBook hold"), unnamed.stderr)
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 0, "a cancel was sent")

        // The branch's hold, named in any case: the e-book hold stays, here and at the library.
        try run(["cancel-hold", "urn:fake:ebook-out", "--branch", "eastside branch"])
        XCTAssertEqual(
            library.server.requests(to: "/works/ebook-out/revoke").last?.queryItems["branch"], "Eastside Branch")
        XCTAssertEqual(try holds(), ["e-book"])
        XCTAssertTrue(library.branchHolds.isEmpty)
        XCTAssertNotNil(library.holdPosition("urn:fake:ebook-out"), "the library's e-book hold went")
        try run(["sync"])
        XCTAssertEqual(try holds(), ["e-book"])

        // The reverse: the e-book hold goes, the branch's stays.
        try run(["reserve", "urn:fake:ebook-out", "--branch", "Eastside Branch"])
        XCTAssertEqual(try holds(), ["Eastside Branch", "e-book"])
        try run(["cancel-hold", "urn:fake:ebook-out", "--digital"])
        XCTAssertNil(library.server.requests(to: "/works/ebook-out/revoke").last?.queryItems["branch"])
        XCTAssertEqual(try holds(), ["Eastside Branch"])
        XCTAssertEqual(library.branchHolds, ["urn:fake:ebook-out|Eastside Branch"])
        XCTAssertNil(library.holdPosition("urn:fake:ebook-out"))

        // A hold the patron does not have is refused with the choices.
        let other = try shelf.run(["cancel-hold", "urn:fake:ebook-out", "--branch", "Central Library"])
        XCTAssertEqual(other.status, 64, other.stderr)
        XCTAssertTrue(other.stderr.contains("no hold on a physical copy"), other.stderr)
        XCTAssertEqual(try holds(), ["Eastside Branch"])
    }

    /// A hold on a physical copy that came in is picked up at its branch: `shelf book` and `shelf holds` offer no
    /// borrow (the library's borrow would lend the e-book, not the copy held) and say where the copy is; the title's
    /// cancel names the branch. Before, both offered `shelf borrow`, and `book` said "ready to borrow".
    func testAReadyBranchHoldIsPickedUpNotBorrowed() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out", "--branch", "Central Library"])
        library.makeHoldReady("urn:fake:ebook-out")
        try run(["sync"])
        let book = try run(["book", "urn:fake:ebook-out"]).stdout
        XCTAssertTrue(book.contains("Availability: ready for pick-up at Central Library"), book)
        XCTAssertTrue(book.contains("Pick it up at Central Library"), book)
        // The branch held is marked, not offered again (failed before: listed like the others).
        XCTAssertTrue(book.contains("  Central Library") && book.contains("(on hold for you)"), book)
        XCTAssertFalse(book.contains("Eastside Branch (on hold for you)"), book)
        XCTAssertFalse(book.contains("shelf borrow"), book)
        XCTAssertFalse(book.contains("ready to borrow"), book)
        XCTAssertTrue(
            book.contains(#"Cancel the hold: shelf cancel-hold urn:fake:ebook-out --branch "Central Library""#), book)
        let details = try XCTUnwrap(try run(["book", "urn:fake:ebook-out", "--json"]).json() as? [String: Any])
        XCTAssertEqual(details["actions"] as? [String], ["cancel-hold"])
        XCTAssertEqual(details["canBorrow"] as? Bool, false)
        XCTAssertEqual(details["cancelBranch"] as? String, "Central Library")
        XCTAssertEqual(details["heldBranches"] as? [String], ["Central Library"])
        let holds = try run(["holds"]).stdout
        XCTAssertTrue(holds.contains("Ready for pick-up at Central Library"), holds)
        XCTAssertFalse(holds.contains("shelf borrow"), holds)
        let rows = try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(rows.first?["actions"] as? [String], ["cancel-hold"])
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/borrow").count, 0, "something was borrowed")
        XCTAssertFalse(library.onLoan("urn:fake:ebook-out"))
        // Nor is it counted as a hold ready to borrow (failed before: status said 1, and holds its badge).
        let status = try XCTUnwrap(try run(["status", "--json"]).json() as? [String: Any])
        XCTAssertEqual(status["readyToBorrow"] as? Int, 0)
        XCTAssertFalse(holds.contains("Ready to borrow:"), holds)
    }

    /// A branch hold the library lists (with its revoke link) keeps Cancel and says nothing of being kept.
    func testABranchHoldTheLibraryListsCanBeCancelled() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["reserve", "urn:fake:ebook-out", "--branch", "Eastside Branch"])
        try run(["sync"])
        let holds = try XCTUnwrap(try run(["holds", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(holds.first?["canCancel"] as? Bool, true)
        XCTAssertNil(holds.first?["kept"] as? String)
        try run(["cancel-hold", "urn:fake:ebook-out"])
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 1)
    }
}
