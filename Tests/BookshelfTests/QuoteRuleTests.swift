import Foundation
import ShelfReader
import XCTest

/// One rule for the quote of a place, whichever face or player made it: a page's first words, a narrated phrase, a
/// sentence read aloud are all cut as `TextQuote.highlight(of:)` cuts (the browser's `quote()` follows the same).
/// Before, a phrase heard was kept whole up to 200 characters and a sentence read aloud whole.
final class QuoteRuleTests: XCTestCase {
    func testAPassageIsQuotedByItsFirstWordsAsAPageIs() {
        let sentence = String(repeating: "The gulls wheeled over the harbour wall and cried. ", count: 6)
        let quote = TextQuote.highlight(of: sentence)
        XCTAssertLessThanOrEqual(quote.count, 120)
        XCTAssertGreaterThan(quote.count, 60, "cut at a word, not far before the limit")
        XCTAssertTrue(sentence.hasPrefix(quote + " "), "whole words from the start: \(quote)")
        XCTAssertEqual(
            TextQuote.highlight(of: "  Call me\n  Ishmael.  "), "Call me Ishmael.", "white space made single")
    }
}
