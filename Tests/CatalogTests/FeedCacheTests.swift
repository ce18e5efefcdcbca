import Foundation
import Host
import ShelfLibrary
import ShelfCore
import TestSupport
import XCTest

/// Conditional requests against cached feeds: a 304 serves the cached body; a full answer (200) to a conditional
/// request replaces the cached copy, with or without new validators, so a stale body never comes back.
final class FeedCacheTests: XCTestCase {
    func feed(_ title: String, available: Int) -> String {
        """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
          <id>urn:feed</id><title>\(title)</title><updated>2026-01-01T00:00:00Z</updated>
          <entry><id>urn:t</id><title>T</title><updated>2026-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/b" type="application/atom+xml;type=entry;profile=opds-catalog">
              <opds:availability status="\(available > 0 ? "available" : "unavailable")"/><opds:copies total="1" available="\(available)"/>
            </link></entry>
        </feed>
        """
    }

    func testAConditionalGetAnswered200ReplacesTheCachedEntry() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try LibraryDatabase(path: folder.appendingPathComponent("library.sqlite3").path)
        defer { database.close() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let type = "application/atom+xml;profile=opds-catalog"
        server.route(
            "GET", "/feed",
            sequence: [
                .text(feed("one", available: 0), contentType: type, headers: ["ETag": "\"v1\""]),
                .status(304),
                .text(feed("two", available: 1), contentType: type),  // 200, no validators
                .text(feed("three", available: 1), contentType: type, headers: ["ETag": "\"v3\""]),
                .status(304)
            ])
        let client = CatalogClient(
            http: HTTPClient(configuration: CatalogClient.configuration(in: [:])), database: database,
            authenticator: nil)
        let url = server.url("/feed")
        XCTAssertEqual(try client.feed(url).title, "one")
        XCTAssertEqual(try client.feed(url).title, "one", "304: the cached body")
        XCTAssertEqual(server.requests(to: "/feed").last?.header("If-None-Match"), "\"v1\"")
        let second = try client.feed(url)
        XCTAssertEqual(second.title, "two")
        XCTAssertEqual(second.entries.first?.availability.words, "1 of 1 copy available")
        XCTAssertNil(try database.cachedFeed(url: url.absoluteString), "the stale copy is gone")
        XCTAssertEqual(
            try database.findEntries(matching: "urn:t", accountID: nil).exact.first?.availability.words,
            "1 of 1 copy available")
        XCTAssertEqual(try client.feed(url).title, "three")
        XCTAssertNil(server.requests(to: "/feed").last?.header("If-None-Match"), "no validators left to send")
        XCTAssertEqual(
            try database.cachedFeed(url: url.absoluteString).map {
                String(decoding: $0.body, as: UTF8.self).contains("three")
            }, true)
        XCTAssertEqual(try client.feed(url).title, "three", "304 against the new copy")
    }
}
