import Foundation
import Host
import ShelfPlugins
import TestSupport
import XCTest
@testable import ReadingListFakes

/// Every file of ../shared/corpus/readinglists read by the bundled connectors, each checked against a second, plain
/// read of the same file in the test (regular expressions over the text, no XML or CSV library shared with the plugin).
final class CorpusTests: ConnectorTestCase {
    func corpus() throws -> URL {
        guard let root = Corpus.root else { throw XCTSkip("../shared/corpus is absent: corpus checks need it") }
        return root.appendingPathComponent("readinglists")
    }

    func goodreads(_ settings: [String: String]) throws -> Connector.Connection {
        let plugin = try LoadedPlugin(
            path: ShelfProcess.buildDirectory.appendingPathComponent("libshelf-goodreads.so").path)
        try plugin.initialise(directories: ConnectorServices.credentialDirectories)
        return try Connector(plugin: plugin, service: "goodreads").connect(settings: settings)
    }

    /// Where each corpus file is read; a file added to the corpus without a reader here fails this test.
    static let coverage: [String: String] = [
        "goodreads/csv/andgineer-create-goodreads_library_export.csv":
            "ConnectorTests.testGoodreadsExportWith24Columns",
        "goodreads/csv/openlibrary-goodreads_library_export.csv": "ConnectorTests.testGoodreadsExportWith31Columns",
        "goodreads/api-xml/reviews.xml": "testGoodreadsReviewAnswers",
        "goodreads/api-xml/review-list-to-read-p1.xml": "testGoodreadsReviewAnswers",
        "goodreads/api-xml/reviews-empty.xml": "testGoodreadsReviewAnswers",
        "goodreads/api-xml/review-show.xml": "testGoodreadsReviewAnswers",
        "goodreads/api-xml/review-create.xml": "testGoodreadsReviewAnswers",
        "goodreads/api-xml/owned-books.xml": "testGoodreadsReviewAnswers",
        "goodreads/api-xml/book-show.xml": "testGoodreadsAnswersWithoutThePatronsReviews",
        "goodreads/api-xml/search-books.xml": "testGoodreadsAnswersWithoutThePatronsReviews",
        "goodreads/api-xml/shelves-list-3.xml": "testGoodreadsShelfLists",
        "goodreads/api-xml/shelves-list-6.xml": "testGoodreadsShelfLists",
        "goodreads/api-xml/shelf-add-to-shelf.xml": "testGoodreadsWriteAnswers",
        "goodreads/api-xml/add-books-to-shelves.xml": "testGoodreadsWriteAnswers",
        "goodreads/api-xml/oauth-response.xml": "EndToEndTests.testGoodreadsLegacyKeySignInPullAndSignedPush",
        "google-books/volumes-search.json": "ConnectorTests.testGoogleBooksPublicShelvesWithAnAPIKeyAndPagination",
        "google-books/volume-en.json": "ConnectorTests.testGoogleBooksPublicShelvesWithAnAPIKeyAndPagination",
        "google-books/books-v1-discovery.json": "FakeGoogleBooks (wire formats); not a captured answer"
    ]

    func testEveryCorpusFileHasAReader() throws {
        let root = try corpus()
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { !$0.hasDirectoryPath && $0.lastPathComponent != "PROVENANCE.md" }
            .map { String($0.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
        XCTAssertFalse(files.isEmpty)
        for file in files { XCTAssertNotNil(Self.coverage[file], "\(file) is read by no test") }
    }

    // MARK: Independent reads

    static func matches(_ pattern: String, _ text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
            (0..<m.numberOfRanges).map {
                m.range(at: $0).location == NSNotFound ? "" : ns.substring(with: m.range(at: $0))
            }
        }
    }

    /// "Fri May 06 16:15:12 -0700 2011" → "2011-05-06": the day as written, in the zone written.
    static func day(_ goodreads: String) -> String? {
        let words = goodreads.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard words.count == 6, let month = months.firstIndex(of: String(words[1])) else { return nil }
        return "\(words[5])-\(String(format: "%02d", month + 1))-\(words[2])"
    }

    /// One patron's book per `<review>` holding a `<book>` (or per `<owned_book>`), read as plain text.
    struct Block {
        var isbn13: String?; var isbn10: String?; var shelves: [String]; var added: String?; var read: String?
    }

    static func blocks(_ text: String) -> [Block] {
        let owned = text.contains("<owned_book>")
        let pattern = owned ? "<owned_book>(.*?)</owned_book>" : "<review>\\s*<id>[^<]*</id>(.*?)</review>"
        return matches(pattern, text).compactMap { m in
            let body = m[1]
            guard body.contains("<book>") else { return nil }
            func value(_ name: String) -> String? {
                matches("<\(name)>\\s*(?:<!\\[CDATA\\[)?([^<\\]]*?)(?:\\]\\]>)?\\s*</\(name)>", body).first?[1]
                    .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
            }
            let shelves = matches("<shelf name=\"([^\"]+)\"", body).map { $0[1] }
            return Block(
                isbn13: value("isbn13"), isbn10: value("isbn"), shelves: shelves,
                added: value("date_added").flatMap(day), read: value("read_at").flatMap(day))
        }
    }

    /// A loopback Goodreads answering the shelf list and page 1 of the review list with the given files.
    func serve(shelves: String, reviews: String) throws -> LoopbackHTTPServer {
        let root = try corpus().appendingPathComponent("goodreads/api-xml")
        let server = try LoopbackHTTPServer()
        let shelfData = try Data(contentsOf: root.appendingPathComponent(shelves))
        let reviewData = try Data(contentsOf: root.appendingPathComponent(reviews))
        let empty = try Data(contentsOf: root.appendingPathComponent("reviews-empty.xml"))
        server.route("GET", "/shelf/list.xml") { _ in .data(shelfData, contentType: "application/xml") }
        server.route("GET", "/review/list/1.xml") { r in
            .data(r.queryItems["page"] == "1" ? reviewData : empty, contentType: "application/xml")
        }
        try ConnectorServices.setSecret("key", pluginID: "org.shelf.goodreads", key: "apiKey")
        return server
    }

    // MARK: Goodreads XML

    func testGoodreadsReviewAnswers() throws {
        let root = try corpus().appendingPathComponent("goodreads/api-xml")
        for name in [
            "reviews.xml", "review-list-to-read-p1.xml", "reviews-empty.xml", "review-show.xml", "review-create.xml",
            "owned-books.xml"
        ] {
            let server = try serve(shelves: "shelves-list-3.xml", reviews: name)
            defer { server.stop() }
            let result = try goodreads(["baseURL": server.url("").absoluteString, "userId": "1"]).pull(shelf: "to-read")
            let expected = Self.blocks(try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8))
            XCTAssertEqual(result.entries.count, expected.count, name)
            XCTAssertEqual(
                result.entries.compactMap(\.isbn13).sorted(),
                expected.compactMap { $0.isbn13 ?? $0.isbn10.flatMap(ISBN.thirteen) }.sorted(), name)
            XCTAssertEqual(result.entries.compactMap(\.dateAdded).sorted(), expected.compactMap(\.added).sorted(), name)
            XCTAssertEqual(result.entries.compactMap(\.dateRead).sorted(), expected.compactMap(\.read).sorted(), name)
            XCTAssertEqual(
                result.entries.map { Set($0.shelves ?? [$0.shelf]) }.map { $0.sorted() }.sorted {
                    $0.description < $1.description
                },
                expected.map { Set($0.shelves.isEmpty ? ["to-read"] : $0.shelves).sorted() }.sorted {
                    $0.description < $1.description
                }, name)
        }
    }

    func testGoodreadsAnswersWithoutThePatronsReviews() throws {
        let root = try corpus().appendingPathComponent("goodreads/api-xml")
        for name in ["book-show.xml", "search-books.xml"] {
            let text = String(decoding: try Data(contentsOf: root.appendingPathComponent(name)), as: UTF8.self)
            // book/show's reviews are other readers' (inside <book>); search/index is cut short (no XML declaration start).
            XCTAssertEqual(Self.blocks(text).count, 0, name)
            let server = try serve(shelves: "shelves-list-3.xml", reviews: name)
            defer { server.stop() }
            XCTAssertThrowsError(
                try goodreads(["baseURL": server.url("").absoluteString, "userId": "1"]).pull(shelf: "to-read"), name
            ) { error in
                XCTAssertEqual((error as? PluginCallError)?.status, 4, "\(name): refused as bad data: \(error)")
            }
        }
    }

    func testGoodreadsShelfLists() throws {
        let root = try corpus().appendingPathComponent("goodreads/api-xml")
        for name in ["shelves-list-3.xml", "shelves-list-6.xml"] {
            let server = try serve(shelves: name, reviews: "reviews-empty.xml")
            defer { server.stop() }
            let result = try goodreads(["baseURL": server.url("").absoluteString, "userId": "1"]).pull()
            let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            let blocks = Self.matches("<user_shelf>(.*?)</user_shelf>", text).map { $0[1] }
            XCTAssertEqual(
                result.shelves.map(\.name), blocks.map { Self.matches("<name>([^<]*)</name>", $0).first?[1] ?? "" },
                name)
            XCTAssertEqual(
                result.shelves.map(\.count),
                blocks.map { Self.matches("<book_count[^>]*>(\\d+)</book_count>", $0).first.flatMap { Int($0[1]) } },
                name)
            XCTAssertEqual(result.entries.count, 0)
        }
    }

    func testGoodreadsWriteAnswers() throws {
        let root = try corpus().appendingPathComponent("goodreads/api-xml")
        for (name, refused) in [
            ("shelf-add-to-shelf.xml", false), ("add-books-to-shelves.xml", false), ("add-books-to-shelves.xml", true)
        ] {
            let recorded = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            XCTAssertEqual(Self.matches("<result>([^<]*)</result>", recorded).first?[1] ?? "ok", "ok", name)
            let answer =
                refused
                ? recorded.replacingOccurrences(of: "<result>ok</result>", with: "<result>book not found</result>")
                : recorded
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("POST", "/shelf/add_to_shelf.xml") { _ in
                .text(answer, status: 201, contentType: "application/xml")
            }
            for (key, value) in ["apiKey": "k", "apiSecret": "s", "oauth_token": "t", "oauth_token_secret": "ts"] {
                try ConnectorServices.setSecret(value, pluginID: "org.shelf.goodreads", key: key)
            }
            let entry = ReadingListEntry(
                identifiers: ["goodreads": "456"], title: "Mindware", authors: ["Andy Clark"], shelf: "read")
            let result = try goodreads(["baseURL": server.url("").absoluteString, "userId": "1"]).push([entry])
            XCTAssertEqual(result.results.first?.status, refused ? "failed" : "added", name)
            if refused { XCTAssertEqual(result.results.first?.message, "Goodreads answered: book not found") }
            try? FileManager.default.removeItem(at: home.appendingPathComponent("data"))
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
