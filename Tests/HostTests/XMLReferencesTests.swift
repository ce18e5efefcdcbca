import XCTest
import XMLText

/// References left in attribute values, as libxml2's tree builder resolves them.
final class XMLReferencesTests: XCTestCase {
    func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return String(decoding: bytes.withUnsafeBufferPointer(XMLReferences.decode), as: UTF8.self)
    }

    func testReferencesAreResolvedAsTheTreeResolvesThem() {
        XCTAssertEqual(decode("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;"), "a & b <c> \"d\" 'e'")
        XCTAssertEqual(decode("&#38;&#x26;&#X263A;&#233;t&#xE9;"), "&&☺été")
        XCTAssertEqual(decode("x&undeclared;y"), "xy", "an undeclared entity becomes nothing")
        XCTAssertEqual(decode("&#1114112;|&#xD800;|"), "||", "no such character: nothing")
        XCTAssertEqual(decode("trailing &"), "trailing &", "an '&' with no ';' after it stays")
        XCTAssertEqual(decode("plain"), "plain")
    }
}
