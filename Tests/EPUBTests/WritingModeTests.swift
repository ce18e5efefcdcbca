import EPUBCore
import Foundation
import PluginKit
import TestSupport
import XCTest

/// Issue 19, item 3: `render --as html` keeps a vertical book's writing mode (set on its root element) and says its
/// page progression direction.
final class WritingModeTests: XCTestCase {
    func testTheJapaneseVerticalBookStaysVertical() throws {
        guard let corpus = Corpus.root else {
            throw XCTSkip("the shared corpus is not beside this checkout (../shared/corpus)")
        }
        let pub = try EPUBPublication(
            path: corpus.appendingPathComponent("epub/epub3-i18n-japanese-vertical.epub").path)
        let index = try XCTUnwrap(pub.book.readingOrder.firstIndex { $0.item.path.hasSuffix("ch001.xhtml") })
        let html = try pub.renderItem(index, settings: RenderSettings(as: .html))
        let root = try XCTUnwrap(html.range(of: "<html[^>]*>", options: .regularExpression).map { String(html[$0]) })
        XCTAssertTrue(root.contains("writing-mode: vertical-rl"), root)
        XCTAssertTrue(root.contains("data-page-progression-direction=\"rtl\""), root)
        // A left-to-right book says so too, and has no style it did not have.
        let moby = try EPUBPublication(path: corpus.appendingPathComponent("epub/epub3-idpf-moby-dick.epub").path)
        let page = try moby.renderItem(moby.startIndex(), settings: RenderSettings(as: .html))
        XCTAssertFalse(page.prefix(400).contains("writing-mode"), String(page.prefix(400)))
    }
}
