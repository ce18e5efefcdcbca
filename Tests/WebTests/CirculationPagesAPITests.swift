import Foundation
import TestSupport
import Web
import XCTest

/// What the circulation pages ask of the API (issue 33): a first run's invitation, the question Return asks, and
/// the library asked when Reservations or My Books opens, at most once a minute.
final class CirculationPagesAPITests: LibraryWebTestCase {
    func testAFirstRunIsAnInvitation() throws {
        let catalog = try get("/api/catalog?format=all")
        XCTAssertEqual(catalog.status, 409, catalog.text)
        let problem = try catalog.json()
        XCTAssertEqual(problem["type"] as? String, "https://shelf.invalid/problems/no-library-yet")
        XCTAssertTrue((problem["title"] as? String ?? "").contains("Add your library"), catalog.text)
    }

    func testTheLibraryIsAskedAtMostOnceAMinuteUnlessCheckedNow() throws {
        XCTAssertEqual(try post("/api/accounts", ["url": library.root, "name": "fake"]).status, 201)
        let signIn = try post("/api/accounts/fake/sign-in", ["barcode": library.username, "pin": library.password])
        XCTAssertEqual(signIn.status, 200, signIn.text)
        let loansAsked = { self.library.server.requests(to: "/loans").count }
        // Signing in started a sync, or this check does: either way the library was asked just now.
        let first = try post("/api/library/check").json()
        let asked = loansAsked()
        XCTAssertGreaterThan(asked, 0)
        XCTAssertTrue((first["message"] as? String ?? "").hasPrefix("Checked with your library at"), "\(first)")
        let second = try post("/api/library/check").json()
        XCTAssertEqual(second["asked"] as? Bool, false, "within the minute")
        XCTAssertEqual(loansAsked(), asked, "the library was not asked again")
        // Check now is refused for a double click (5 s), then asks.
        XCTAssertEqual(try post("/api/library/check", ["force": true]).json()["asked"] as? Bool, false)
        Thread.sleep(forTimeInterval: 5.2)
        XCTAssertEqual(try post("/api/library/check", ["force": true]).json()["asked"] as? Bool, true)
        XCTAssertGreaterThan(loansAsked(), asked)
    }

    func testALoanCarriesTheQuestionReturnAsks() throws {
        XCTAssertEqual(try post("/api/accounts", ["url": library.root, "name": "fake"]).status, 201)
        _ = try post("/api/accounts/fake/sign-in", ["barcode": library.username, "pin": library.password])
        _ = try get("/api/catalog?format=all")
        XCTAssertEqual(try post("/api/book/borrow", ["id": "urn:fake:ebook-free"]).status, 200)
        let loans = try XCTUnwrap(try get("/api/loans").json()["items"] as? [[String: Any]])
        let question = try XCTUnwrap(loans.first?["returnQuestion"] as? [String: Any])
        XCTAssertEqual(question["question"] as? String, "Return “The Open Road” to the library now?")
        let details = try get("/api/book?id=urn:fake:ebook-free").json()
        XCTAssertNotNil(details["returnQuestion"], "the details of a title on loan ask it too")
    }
}
