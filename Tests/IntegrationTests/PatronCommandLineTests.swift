import Foundation
import TestSupport
import XCTest

/// What a patron meets typing commands by hand: words in the wrong number, a command meant for another, a catalog
/// that cannot do what was asked. Each message says what is wrong and the command that would work.
final class PatronCommandLineTests: ShelfTestCase {
    let sampleLibrary = ShelfProcess.packageRoot.appendingPathComponent("samples/library/catalog.xml")

    /// A title of several words typed without quotes: the words, and the command with them in quotes.
    func testATitleWithoutQuotesIsOfferedInQuotes() throws {
        let borrow = try run(["borrow", "Waiting", "Game"], expect: 64)
        XCTAssertTrue(borrow.stderr.contains("too many arguments: shelf borrow takes 1 (ID|TITLE), given 2: “Waiting” “Game”"), borrow.stderr)
        XCTAssertTrue(borrow.stderr.contains("shelf borrow \"Waiting Game\""), borrow.stderr)
        let search = try run(["search", "Lighthouse", "lamp", "room"], expect: 64)
        XCTAssertTrue(search.stderr.contains("shelf search Lighthouse \"lamp room\""), search.stderr)
        let loans = try run(["loans", "now"], expect: 64)
        XCTAssertTrue(loans.stderr.contains("shelf loans takes none, given 1: “now”"), loans.stderr)
    }

    /// `shelf search WORD` is the in-book search missing its book; a patron means the catalog.
    func testOneWordToSearchPointsAtTheCatalogSearch() throws {
        let result = try run(["search", "lighthouse"], expect: 64)
        XCTAssertTrue(result.stderr.contains("missing arguments: shelf search takes 2 (FILE QUERY), given 1: “lighthouse”"), result.stderr)
        XCTAssertTrue(result.stderr.contains("To search your library's catalog: shelf catalog-search lighthouse"), result.stderr)
        XCTAssertFalse(result.stderr.contains("wrong number of arguments"), result.stderr)
    }

    /// A catalog without search: what to do instead, in the format tab asked for.
    func testACatalogWithoutSearchSaysToBrowseIt() throws {
        try run(["account", "add", sampleLibrary.absoluteString])
        let result = try run(["catalog-search", "winter", "--format", "audiobook"], expect: 69)
        XCTAssertTrue(result.stderr.contains("Shelf Sample Library offers no search"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Browse its titles instead: `shelf browse --format audiobook`."), result.stderr)
    }
}
