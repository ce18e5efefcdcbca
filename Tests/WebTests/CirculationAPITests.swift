import Foundation
import TestSupport
import Web
import XCTest

/// The browser API's circulation tells what the library did, as the command line does (issue 32).
final class CirculationAPITests: LibraryWebTestCase {
    func addAndSignIn(_ fake: FakeLibrary, name: String) throws {
        XCTAssertEqual(try post("/api/accounts", ["url": fake.root, "name": name]).status, 201)
        let signIn = try post("/api/accounts/\(name)/sign-in", ["barcode": fake.username, "pin": fake.password])
        XCTAssertEqual(signIn.status, 200, signIn.text)
    }

    /// Return of a title on hold: refused in words, the hold kept, nothing sent (item 1).
    func testReturnOfAHoldAndCancelOfALoanAreRefused() throws {
        try addAndSignIn(library, name: "fake")
        _ = try get("/api/catalog?format=all")
        XCTAssertEqual(
            try post("/api/book/reserve", ["id": "urn:fake:ebook-out"]).json()["result"] as? String, "reserved")
        let returned = try post("/api/book/return", ["id": "urn:fake:ebook-out"])
        XCTAssertEqual(returned.status, 400, returned.text)
        XCTAssertTrue(
            returned.text.contains("is on hold at Fake Public Library, not on loan: nothing was returned"),
            returned.text)
        XCTAssertTrue(returned.text.contains("press Cancel hold in Reservations"), returned.text)
        XCTAssertFalse(returned.text.contains("shelf "), "the browser's hint names no command: \(returned.text)")
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 3)

        XCTAssertEqual(
            try post("/api/book/borrow", ["id": "urn:fake:ebook-free"]).json()["result"] as? String, "loaned")
        let cancelled = try post("/api/book/cancel-hold", ["id": "urn:fake:ebook-free"])
        XCTAssertEqual(cancelled.status, 400, cancelled.text)
        XCTAssertTrue(cancelled.text.contains("not on hold: nothing was cancelled"), cancelled.text)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        XCTAssertEqual(
            library.server.requests(to: "/works/ebook-free/revoke").count
                + library.server.requests(to: "/works/ebook-out/revoke").count, 0)
    }

    /// Two libraries: a return without an account acts where the loan is, not at the account in use.
    func testAReturnActsAtTheLibraryThatLent() throws {
        let other = try FakeLibrary()
        defer { other.stop() }
        try addAndSignIn(library, name: "fake")
        _ = try get("/api/catalog?format=all&account=fake")
        XCTAssertEqual(
            try post("/api/book/borrow", ["id": "urn:fake:audio-free", "account": "fake"]).json()["result"] as? String,
            "loaned")
        try addAndSignIn(other, name: "other")
        XCTAssertEqual(try post("/api/accounts/other/use").status, 200)
        other.takeAllCopies("urn:fake:audio-free")
        _ = try get("/api/catalog?format=all&account=other")
        XCTAssertEqual(
            try post("/api/book/reserve", ["id": "urn:fake:audio-free", "account": "other"]).json()["result"]
                as? String, "reserved")

        let returned = try post("/api/book/return", ["id": "urn:fake:audio-free"])
        XCTAssertEqual(returned.status, 200, returned.text)
        XCTAssertFalse(library.onLoan("urn:fake:audio-free"))
        XCTAssertNotNil(other.holdPosition("urn:fake:audio-free"))
    }

    /// A Get pressed while serve's sync waits for the library's loans feed stays in My Books (item 4).
    func testAGetDuringTheAppsSyncIsNotUndone() throws {
        try addAndSignIn(library, name: "fake")
        _ = try get("/api/catalog?format=all")
        let asked = library.server.requests(to: "/loans").count
        library.loansDelay = 3
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? self.post("/api/sync")
            done.signal()
        }
        let deadline = Date().addingTimeInterval(20)
        while library.server.requests(to: "/loans").count == asked && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        library.loansDelay = 0
        XCTAssertEqual(
            try post("/api/book/borrow", ["id": "urn:fake:ebook-free"]).json()["result"] as? String, "loaned")
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        let loans = try get("/api/loans").json()
        XCTAssertEqual(loans["total"] as? Int, 1, "\(loans)")
    }

    /// Reservations' document: a branch's hold the library does not list reads "Physical copy at B", says shelf keeps
    /// it, and offers no Cancel; a cancel asked anyway is refused in words, nothing sent (issue 32, item 7).
    func testABranchHoldTheLibraryDoesNotListHasNoCancel() throws {
        library.listsBranchHolds = false
        try addAndSignIn(library, name: "fake")
        _ = try get("/api/catalog?format=all")
        let placed = try post("/api/book/reserve", ["id": "urn:fake:ebook-out", "branch": "Eastside Branch"])
        XCTAssertEqual(try placed.json()["result"] as? String, "reserved", placed.text)
        XCTAssertEqual(try post("/api/sync").status, 200)
        let items = try XCTUnwrap(try get("/api/holds").json()["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?["kind"] as? String, "Physical copy at Eastside Branch")
        XCTAssertEqual(items.first?["kept"] as? String, "kept by shelf: your library's list does not show it")
        XCTAssertEqual(items.first?["canCancel"] as? Bool, false)
        let cancelled = try post("/api/book/cancel-hold", ["id": "urn:fake:ebook-out"])
        XCTAssertNotEqual(cancelled.status, 200, cancelled.text)
        XCTAssertTrue(cancelled.text.contains("Ask Eastside Branch to cancel it."), cancelled.text)
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 0)
    }

    /// A hold on a physical copy that came in is picked up at its branch: the title's details (`/api/book`) and its
    /// Reservations row offer only Cancel hold, and a wish for it says it is on hold, with no Get. Before, all three
    /// offered to borrow (which lends the e-book, not the copy held).
    func testAReadyBranchHoldOffersNoBorrow() throws {
        try addAndSignIn(library, name: "fake")
        _ = try get("/api/catalog?format=all")
        _ = try post("/api/book/reserve", ["id": "urn:fake:ebook-out", "branch": "Central Library"])
        library.makeHoldReady("urn:fake:ebook-out")
        XCTAssertEqual(try post("/api/sync").status, 200)
        let details = try get("/api/book?id=urn:fake:ebook-out").json()
        XCTAssertEqual(details["actions"] as? [String], ["cancel-hold"], "\(details)")
        XCTAssertEqual(details["canBorrow"] as? Bool, false)
        let words = (details["availability"] as? [String: Any])?["words"] as? String ?? ""
        XCTAssertTrue(words.hasPrefix("ready for pick-up at Central Library"), words)
        let rows = try XCTUnwrap(try get("/api/holds").json()["items"] as? [[String: Any]])
        XCTAssertEqual(rows.first?["actions"] as? [String], ["cancel-hold"])
        XCTAssertTrue((rows.first?["pickUp"] as? String ?? "").hasPrefix("Ready for pick-up at Central Library"))
        _ = try post("/api/wishlist", ["title": "Waiting Game", "author": "Ben Moss"])
        let wishes = try XCTUnwrap(try get("/api/wishlist").json()["wishes"] as? [[String: Any]])
        let atLibrary = try XCTUnwrap(wishes.first?["atLibrary"] as? [String: Any], "\(wishes)")
        XCTAssertEqual(atLibrary["standing"] as? String, "reserved", "\(atLibrary)")
        XCTAssertNil(atLibrary["action"] as? String, "\(atLibrary)")
    }

    /// Issue 33: Reservations' Cancel sends its row's hold (`branch`, "" for the title's own). Before, the API took
    /// no branch and cancelled the e-book hold whichever row was pressed.
    func testCancelNamesTheHoldOfItsRow() throws {
        library.listsBranchHolds = false
        library.revokesBranchHolds = true
        try addAndSignIn(library, name: "fake")
        _ = try get("/api/catalog?format=all")
        func holds() throws -> [String] {
            try XCTUnwrap(try get("/api/holds").json()["items"] as? [[String: Any]]).map {
                $0["branch"] as? String ?? "e-book"
            }.sorted()
        }
        _ = try post("/api/book/reserve", ["id": "urn:fake:ebook-out", "branch": "Eastside Branch"])
        _ = try post("/api/book/reserve", ["id": "urn:fake:ebook-out"])
        XCTAssertEqual(try holds(), ["Eastside Branch", "e-book"])
        let unnamed = try post("/api/book/cancel-hold", ["id": "urn:fake:ebook-out"])
        XCTAssertEqual(unnamed.status, 400, unnamed.text)
        XCTAssertTrue(unnamed.text.contains("press Cancel hold on the row"), unnamed.text)
        let branch = try post("/api/book/cancel-hold", ["id": "urn:fake:ebook-out", "branch": "Eastside Branch"])
        XCTAssertEqual(branch.status, 200, branch.text)
        XCTAssertEqual(try holds(), ["e-book"])
        XCTAssertNotNil(library.holdPosition("urn:fake:ebook-out"))
        _ = try post("/api/book/reserve", ["id": "urn:fake:ebook-out", "branch": "Eastside Branch"])
        let own = try post("/api/book/cancel-hold", ["id": "urn:fake:ebook-out", "branch": ""])
        XCTAssertEqual(own.status, 200, own.text)
        XCTAssertEqual(try holds(), ["Eastside Branch"])
        XCTAssertEqual(library.branchHolds, ["urn:fake:ebook-out|Eastside Branch"])
    }
}
