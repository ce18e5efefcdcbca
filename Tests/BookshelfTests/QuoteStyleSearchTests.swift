import Foundation
import TestSupport
import XCTest

/// Search ignores quote styles as it ignores accents: what a patron types with the keyboard's apostrophe finds the
/// book's typographic one, and the reverse. `shelf search`, `shelf read`'s search and the browser's all ask the book's
/// plugin, which folds text with TextFolding's one folding. Failed before: no hit either way.
final class QuoteStyleSearchTests: BookshelfTestCase {
    func book() throws -> String {
        let path = folder.appendingPathComponent("francais.epub").path
        try FixtureBooks.write(
            to: path, identifier: "urn:uuid:quotes-1", title: "Le Phare",
            chapters: [
                FixtureBooks.Chapter(
                    file: "c1.xhtml", title: "Un",
                    paragraphs: [
                        "Je n’avais pas vu « l’homme du phare » depuis des années.",
                        "Il m'avait dit : \"reviens\" et je n'étais jamais revenu."
                    ])
            ])
        return path
    }

    func hits(_ path: String, _ query: String) throws -> [[String: Any]] {
        try XCTUnwrap(try ok(["search", path, query, "--json"]).json() as? [[String: Any]], query)
    }

    func testTheKeyboardsApostropheFindsTheBooksAndTheReverse() throws {
        let path = try book()
        XCTAssertEqual(try hits(path, "n'avais pas").count, 1, "the typed apostrophe finds ’")
        XCTAssertEqual(try hits(path, "N’ÉTAIS JAMAIS").count, 1, "the typographic one finds ', with case and accents")
        XCTAssertEqual(try hits(path, "« l'homme").count, 1)
        XCTAssertEqual(try hits(path, "\" l’homme du phare \"").count, 1, "straight quotes find guillemets")
        XCTAssertEqual(try hits(path, "“reviens”").count, 1, "curly quotes find straight ones")
        XCTAssertEqual(try hits(path, "n’avait").count, 0)
    }
}
