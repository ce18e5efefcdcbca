import Foundation
import TestSupport
import Web
import XCTest

/// The browser API says what the library did, as `shelf` does (issue 32, the library helper's items): one fake
/// library, signed in as "fake".
class LibraryAPITestCase: LibraryWebTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try post("/api/accounts", ["url": library.root, "name": "fake"]).status, 201)
        let signedIn = try post(
            "/api/accounts/fake/sign-in", ["barcode": library.username, "pin": library.password])
        XCTAssertEqual(signedIn.status, 200, signedIn.text)
        _ = try get("/api/catalog?format=all")
    }
}

final class LibraryTruthAPITests: LibraryAPITestCase {
    /// Defect 0: Get on a ready hold answered with a web page, the library having lent nothing, keeps the hold.
    func testAGarbageBorrowAnswerKeepsTheReadyHold() throws {
        XCTAssertEqual(
            try post("/api/book/reserve", ["id": "urn:fake:ebook-out"]).json()["result"] as? String, "reserved")
        library.makeHoldReady("urn:fake:ebook-out")
        XCTAssertEqual(try post("/api/sync").status, 200)
        library.inject(.garbage, on: .borrow, acts: false, times: 1)
        let answer = try post("/api/book/borrow", ["id": "urn:fake:ebook-out"])
        XCTAssertEqual(try answer.json()["result"] as? String, "unavailable", answer.text)
        XCTAssertFalse(answer.text.contains("cancelled"), answer.text)
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 1, "shelf cancelled the patron's hold")
        XCTAssertEqual(library.server.requests(to: "/works/ebook-out/revoke").count, 0)
    }

    /// Item 3: the wish list asks the library about a wish seen free; the details say how old what they show is.
    func testTheWishListAndTheDetailsNeverSayFreeFromWhatWasSeenBefore() throws {
        XCTAssertEqual(try post("/api/wishlist", ["title": "The Open Road"]).status, 201)
        library.takeAllCopies("urn:fake:ebook-free")
        let list = try get("/api/wishlist").json()
        let wish = try XCTUnwrap((list["wishes"] as? [[String: Any]])?.first)
        XCTAssertEqual(wish["available"] as? Bool, false, "\(wish)")
        XCTAssertEqual(wish["availability"] as? String, "0 of 3 copies available", "\(wish)")

        library.inject(.garbage, on: .entry)
        let details = try get("/api/book?id=urn:fake:ebook-free").json()
        XCTAssertEqual(details["libraryAnswered"] as? Bool, false)
        let note = try XCTUnwrap(details["availabilityNote"] as? String)
        XCTAssertTrue(
            note.hasPrefix("The library did not answer just now: this is what shelf saw of this title before"), note)
    }

    /// Item 8: the app's sync tells of a loan the library ended early, and My Books (the shelf) says why it has no
    /// file.
    func testTheAppsSyncTellsOfALoanTheLibraryEnded() throws {
        XCTAssertEqual(
            try post("/api/book/borrow", ["id": "urn:fake:ebook-free"]).json()["result"] as? String, "loaned")
        XCTAssertLessThan(try post("/api/book/download", ["id": "urn:fake:ebook-free"]).status, 300)
        // The download runs on its own thread: the book is on the shelf, with its file, when it is done.
        let deadline = Date().addingTimeInterval(20)
        while !(try get("/api/shelf").text.contains("\"path\"")) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertTrue(try get("/api/shelf").text.contains("\"path\""), "the download did not finish")
        XCTAssertEqual(try post("/api/sync").status, 200)
        library.expireLoan("urn:fake:ebook-free")
        let pass = try post("/api/sync").json()
        let texts = (pass["notifications"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertTrue(texts.contains { $0.hasPrefix("The Open Road is no longer on loan to you") }, "\(pass)")
        let shelf = try get("/api/shelf").text
        XCTAssertTrue(shelf.contains("The loan ended at the library on"), shelf)
    }

    /// Item 8: the details of a title the library took out of its catalog offer nothing to borrow or reserve.
    func testATitleGoneFromTheCatalogIsNotOffered() throws {
        library.withdraw("urn:fake:ebook-free")
        let details = try get("/api/book?id=urn:fake:ebook-free").json()
        XCTAssertEqual(details["canBorrow"] as? Bool, false, "\(details)")
        XCTAssertEqual(
            details["availabilityNote"] as? String,
            "The library no longer has “The Open Road” in its catalog: it cannot be borrowed or reserved.")
    }
}
