import Foundation
import Host
import TestSupport
import Web
import XCTest

/// The JSON API over a fake library on loopback: paging, events, errors as problem documents, OpenAPI.
final class APITests: LibraryWebTestCase {
    // A book of 2 MiB, so that a download has a middle to report.
    override func makeLibrary() throws -> FakeLibrary {
        try FakeLibrary(epub: FakeLibrary.minimalEPUB() + Data(count: 2 << 20))
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
        XCTAssertEqual(try missing.json()["title"] as? String, "“url” is missing from the request.")
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
        let second: [String: Any] = [
            "href": "OEBPS/chapter-2.xhtml", "type": "application/xhtml+xml", "locations": ["progression": 0]
        ]
        XCTAssertEqual(try post("/api/reader/place", ["book": id, "locator": second]).status, 200)
        XCTAssertEqual((try get("/api/shelf").json()["items"] as? [[String: Any]])?.first?["page"] as? Int, 2)
    }

    func testTheReadersPlaceIsALocatorThatShelfReadFindsAgain() throws {
        // Issue 31: the browser saves its place as a Readium locator (its screen's chapter, progression and first
        // words), answered with the page it stands for and read back as it was saved; `shelf read` opens at the page
        // showing those words. Failed before: the place was a page number (`{"page"}`), a locator was refused.
        let sample = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        XCTAssertEqual(try shelf.run(["add", sample]).status, 0)
        let id = try XCTUnwrap((try get("/api/shelf").json()["items"] as? [[String: Any]])?.first?["id"] as? String)
        let query = "book=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        // Issue 37: before any place is saved the place says `first` (the browser shows the jacket); not after.
        XCTAssertEqual(try get("/api/reader/place?\(query)").json()["first"] as? Bool, true)
        let words = "A list of birds. A recipe for fish soup."
        let locator: [String: Any] = [
            "href": "OEBPS/chapter-3.xhtml", "type": "application/xhtml+xml", "locations": ["progression": 0.4],
            "text": ["highlight": words]
        ]
        let saved = try post("/api/reader/place", ["book": id, "locator": locator])
        XCTAssertEqual(saved.status, 200, saved.text)
        let answer = try saved.json()
        XCTAssertEqual(answer["page"] as? Int, 3)
        XCTAssertEqual(answer["pages"] as? Int, 3)
        let kept = try XCTUnwrap(answer["locator"] as? [String: Any])
        XCTAssertEqual((kept["locations"] as? [String: Any])?["position"] as? Int, 3)
        XCTAssertEqual((kept["locations"] as? [String: Any])?["progression"] as? Double, 0.4)
        let read = try XCTUnwrap(
            try get("/api/reader/place?book=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)").json()
        )
        XCTAssertEqual(((read["locator"] as? [String: Any])?["text"] as? [String: Any])?["highlight"] as? String, words)
        XCTAssertEqual(read["page"] as? Int, 3)
        XCTAssertNil(read["first"])
        let terminal = try shelf.run(["read", id, "--json"])
        XCTAssertEqual(terminal.status, 0)
        let page = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(terminal.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(page["page"] as? Int, 3)
        let shown = (page["text"] as? String ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(shown.contains("A list of birds."), terminal.stdout)
        // What is not a place of this book is refused, and the place stays.
        for wrong: [String: Any] in [
            ["book": id, "page": 2],
            ["book": id, "locator": ["href": "OEBPS/nowhere.xhtml", "type": "application/xhtml+xml"]],
            ["book": id, "locator": ["href": "OEBPS/chapter-1.xhtml", "type": "", "locations": ["progression": 2]]]
        ] {
            XCTAssertEqual(try post("/api/reader/place", wrong).status, 400, "\(wrong)")
        }
        XCTAssertEqual((try get("/api/shelf").json()["items"] as? [[String: Any]])?.first?["page"] as? Int, 3)
    }

    func testPlacesSavedAtOnceAreEachAnsweredAndTheNewestIsKept() throws {
        // The saves arriving at once share a transaction (the host's group commit): every one is answered once
        // written, none is lost to another's, and the place kept is one of them, as `shelf read` reads it.
        let sample = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        XCTAssertEqual(try shelf.run(["add", sample]).status, 0)
        let id = try XCTUnwrap((try get("/api/shelf").json()["items"] as? [[String: Any]])?.first?["id"] as? String)
        let hrefs = ["OEBPS/chapter-1.xhtml", "OEBPS/chapter-2.xhtml", "OEBPS/chapter-3.xhtml"]
        let port = app.port,
            headers = ["X-Shelf-Session": session, "Origin": origin, "Content-Type": "application/json"]
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: 24) { n in
            let locator: [String: Any] = [
                "href": hrefs[n % 3], "type": "application/xhtml+xml", "locations": ["progression": Double(n) / 24]
            ]
            let body = try? JSONSerialization.data(withJSONObject: ["book": id, "locator": locator])
            let answer = try? RawHTTP(port: port).send(
                "POST", "/api/reader/place", headers: headers, body: body ?? Data(), timeout: 60)
            statuses.add(answer?.status ?? 0)
        }
        XCTAssertEqual(statuses.all, Array(repeating: 200, count: 24))
        let kept = try get("/api/reader/place?book=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            .json()
        let href = try XCTUnwrap((kept["locator"] as? [String: Any])?["href"] as? String)
        XCTAssertTrue(hrefs.contains(href), href)
        let terminal = try XCTUnwrap(try shelf.run(["read", id, "--json"]).json() as? [String: Any])
        XCTAssertEqual(terminal["page"] as? Int, kept["page"] as? Int)
        XCTAssertEqual(terminal["page"] as? Int, hrefs.firstIndex(of: href).map { $0 + 1 })
    }

    /// Answers' statuses gathered from several threads.
    /// Unchecked Sendable: `list` is read and written under `lock`.
    final class Statuses: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Int] = []
        func add(_ status: Int) { lock.withLock { list.append(status) } }
        var all: [Int] { lock.withLock { list } }
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

    /// The sentences the browser's scripts say of their own come from the host, all of them, as the words module
    /// writes them (web/js/notices.js loads them once).
    func testTheWordsAreTheHostsNoticesByKey() throws {
        let words = try get("/api/words").json()
        XCTAssertEqual(words as? [String: String], BrowserWords.lines)
        XCTAssertEqual(words["connection.lost"] as? String, ConnectionNotice.lost.words(for: .browser).line)
        XCTAssertEqual(words["narration.ready"] as? String, NarrationNotice.ready.words(for: .browser).line)
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
            struct Page: Decodable { let items: [Int], next: String? }
            let page = try JSONDecoder().decode(Page.self, from: XCTUnwrap(Paging.response(items, for: request).bytes))
            seen += page.items
            cursor = page.next
        } while cursor != nil
        XCTAssertEqual(seen, items)
    }
}
