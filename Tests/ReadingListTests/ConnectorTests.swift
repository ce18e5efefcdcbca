import Foundation
import Host
import ShelfPlugins
import TestSupport
import XCTest
@testable import ReadingListFakes

/// The bundled connectors loaded in-process through the host's `Connector`, exactly as `shelf lists` calls them,
/// against the corpus (when present), fixtures of our own, and loopback servers.
final class ConnectorTests: ConnectorTestCase {
    func connector(_ library: String, _ service: String) throws -> Connector {
        let plugin = try LoadedPlugin(path: ShelfProcess.buildDirectory.appendingPathComponent(library).path)
        try plugin.initialise(directories: ConnectorServices.credentialDirectories)
        return try Connector(plugin: plugin, service: service)
    }

    func goodreads(_ settings: [String: String]) throws -> Connector.Connection {
        try connector("libshelf-goodreads.so", "goodreads").connect(settings: settings)
    }

    func corpus() throws -> URL {
        guard let root = Corpus.root else { throw XCTSkip("../shared/corpus is absent: corpus checks need it") }
        return root
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    // MARK: Goodreads CSV

    /// Rows of an export read independently: lines that start with a Book Id (neither corpus file has a
    /// multi-line field).
    func independentRows(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
            .filter { $0.first?.isNumber == true }.map(String.init)
    }

    func testGoodreadsExportWith24Columns() throws {
        let path = try corpus().appendingPathComponent(
            "readinglists/goodreads/csv/andgineer-create-goodreads_library_export.csv"
        ).path
        let result = try goodreads(["file": path]).pull()
        let rows = try independentRows(path)
        XCTAssertEqual(result.entries.count, rows.count)
        XCTAssertEqual(result.entries.filter { $0.shelf == "read" }.count, rows.filter { $0.contains(",read,") }.count)
        XCTAssertEqual(result.entries.filter { $0.shelf == "to-read" }.count, 1)
        let mort = try XCTUnwrap(result.entries.first { $0.title.hasPrefix("Mort") })
        XCTAssertEqual(mort.identifiers, ["goodreads": "386372", "isbn10": "0061020680", "isbn13": "9780061020681"])
        XCTAssertEqual(mort.dateRead, "2020-11-01")
        XCTAssertEqual(mort.dateAdded, "2020-11-27")
        XCTAssertEqual(mort.rating, 5)
        XCTAssertEqual(mort.shelves, ["read", "audio", "fiction"])
        let earth = try XCTUnwrap(result.entries.first { $0.title == "The Wandering Earth" })
        XCTAssertNil(earth.isbn, "=\"\" is no ISBN")
        XCTAssertEqual(earth.authors, ["Liu Cixin", "Holger Nahm"])
        XCTAssertEqual(earth.rating, 2)
        XCTAssertNil(earth.dateRead)
        let review = try XCTUnwrap(result.entries.first { $0.title.hasPrefix("Икарова") })
        XCTAssertEqual(review.isbn13, "9785170774845")
        XCTAssertEqual(
            result.entries.compactMap(\.isbn13).sorted(),
            rows.compactMap { (row: String) -> String? in
                guard let r = row.range(of: #"=""(\d{13})"""#, options: .regularExpression) else { return nil }
                return String(row[r]).filter(\.isNumber)
            }.sorted())
    }

    func testGoodreadsExportWith31Columns() throws {
        let path = try corpus().appendingPathComponent(
            "readinglists/goodreads/csv/openlibrary-goodreads_library_export.csv"
        ).path
        let result = try goodreads(["file": path]).pull()
        XCTAssertEqual(result.entries.count, try independentRows(path).count)
        XCTAssertEqual(Set(result.entries.map(\.shelf)), ["to-read"])
        let pippi = try XCTUnwrap(result.entries.first { $0.title.hasPrefix("Pippi") })
        XCTAssertEqual(pippi.isbn13, "9780142402498")
        XCTAssertEqual(pippi.isbn10, "0142402494")
        XCTAssertEqual(pippi.authors, ["Astrid Lindgren", "Florence Lamborn", "Louis S. Glanzman"])
        XCTAssertEqual(pippi.dateAdded, "2020-12-13")
        XCTAssertNil(pippi.rating, "0 stars means not rated")
        XCTAssertEqual(result.entries.first { $0.title.hasPrefix("Range") }?.authors, ["David Epstein"])
        XCTAssertNil(result.entries.first { $0.title.hasPrefix("Test Book") }?.isbn)
        XCTAssertEqual(result.shelves.first?.name, "to-read")
        XCTAssertEqual(result.shelves.first?.count, 3)
    }

    func testGoodreadsCSVQuotingMultiLineReviewsBOMAndCRLF() throws {
        let csv =
            "\u{FEFF}Book Id,Title,Author,Additional Authors,ISBN,ISBN13,My Rating,Date Read,Date Added,Exclusive Shelf,Bookshelves,My Review\r\n"
            + "1,\"Comma, Quote \"\"and\"\" Line\",Ann Author,,\"=\"\"0306406152\"\"\",\"=\"\"\"\"\",4,2021/03/04,2021/01/02,read,\"classics, favourites\",\"Line one,\r\nline two<br/>\n\"\"quoted\"\"\"\r\n"
            + "2,Second,Bob Writer,,,=\"9780306406157\",0,,2022/05/06,currently-reading,,\r\n"
            + "3,Third,Cy Scribe,,,,,,2022/05/07,to-read,,"
        let result = try goodreads(["file": try write(csv, "export.csv")]).pull()
        XCTAssertEqual(result.entries.count, 3)
        let first = result.entries[0]
        XCTAssertEqual(first.title, "Comma, Quote \"and\" Line")
        XCTAssertEqual(first.isbn10, "0306406152")
        XCTAssertEqual(first.dateRead, "2021-03-04")
        XCTAssertEqual(first.shelves, ["read", "classics", "favourites"])
        XCTAssertEqual(result.entries[1].isbn13, "9780306406157")
        XCTAssertEqual(result.entries[1].shelf, "currently-reading")
        XCTAssertEqual(result.entries[2].shelf, "to-read")
        // Only a to-read shelf: the same file, filtered.
        let toRead = try goodreads(["file": try write(csv, "export2.csv")]).pull(shelf: "to-read")
        XCTAssertEqual(toRead.entries.map(\.title), ["Third"])
    }

    func testBrokenExportsFailWithAMessage() throws {
        for (name, text) in [
            ("unterminated.csv", "Book Id,Title,Author\n1,\"never closed,x\n"),
            ("other.csv", "a,b,c\n1,2,3\n"), ("empty.csv", "")
        ] {
            XCTAssertThrowsError(try goodreads(["file": try write(text, name)]).pull(), name) { error in
                let e = error as? PluginCallError
                XCTAssertNotNil(e, "\(error)")
                XCTAssertFalse(e?.message.isEmpty ?? true)
            }
        }
        XCTAssertThrowsError(try goodreads(["file": home.appendingPathComponent("missing.csv").path]).pull())
        var random = SystemRandomNumberGenerator()
        let bytes = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) })
        let path = home.appendingPathComponent("random.csv")
        try bytes.write(to: path)
        _ = try? goodreads(["file": path.path]).pull()  // any answer but a crash
    }

    func testSettingsAreChecked() throws {
        let c = try connector("libshelf-goodreads.so", "goodreads")
        XCTAssertThrowsError(try c.connect(settings: ["baseURL": "ftp://x"]))
        XCTAssertThrowsError(try c.connect(settings: ["userId": "12; rm"]))
        XCTAssertThrowsError(try c.connect(settings: [:]).pull()) { error in
            XCTAssertTrue((error as? PluginCallError)?.message.contains("export file") == true, "\(error)")
        }
        let d = try c.describe()
        XCTAssertEqual(d.service, "goodreads")
        XCTAssertEqual(d.pull, true)
        XCTAssertEqual(d.pushWrites, "file")
        XCTAssertTrue(d.settings?.contains { $0.key == "apiKey" && $0.secret == true } == true)
    }

    // MARK: Goodreads push without a write API

    func testGoodreadsPushWritesAnImportCSVOnce() throws {
        let export = home.appendingPathComponent("import.csv").path
        let c = try goodreads(["exportFile": export])
        let entries = [
            ReadingListEntry(
                identifiers: ["isbn13": "9780061020681"], title: "Mort", authors: ["Terry Pratchett"], shelf: "read",
                dateRead: "2026-11-29", rating: 4),
            ReadingListEntry(title: "A \"quoted\", title", authors: ["X"], shelf: "to-read")
        ]
        let first = try c.push(entries)
        XCTAssertEqual(first.results.map(\.status), ["exported", "exported"])
        XCTAssertEqual(first.file, export)
        XCTAssertTrue(first.results[0].message?.contains("goodreads.com/review/import") == true)
        let second = try c.push(entries)
        XCTAssertEqual(second.results.map(\.status), ["unchanged", "unchanged"])
        let text = try String(contentsOfFile: export, encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n").count, 3, text)
        XCTAssertTrue(
            text.hasPrefix(
                "Book Id,Title,Author,ISBN,ISBN13,My Rating,Date Read,Date Added,Exclusive Shelf,Bookshelves\n"))
        XCTAssertTrue(text.contains(",Mort,Terry Pratchett,,\"=\"\"9780061020681\"\"\",4,2026/11/29,,read,read"), text)
        // The file reads back as an export.
        let back = try goodreads(["file": export]).pull()
        XCTAssertEqual(back.entries.map(\.title), ["Mort", "A \"quoted\", title"])
    }

    // MARK: Goodreads XML API and RSS

    func testGoodreadsLegacyAPIWithAKey() throws {
        let root = try corpus()
        let server = try FakeGoodreads(corpus: root)
        defer { server.stop() }
        try ConnectorServices.setSecret(server.consumerKey, pluginID: "org.shelf.goodreads", key: "apiKey")
        let result = try goodreads(["baseURL": server.base, "userId": server.user]).pull()
        XCTAssertEqual(
            result.shelves.map(\.name),
            ["read", "currently-reading", "to-read", "to-be-processed", "owned", "want-to-own"])
        // Independent read of the served documents: <review> elements and their isbn13s.
        let dir = root.appendingPathComponent("readinglists/goodreads/api-xml")
        var served = 0
        var toRead = 0
        var isbns: [String] = []
        for name in ["review-list-to-read-p1.xml", "reviews.xml"] {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            served += text.components(separatedBy: "<review>").count - 1
            toRead += text.components(separatedBy: "<shelf name=\"to-read\"").count - 1
            var rest = text[...]
            while let r = rest.range(of: #"<isbn13>\d{13}</isbn13>"#, options: .regularExpression) {
                isbns.append(String(String(rest[r]).dropFirst("<isbn13>".count).prefix(13)))
                rest = rest[r.upperBound...]
            }
        }
        XCTAssertEqual(result.entries.count, served)
        XCTAssertEqual(Set(result.entries.compactMap(\.isbn13)), Set(isbns))
        XCTAssertEqual(result.entries.filter { $0.shelf == "to-read" }.count, toRead)
        let first = try XCTUnwrap(result.entries.first { $0.isbn13 == "9780345409461" })
        XCTAssertFalse(first.title.isEmpty)
        XCTAssertFalse(first.authors.isEmpty)
        XCTAssertNotNil(first.dateAdded)
        // Page 2 of to-read was asked for, and reads used key=.
        let pages = server.server.requests(to: "/review/list/\(server.user).xml").filter {
            $0.queryItems["shelf"] == "to-read"
        }
        XCTAssertEqual(pages.compactMap { $0.queryItems["page"] }, ["1", "2"])
        XCTAssertTrue(pages.allSatisfy { $0.queryItems["key"] == server.consumerKey })
    }

    func testGoodreadsShelfRSSByUserID() throws {
        let server = try FakeGoodreads(corpus: Corpus.root ?? home)
        defer { server.stop() }
        let result = try goodreads(["baseURL": server.base, "userId": server.user]).pull()
        XCTAssertEqual(result.entries.count, 3)
        let mort = try XCTUnwrap(result.entries.first { $0.title.hasPrefix("Mort") })
        XCTAssertEqual(mort.isbn10, "0061020680")
        XCTAssertEqual(mort.identifiers["goodreads"], "386372")
        XCTAssertEqual(mort.dateRead, "2020-11-01")
        XCTAssertEqual(mort.dateAdded, "2020-11-27")
        XCTAssertEqual(mort.shelves, ["read", "audio", "fiction"])
        XCTAssertEqual(result.entries.first { $0.title.hasPrefix("Pippi") }?.shelf, "to-read")
        XCTAssertNil(result.entries.first { $0.title.hasPrefix("Pippi") }?.rating)
        XCTAssertThrowsError(try goodreads(["baseURL": server.base, "userId": "999"]).pull()) { error in
            XCTAssertEqual((error as? PluginCallError)?.status, 5, "a private profile is refused access: \(error)")
        }
    }

    func testHostileGoodreadsAnswersFailCleanly() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route(
            "GET", "/review/list_rss/1",
            .text("<rss><channel><item><title>x</title>", contentType: "application/rss+xml"))
        server.route(
            "GET", "/review/list_rss/2",
            .text(
                "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><rss><channel><item><title>&b;</title></item></channel></rss>"
            ))
        server.route("GET", "/review/list_rss/3", .text("<html/>"))
        for user in ["1", "3"] {
            XCTAssertThrowsError(
                try goodreads(["baseURL": server.url("").absoluteString, "userId": user]).pull(shelf: "read"), user)
        }
        // Entities are not expanded: the title stays unexpanded or the feed is refused, never a blow-up.
        if let result = try? goodreads(["baseURL": server.url("").absoluteString, "userId": "2"]).pull(shelf: "read") {
            XCTAssertTrue(result.entries.allSatisfy { $0.title.count < 100 })
        }
    }

    // MARK: Google Books

    func googleBooks(_ settings: [String: String]) throws -> Connector.Connection {
        try connector("libshelf-googlebooks.so", "google-books").connect(settings: settings)
    }

    func testGoogleBooksPublicShelvesWithAnAPIKeyAndPagination() throws {
        let server = try FakeGoogleBooks(corpus: Corpus.root)
        defer { server.stop() }
        let generated = (0..<45).map { String(format: "gen%03d", $0) }
        server.put(generated, on: 2)
        // Without the corpus, a volume of our own that is on no other shelf.
        server.put(Corpus.root == nil ? ["gen045"] : ["49T5twEACAAJ", "G7utDwAAQBAJ"], on: 4)
        try ConnectorServices.setSecret(server.apiKey, pluginID: "org.shelf.googlebooks", key: "apiKey")
        let result = try googleBooks(["baseURL": server.base, "userId": server.publicUser]).pull()
        XCTAssertEqual(Set(result.shelves.map(\.name)), ["to-read", "read"])
        XCTAssertEqual(result.entries.filter { $0.shelf == "to-read" }.count, 45, "two pages of 40 and 5")
        if Corpus.root != nil {
            let children = try XCTUnwrap(result.entries.first { $0.identifiers["google"] == "49T5twEACAAJ" })
            XCTAssertEqual(children.title, "Children of Time")
            XCTAssertEqual(children.isbn13, "9780316452502")
            XCTAssertEqual(children.isbn10, "0316452505")
            XCTAssertEqual(children.authors, ["Adrian Tchaikovsky"])
            XCTAssertEqual(children.shelf, "read")
        }
        let pages = server.server.requests(to: "/books/v1/users/\(server.publicUser)/bookshelves/2/volumes")
        XCTAssertEqual(pages.compactMap { $0.queryItems["startIndex"] }, ["0", "40"])
        XCTAssertTrue(pages.allSatisfy { $0.queryItems["key"] == server.apiKey && $0.queryItems["maxResults"] == "40" })
    }

    func testGoogleBooks429WaitsForRetryAfterAndResumes() throws {
        let server = try FakeGoogleBooks(corpus: nil)
        defer { server.stop() }
        server.put((0..<45).map { String(format: "gen%03d", $0) }, on: 2)
        server.throttleOnce = [2]
        try ConnectorServices.setSecret(server.apiKey, pluginID: "org.shelf.googlebooks", key: "apiKey")
        let started = Date()
        let result = try googleBooks(["baseURL": server.base, "userId": server.publicUser]).pull(shelf: "to-read")
        XCTAssertEqual(result.entries.count, 45)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9, "waited for Retry-After: 1")
        XCTAssertEqual(
            server.server.requests(to: "/books/v1/users/\(server.publicUser)/bookshelves/2/volumes").count, 3)
    }

    func testGoogleBooksWithoutCredentialsOrWithGarbageAnswersFailsWithAMessage() throws {
        XCTAssertThrowsError(try googleBooks([:]).pull()) { error in
            XCTAssertTrue(
                (error as? PluginCallError)?.message.contains("shelf lists connect google-books") == true, "\(error)")
        }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route(
            "GET", "/books/v1/users/1/bookshelves", .text("{\"items\": [{\"id\": 4}", contentType: "application/json"))
        try ConnectorServices.setSecret("k", pluginID: "org.shelf.googlebooks", key: "apiKey")
        XCTAssertThrowsError(try googleBooks(["baseURL": server.url("/books/v1").absoluteString, "userId": "1"]).pull())
        { error in
            XCTAssertEqual((error as? PluginCallError)?.status, 4, "\(error)")
        }
    }

    func testCredentialsServiceKeepsPluginsApartAndTheFilePrivate() throws {
        try ConnectorServices.setSecret("one", pluginID: "org.a", key: "token")
        try ConnectorServices.setSecret("two", pluginID: "org.b", key: "token")
        XCTAssertEqual(try ConnectorServices.secret(pluginID: "org.a", key: "token"), "one")
        XCTAssertEqual(try ConnectorServices.secret(pluginID: "org.b", key: "token"), "two")
        let file = home.appendingPathComponent("config/credentials.json").path
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
    }
}
