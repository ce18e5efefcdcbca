import Foundation
@testable import Host
import ShelfCore
import ShelfPlugins
import TestSupport
import XCTest

/// A `Shelf` behaves by the environment it was made with (the browser app and tests make several in one process),
/// not by the process's: the catalog's HTTP limits, the command deadline and the plugin log filter are read from it.
/// None of the variables below is set in the test process itself.
final class ShelfEnvironmentTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-environment-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for name in ["SHELF_HTTP_RETRIES", "SHELF_HTTP_TIMEOUT", "SHELF_DEADLINE", "SHELF_LOG"]
        where getenv(name) != nil {
            throw XCTSkip(
                "\(name) is set in the test process, so it cannot tell the Shelf's environment from the process's")
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }  // a temporary folder

    func makeShelf(_ settings: [String: String], home: URL? = nil) -> Shelf {
        let folder = home ?? self.home!
        return Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path],
            environment: ["SHELF_HOME": folder.path, "HOME": folder.path].merging(settings) { _, new in new })
    }

    /// SHELF_HTTP_RETRIES of the Shelf's environment: a catalog answering 503 is asked twice, not the default four times.
    func testCatalogRetriesAreTheShelfs() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/feed", .status(503))
        let client = try makeShelf(["SHELF_HTTP_RETRIES": "2"]).library().client(for: nil)
        XCTAssertThrowsError(try client.fetch(server.url("/feed"), useCache: false))
        XCTAssertEqual(
            server.requests(to: "/feed").count, 2,
            "the catalog was not asked as often as the Shelf's SHELF_HTTP_RETRIES says")
    }

    /// SHELF_DEADLINE of the Shelf's environment: a catalog that answers after 5 s is given up after 1 s, and the
    /// error names that limit (the default of 20 s would have waited for the answer).
    func testCommandDeadlineIsTheShelfs() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/slow", .text("<feed/>", contentType: "application/atom+xml").with(delay: 5))
        let client = try makeShelf(["SHELF_DEADLINE": "1", "SHELF_HTTP_RETRIES": "1"]).library().client(for: nil)
        XCTAssertThrowsError(try client.fetch(server.url("/slow"), useCache: false)) { error in
            XCTAssertTrue("\(error)".contains("at most 1 s"), "not the Shelf's deadline: \(error)")
        }
    }

    /// SHELF_LOG of the Shelf's environment: with `none`, the EPUB plugin's warning about a book without a mimetype
    /// entry reaches no log sink; with the default, it does (so the book does warn).
    func testPluginLogFilterIsTheShelfs() throws {
        let book = home.appendingPathComponent("no-mimetype.epub").path
        try ZipWriter.write(path: book, entries: Self.bookWithoutMimetype)
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
        }
        let heard = Heard()
        let previous = HostServices.logSink
        HostServices.logSink = { id, _, message in
            if id != "shelf" { heard.lock.withLock { heard.lines.append(message) } }
        }
        defer { HostServices.logSink = previous }

        func linesOpening(with settings: [String: String], in folder: String) throws -> [String] {
            heard.lock.withLock { heard.lines = [] }
            let home = self.home.appendingPathComponent(folder)
            _ = try makeShelf(settings, home: home).open(book)
            return heard.lock.withLock { heard.lines }
        }
        XCTAssertEqual(try linesOpening(with: ["SHELF_LOG": "none"], in: "quiet"), [])
        let said = try linesOpening(with: [:], in: "default")
        XCTAssertTrue(said.contains { $0.contains("no mimetype entry") }, "the book did not warn: \(said)")
    }

    /// PATH and SHELF_PLUGIN_HOST of the Shelf's environment: `shelf conformance --memcheck` runs the valgrind on
    /// the Shelf's PATH (here a stand-in that reports an error) with the stand-in host the Shelf names, neither of
    /// which the test process's environment has.
    func testConformanceMemcheckFollowsTheShelfsPathAndPluginHost() throws {
        if getenv("SHELF_PLUGIN_HOST") != nil { throw XCTSkip("SHELF_PLUGIN_HOST is set in the test process") }
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let valgrind = bin.appendingPathComponent("valgrind")
        // valgrind --quiet --error-exitcode=99 --log-file=LOG HOST PLUGIN INPUT: an error naming the host it was given.
        try Data(
            """
            #!/bin/sh
            log="${3#--log-file=}"
            printf '==1== stand-in valgrind ran %s\n' "$4" > "$log"
            exit 99
            """.utf8
        ).write(to: valgrind)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: valgrind.path)
        let shelf = makeShelf(["PATH": bin.path + ":/usr/bin:/bin", "SHELF_PLUGIN_HOST": "/the/shelfs/plugin-host"])
        let report = PluginConformance(shelf: shelf, memcheck: true)
            .run(
                plugin: ShelfProcess.buildDirectory.appendingPathComponent("libshelf-epub3.so").path, samples: [],
                only: [])
        let memcheck = try XCTUnwrap(report.results.first { $0.check == "memcheck" }, "\(report.results)")
        XCTAssertEqual(memcheck.status, .failed)
        XCTAssertTrue(memcheck.message.contains("stand-in valgrind ran /the/shelfs/plugin-host"), memcheck.message)
    }

    static let bookWithoutMimetype: [(String, Data)] = [
        (
            "META-INF/container.xml",
            Data(
                """
                <?xml version="1.0"?>
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                  <rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles>
                </container>
                """.utf8)
        ),
        (
            "book.opf",
            Data(
                """
                <?xml version="1.0"?>
                <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
                  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                    <dc:identifier id="id">urn:uuid:7d1c1a52-shelf-environment</dc:identifier>
                    <dc:title>Without a mimetype</dc:title><dc:language>en</dc:language>
                    <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
                  </metadata>
                  <manifest>
                    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                    <item id="one" href="one.xhtml" media-type="application/xhtml+xml"/>
                  </manifest>
                  <spine><itemref idref="one"/></spine>
                </package>
                """.utf8)
        ),
        (
            "nav.xhtml",
            Data(
                """
                <?xml version="1.0"?>
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
                <body><nav epub:type="toc"><ol><li><a href="one.xhtml">One</a></li></ol></nav></body></html>
                """.utf8)
        ),
        (
            "one.xhtml",
            Data(
                """
                <?xml version="1.0"?>
                <html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body><p>A page.</p></body></html>
                """.utf8)
        )
    ]
}
