import EPUBCore
import Foundation
import XCTest

/// META-INF/encryption.xml present but unreadable used to count as absent (`try?`, issue 13): the book opened without
/// a word, its encrypted items shown as garbage. Now it opens with a warning that says so.
final class UnreadableEncryptionTests: XCTestCase {
    func testAnEncryptionDocumentThatCannotBeReadIsWarnedAbout() throws {
        let dir = try FixtureDir()
        let encryption =
            "<encryption xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><!-- MARKER --></encryption>"
        let path = try dir.zip(
            "damaged-encryption.epub", Books.epub2Entries() + [("META-INF/encryption.xml", Data(encryption.utf8))],
            stored: ["mimetype", "META-INF/encryption.xml"])
        // One byte of the stored entry changed on disk: its CRC no longer matches, so reading it fails.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = try XCTUnwrap(bytes.range(of: Data("MARKER".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "N")
        try bytes.write(to: URL(fileURLWithPath: path))
        let pub = try EPUBPublication(path: path)
        XCTAssertTrue(
            pub.warnings.contains { $0.contains("META-INF/encryption.xml cannot be read") }, "\(pub.warnings)")
    }
}
