import Foundation
import TestSupport
import Web
import XCTest

/// The JSON API over a fake library on loopback: paging, events, errors as problem documents, OpenAPI.
final class APITests: WebServerTestCase {
    var library: FakeLibrary!
    var session = ""

    override func setUpWithError() throws {
        // A book of 2 MiB, so that a download has a middle to report.
        library = try FakeLibrary(epub: FakeLibrary.minimalEPUB() + Data(count: 2 << 20))
        try super.setUpWithError()
        session = try signIn()
    }

    override func tearDown() {
        library?.stop()
        super.tearDown()
    }

    func get(_ path: String) throws -> RawHTTP.Answer {
        try http.send("GET", path, headers: ["X-Shelf-Session": session])
    }

    func post(_ path: String, _ object: [String: Any] = [:]) throws -> RawHTTP.Answer {
        try http.send(
            "POST", path, headers: ["X-Shelf-Session": session, "Origin": origin, "Content-Type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: object))
    }

    func addAndSignIn() throws {
        XCTAssertEqual(try post("/api/accounts", ["url": library.root, "name": "fake"]).status, 201)
        let signIn = try post("/api/accounts/fake/sign-in", ["barcode": library.username, "pin": library.password])
        XCTAssertEqual(signIn.status, 200, signIn.text)
    }

    func testListsComeAPageAtATimeWithACursor() throws {
        library.addMany(7)
        try addAndSignIn()
        let first = try get("/api/catalog?format=all&limit=5").json()
        XCTAssertEqual((first["entries"] as? [Any])?.count, 5)
        XCTAssertEqual(first["total"] as? Int, 11)
        let cursor = try XCTUnwrap(first["nextCursor"] as? String)
        let second = try get("/api/catalog?format=all&limit=5&cursor=\(cursor)").json()
        XCTAssertEqual((second["entries"] as? [[String: Any]])?.count, 5)
        XCTAssertNotEqual(
            (first["entries"] as? [[String: Any]])?.first?["id"] as? String,
            (second["entries"] as? [[String: Any]])?.first?["id"] as? String)
        let last = try get("/api/catalog?format=all&limit=5&cursor=\(try XCTUnwrap(second["nextCursor"] as? String))")
            .json()
        XCTAssertEqual((last["entries"] as? [Any])?.count, 1)
        XCTAssertNil(last["nextCursor"])
        XCTAssertEqual(try get("/api/catalog?limit=0").status, 400)
        XCTAssertEqual(try get("/api/catalog?cursor=not-a-cursor").status, 400)
    }

    func testTheFormatTabFiltersAndAFailedBorrowIsAnOutcome() throws {
        try addAndSignIn()
        let audio = try get("/api/catalog?format=audiobook").json()
        let formats = (audio["entries"] as? [[String: Any]] ?? []).compactMap { $0["formatId"] as? String }
        XCTAssertEqual(Set(formats), ["audiobook"])
        XCTAssertEqual(try get("/api/catalog?format=comics").status, 400)
        // No copy free: the library places no loan, and the answer says so in words (exit 69 is an outcome).
        let borrow = try post("/api/book/borrow", ["id": "urn:fake:ebook-out"])
        XCTAssertEqual(borrow.status, 200, borrow.text)
        XCTAssertEqual(try borrow.json()["result"] as? String, "unavailable")
        let loan = try post("/api/book/borrow", ["id": "urn:fake:ebook-free"])
        XCTAssertEqual(try loan.json()["result"] as? String, "loaned")
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        let loans = try get("/api/loans").json()
        XCTAssertEqual(loans["total"] as? Int, 1)
    }

    /// A title on loan to the patron has a free copy (theirs): reserving it says it is theirs, as `shelf reserve` does,
    /// not "a copy is free now: Get it instead" (a branch's Reserve stays on the details of a loan).
    func testReservingYourOwnLoanSaysItIsYours() throws {
        try addAndSignIn()
        _ = try get("/api/catalog?format=all")  // shelf knows a title once it has seen it in the catalog
        XCTAssertEqual(
            try post("/api/book/borrow", ["id": "urn:fake:ebook-free"]).json()["result"] as? String, "loaned")
        let reserve = try post("/api/book/reserve", ["id": "urn:fake:ebook-free"])
        XCTAssertEqual(reserve.status, 200, reserve.text)
        let outcome = try reserve.json()
        XCTAssertEqual(outcome["result"] as? String, "already-on-loan")
        let message = try XCTUnwrap(outcome["message"] as? String)
        XCTAssertTrue(message.hasPrefix("“The Open Road” is already on loan to you"), message)
        XCTAssertTrue(message.contains("Nothing was reserved"), message)
        XCTAssertFalse(message.contains("Get it"), message)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
    }

    func testAHostErrorIsAProblemDocumentWithTheCommandsWords() throws {
        let answer = try get("/api/book?id=urn:nothing")
        XCTAssertGreaterThanOrEqual(answer.status, 400)
        XCTAssertEqual(answer.header("content-type"), "application/problem+json")
        XCTAssertFalse((try answer.json()["title"] as? String ?? "").isEmpty)
        let missing = try post("/api/accounts", [:])
        XCTAssertEqual(missing.status, 400)
        XCTAssertEqual(try missing.json()["title"] as? String, "\"url\" is missing from the request")
    }

    func testEventsReachAnOpenStream() throws {
        // The stream is read on a socket of its own while an event is published.
        let received = XCTestExpectation(description: "the event arrives")
        nonisolated(unsafe) var text = ""
        let port = app.port, session = self.session
        DispatchQueue.global().async {
            let answer = try? RawHTTP(port: port).send(
                "GET", "/api/events", headers: ["X-Shelf-Session": session], readLimit: 2000, timeout: 10)
            text = answer?.text ?? ""
            received.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.5)
        app.events.publish(
            "download",
            json: Data(#"{"id":"urn:x","state":"done","padding":"\#(String(repeating: "x", count: 2000))"}"#.utf8))
        wait(for: [received], timeout: 15)
        XCTAssertTrue(text.contains("event: download"), text)
        XCTAssertTrue(text.contains(#""state":"done""#), text)
    }

    func testADownloadReportsItsProgressOnTheEventStream() throws {
        // Half the file, a pause, then the rest: the stream must carry a fraction in between, then the end.
        library.inject(.stalled(seconds: 1.5), on: .fulfil, times: 1)
        try addAndSignIn()
        XCTAssertEqual(try get("/api/catalog?format=all").status, 200)  // shelf knows a title once it has seen it
        XCTAssertEqual(try post("/api/book/borrow", ["id": "urn:fake:ebook-free"]).status, 200)
        let finished = XCTestExpectation(description: "the download ends on the stream")
        nonisolated(unsafe) var text = ""
        let port = app.port, session = self.session
        DispatchQueue.global().async {
            let answer = try? RawHTTP(port: port).send(
                "GET", "/api/events", headers: ["X-Shelf-Session": session], readLimit: 6000, timeout: 20,
                until: { $0.contains(#""state":"done""#) || $0.contains(#""state":"failed""#) })
            text = answer?.text ?? ""
            finished.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.5)
        let started = try post("/api/book/download", ["id": "urn:fake:ebook-free"])
        XCTAssertEqual(started.status, 202, started.text)
        wait(for: [finished], timeout: 30)
        XCTAssertTrue(text.contains(#""state":"progress""#), text)
        XCTAssertTrue(text.contains(#""fraction":0.5"#) || text.contains(#""fraction":0.4"#), text)
        XCTAssertTrue(text.contains(#""state":"done""#), text)
    }

    func testTheShelfShowsWhatTheCommandLineChangedSinceTheLastAnswer() throws {
        // The server keeps its last answer while the database is unchanged: a book added and a page read from another
        // process must show at once.
        XCTAssertEqual(try get("/api/shelf").json()["total"] as? Int, 0)
        XCTAssertEqual(try get("/api/shelf").json()["total"] as? Int, 0)
        let sample = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        XCTAssertEqual(try shelf.run(["add", sample]).status, 0)
        let added = try get("/api/shelf").json()
        XCTAssertEqual(added["total"] as? Int, 1)
        let id = try XCTUnwrap((added["items"] as? [[String: Any]])?.first?["id"] as? String)
        XCTAssertEqual(try shelf.run(["read", id, "--goto", "3"]).status, 0)
        let read = try XCTUnwrap((try get("/api/shelf").json()["items"] as? [[String: Any]])?.first)
        XCTAssertEqual(read["page"] as? Int, 3)
        // And a change made through the server's own connection.
        XCTAssertEqual(try post("/api/reader/place", ["book": id, "page": 2]).status, 200)
        XCTAssertEqual((try get("/api/shelf").json()["items"] as? [[String: Any]])?.first?["page"] as? Int, 2)
    }

    func testALaunchAddressWithAFileOpensItInTheReader() throws {
        // `shelf serve --open FILE`: the address names the file once; the page asks for it by a token.
        let sample = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        let launch = try http.send(
            "GET",
            "/open?key=\(app.guardian.mintLaunchKey())&file=\(sample.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        )
        XCTAssertEqual(launch.status, 200)
        let location = try XCTUnwrap(
            launch.text.range(of: "data-next=\"").map { String(launch.text[$0.upperBound...].prefix { $0 != "\"" }) })
        XCTAssertFalse(location.contains("lighthouse"), location)
        let token = try XCTUnwrap(location.components(separatedBy: "request=").last)
        let opened = try post("/api/open", ["request": token])
        XCTAssertEqual(opened.status, 200, opened.text)
        let address = try XCTUnwrap(try opened.json()["address"] as? String)
        XCTAssertTrue(address.hasPrefix("/reader.html?book="), address)
        XCTAssertEqual(try get("/api/shelf").json()["total"] as? Int, 1)
        // Again: the book is on the shelf already, and stays there once.
        XCTAssertEqual(try post("/api/open", ["request": token]).status, 200)
        XCTAssertEqual(try get("/api/shelf").json()["total"] as? Int, 1)
        XCTAssertEqual(try post("/api/open", ["request": "made-up"]).status, 404)
    }

    func testTheOpenAPIDocumentDescribesEveryRoute() throws {
        let document = try get("/api/openapi.json").json()
        XCTAssertEqual((document["openapi"] as? String)?.hasPrefix("3.1"), true)
        let paths = try XCTUnwrap(document["paths"] as? [String: Any])
        // Issue 31: every route of the API the router has, with its method, and nothing the router does not have.
        let routes = app.router.table.filter { $0.access == .api }
        XCTAssertGreaterThan(routes.count, 30, "the router's API routes were not found")
        var missing: [String] = []
        for route in routes {
            let methods = paths[route.pattern] as? [String: Any]
            if methods?[route.method.lowercased()] == nil { missing.append("\(route.method) \(route.pattern)") }
        }
        XCTAssertEqual(missing, [], "routes the OpenAPI document does not describe")
        let served = Set(routes.map { "\($0.method.lowercased()) \($0.pattern)" })
        var described: [String] = []
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys
            where ["get", "post", "put", "delete", "patch"].contains(method) {
                described.append("\(method) \(path)")
            }
        }
        XCTAssertEqual(
            described.filter { !served.contains($0) }.sorted(), [], "described routes the router does not have")
    }
}

final class PagingTests: XCTestCase {
    func testPagesCoverTheListOnceInOrder() throws {
        let items = Array(0..<23)
        var seen: [Int] = []
        var cursor: String?
        repeat {
            let request = WebRequest(
                method: "GET", path: "/",
                query: ["limit": "10"].merging(cursor.map { ["cursor": $0] } ?? [:]) { a, _ in a })
            let page = try Paging.page(items, for: request)
            seen += page["items"] as? [Int] ?? []
            cursor = page["next"] as? String
        } while cursor != nil
        XCTAssertEqual(seen, items)
    }
}
