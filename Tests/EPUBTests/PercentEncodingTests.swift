import PluginKit
import XCTest

/// The one RFC 3986 encoder the connectors share (query strings, form bodies, OAuth 1.0a).
final class PercentEncodingTests: XCTestCase {
    func testUnreservedCharactersStayAndEveryOtherByteIsUpperCaseHex() {
        XCTAssertEqual(PercentEncoding.encode("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(PercentEncoding.encode("a b+c/~é&=?%*"), "a%20b%2Bc%2F~%C3%A9%26%3D%3F%25%2A")
        XCTAssertEqual(PercentEncoding.encode("😀"), "%F0%9F%98%80")
        XCTAssertEqual(PercentEncoding.encode(""), "")
    }

    func testAFormJoinsEncodedPairs() {
        XCTAssertEqual(
            PercentEncoding.form([("q", "isbn:978 0"), ("redirect_uri", "http://127.0.0.1:8/cb")]),
            "q=isbn%3A978%200&redirect_uri=http%3A%2F%2F127.0.0.1%3A8%2Fcb")
    }
}
