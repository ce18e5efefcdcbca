import Foundation
import Host
import TestSupport
import XCTest

/// Issue 19, item 2: a book opens at chapter one. The page every corpus book opens at, and that page's first words,
/// are written down in docs/opening-pages.md (reviewed by a person, book by book); the code must agree with it.
/// `SHELF_WRITE_OPENING_PAGES=1` rewrites the table from the code, for review when the rule changes.
final class OpeningPageTests: XCTestCase {
    static let table = ShelfProcess.packageRoot.appendingPathComponent("docs/opening-pages.md")
    static let header = "| Book | Opens at page | Of | First words of that page |\n|---|---|---|---|\n"

    /// One row: the page a first `shelf read` shows (at 72 columns) and its first words.
    static func row(_ url: URL) throws -> String {
        let (_, session) = try CorpusReading.session(url, width: 72)
        let start: Int
        do {
            start = try session.startPage()
        } catch {
            // A book whose opening cannot be read (DRM) says so in the table.
            let reason = (error as? ShelfError)?.message ?? "\(error)"
            return
                "| \(url.lastPathComponent) | – | \(session.pageCount) | (cannot be read: \(TextQuoteWords.first(reason, 60))) |"
        }
        let words = TextQuoteWords.first(try session.page(start).text, 60)
        return
            "| \(url.lastPathComponent) | \(start) | \(session.pageCount) | \(words.replacingOccurrences(of: "|", with: "\\|")) |"
    }

    func testEveryCorpusBookOpensWhereTheTableSays() throws {
        let rows = try CorpusReading.books().map(Self.row)
        XCTAssertEqual(rows.count, 55)
        let document = try String(contentsOf: Self.table, encoding: .utf8)
        guard let start = document.range(of: Self.header) else { return XCTFail("docs/opening-pages.md has no table") }
        let before = String(document[..<start.lowerBound])
        let written = document[start.upperBound...].split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("| ")
        }
        if ProcessInfo.processInfo.environment["SHELF_WRITE_OPENING_PAGES"] == "1" {
            try (before + Self.header + rows.joined(separator: "\n") + "\n").write(
                to: Self.table, atomically: true, encoding: .utf8)
        }
        for (row, expected) in zip(rows, written) where row != expected {
            XCTFail("opens elsewhere than the table says:\n  table: \(expected)\n  code:  \(row)")
        }
        XCTAssertEqual(rows.count, written.count, "the table has a row for every corpus book")
    }
}

enum TextQuoteWords {
    /// The first `limit` characters of a page's words, white space made single, cut at a word's end.
    static func first(_ text: String, _ limit: Int) -> String {
        let words = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard words.count > limit else { return words }
        let cut = String(words.prefix(limit))
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            return String(cut[..<space]) + " …"
        }
        return cut + "…"
    }
}
