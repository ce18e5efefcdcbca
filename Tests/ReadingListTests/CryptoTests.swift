import XCTest
@testable import ReadingListFakes

/// The test-side OAuth 1.0a and PKCE that the fake servers verify the plugins with, checked against the
/// published examples of their specifications.
final class CryptoTests: XCTestCase {
    /// OAuth Core 1.0 Appendix A.5 (the photos.example.net walk-through, repeated by RFC 5849's predecessor docs).
    func testOAuth1SignatureMatchesTheSpecExample() {
        let parameters = [
            ("file", "vacation.jpg"), ("size", "original"), ("oauth_consumer_key", "dpf43f3p2l4k3l03"),
            ("oauth_token", "nnch734d00sl2jdk"), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", "1191242096"),
            ("oauth_nonce", "kllo9940pd9333jh"), ("oauth_version", "1.0")
        ]
        let base = TestCrypto.baseString(method: "GET", url: "http://photos.example.net/photos", parameters: parameters)
        XCTAssertEqual(
            base,
            "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03"
                + "%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096"
                + "%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal")
        XCTAssertEqual(
            TestCrypto.signature(
                method: "GET", url: "http://photos.example.net/photos", parameters: parameters,
                consumerSecret: "kd94hf93k423kf44", tokenSecret: "pfkkdhi9sl3r4s00"),
            "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
    }

    /// RFC 7636 Appendix B.
    func testPKCES256MatchesRFC7636() {
        XCTAssertEqual(
            TestCrypto.sha256base64url("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    func testPercentEncodingIsRFC3986() {
        XCTAssertEqual(TestCrypto.percent("a b+c/~é"), "a%20b%2Bc%2F~%C3%A9")
    }
}
