import EPUBCore
import Foundation
import XCTest

/// The package, NCX, nav and SMIL documents are read from a SAX2 stream, or from the recovering tree
/// when the stream cannot take a document as the tree would read it. Both must give the same book:
/// each fixture is opened as it is (streamed) and with a stray element of an unbound prefix before
/// its root's end tag (a namespace error, nothing else: the stream refuses it and the tree reads it,
/// ignoring the element).
final class StreamAgreementTests: XCTestCase {
    var dir: FixtureDir!
    override func setUpWithError() throws { dir = try FixtureDir() }
    override func tearDown() { dir = nil }

    func testStreamAndTreeReadTheSameBook() throws {
        for (name, entries) in [("b2", Books.epub2Entries()), ("b3", Books.epub3Entries())] {
            let streamed = try EPUBPublication(path: try dir.zip("\(name).epub", entries))
            let forced = entries.map { entry -> (String, Data) in
                let (path, data) = entry
                guard [".opf", ".ncx", ".smil", "nav.xhtml"].contains(where: { path.hasSuffix($0) }) else {
                    return entry
                }
                var text = String(decoding: data, as: UTF8.self)
                let end = try! XCTUnwrap(text.range(of: "</", options: .backwards))
                text.insert(contentsOf: "<stray:element/>", at: end.lowerBound)
                return (path, Data(text.utf8))
            }
            XCTAssertNotEqual(forced.map(\.1), entries.map(\.1), name)
            let fromTree = try EPUBPublication(path: try dir.zip("\(name)-tree.epub", forced))
            XCTAssertEqual(try fromTree.manifest(), try streamed.manifest(), name)
            XCTAssertEqual(fromTree.warnings, streamed.warnings, name)
            XCTAssertEqual(fromTree.book.navigation.landmarks, streamed.book.navigation.landmarks, name)
            XCTAssertEqual(fromTree.book.navigation.pageList, streamed.book.navigation.pageList, name)
        }
    }
}
