import Foundation
import TestSupport
import XCTest

/// A served shelf with a session and a fake library beside it: the set-up the API tests of the library side share.
/// `makeLibrary` gives the library a test needs (a larger book, say); the account is added by each test, or by a
/// subclass's set-up, since some tests begin before there is one.
class LibraryWebTestCase: WebServerTestCase {
    var library: FakeLibrary!
    var session = ""

    func makeLibrary() throws -> FakeLibrary { try FakeLibrary() }

    override func setUpWithError() throws {
        library = try makeLibrary()
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
}
