import Foundation
import TestSupport
import Web
import XCTest

/// Issue 31, item 1: what the reader's and the listening routes refuse is said in the host's words, as whole
/// sentences with a hint that names a page, a button or the request (never a command), and the kind the front end
/// reads. Failed before: the routes wrote their own ("What to search for? Add ?q=WORDS.", "A bookmark's id is a
/// number" without a full stop, "Which book? Add ?book=ID (`shelf books` shows the ids).").
final class ReaderRefusalTests: WebServerTestCase {
    var session = ""

    func send(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> RawHTTP.Answer {
        var headers = ["X-Shelf-Session": session, "Origin": origin]
        var data = Data()
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        return try http.send(method, path, headers: headers, body: data)
    }

    /// The problem document's status, sentence (`title`), hint (`detail`) and kind.
    func problem(_ answer: RawHTTP.Answer) throws -> (Int, String?, String?, String) {
        let document = try answer.json()
        let kind = (document["type"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
        return (answer.status, document["title"] as? String, document["detail"] as? String, kind)
    }

    func testTheReaderAndTheListeningRoutesRefuseInTheHostsWords() throws {
        let sample = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        XCTAssertEqual(try shelf.run(["add", sample]).status, 0)
        session = try signIn()
        let book = try XCTUnwrap((try send("GET", "/api/shelf").json()["items"] as? [[String: Any]])?.first)
        let id = try XCTUnwrap(book["id"] as? String), title = try XCTUnwrap(book["title"] as? String)
        let query = "book=" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

        var (status, sentence, hint, kind) = try problem(try send("GET", "/api/reader/search?\(query)"))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(sentence, "What to search for?")
        XCTAssertEqual(hint, "Add ?q=WORDS to the address.")

        (status, sentence, hint, kind) = try problem(try send("GET", "/api/reader/pages"))
        XCTAssertEqual(sentence, "Which book?")
        XCTAssertEqual(hint, "Add ?book=ID to the address.")

        (status, sentence, _, _) = try problem(try send("DELETE", "/api/reader/bookmarks/first"))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(sentence, "A bookmark’s id is a number.")

        (status, sentence, hint, _) = try problem(try send("DELETE", "/api/reader/bookmarks/99"))
        XCTAssertEqual(status, 404)
        XCTAssertEqual(sentence, "There is no bookmark 99.")
        XCTAssertEqual(hint, "The book’s list of bookmarks shows those there are.")

        (status, sentence, _, _) = try problem(try send("POST", "/api/reader/settings", ["fontScale": "big"]))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(sentence, "“fontScale” is a whole percentage from 25 to 800, or “default”.")

        (status, sentence, hint, kind) = try problem(
            try send("POST", "/api/player/position", ["book": id, "seconds": 3]))
        XCTAssertEqual(status, 409)
        XCTAssertEqual(sentence, "“\(title)” is not an audiobook.")
        XCTAssertEqual(hint, "Read it in the reader.")
        XCTAssertEqual(kind, "not-an-audiobook")

        (status, sentence, hint, kind) = try problem(try send("GET", "/api/listen?\(query)"))
        XCTAssertEqual(status, 404)
        XCTAssertEqual(sentence, "This book is not being listened to.")
        XCTAssertEqual(hint, "Press Listen.")
        XCTAssertEqual(kind, "not-listening")

        (status, sentence, hint, kind) = try problem(try send("GET", "/api/reader/place?book=no-such-book"))
        XCTAssertEqual(status, 404)
        XCTAssertEqual(sentence, "No book with id no-such-book is on the shelf.")
        XCTAssertEqual(kind, "not-found")
    }
}
