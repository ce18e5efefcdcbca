import Foundation
import TestSupport
import XCTest

/// `shelf conformance --set ... --secret ...` on connectors configured against loopback services: the C example
/// and the bundled Goodreads and Google Books connectors against their fakes pass connect, describe, pull twice,
/// push twice, a failing service and cancellation.
final class ConnectorConformanceTests: ShelfTestCase {
    static let configuredChecks = ["connector-settings", "connector-failures", "connector-cancel"]

    /// The configured checks' results by name, after asserting that each ran.
    func configuredResults(_ library: String, _ options: [String], stdin: String = "") throws -> [String: [String: Any]] {
        let report = try json(run(["conformance", library] + options + Self.configuredChecks.flatMap { ["--check", $0] } + ["--json"],
                                  stdin: stdin))
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for r in results { byName[r["check"] as? String ?? ""] = r }
        XCTAssertEqual(Set(byName.keys), Set(Self.configuredChecks))
        return byName
    }

    /// A connector of Examples/ linked against libshelf-plugin.a, which the kit's Makefile makes (once; later calls
    /// find it up to date), as a plugin author links it: one small file to compile for each build.
    func connector(_ source: String, output name: String, flags: [String] = []) throws -> String {
        let root = ShelfProcess.packageRoot
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", root.appendingPathComponent("Sources/PluginAPI").path, "lib"]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0, "make -C Sources/PluginAPI lib")
        let output = shelf.home.appendingPathComponent(name)
        try CCompiler.sharedLibrary(sources: [root.appendingPathComponent(source), Self.helperArchive], output: output,
                                    includes: CCompiler.pluginIncludes, flags: flags)
        return output.path
    }

    static let helperArchive = ShelfProcess.packageRoot.appendingPathComponent("build/plugin-sdk/libshelf-plugin.a")

    func assertPassed(_ results: [String: [String: Any]], _ library: String, file: StaticString = #filePath, line: UInt = #line) {
        for check in Self.configuredChecks {
            XCTAssertEqual(results[check]?["status"] as? String, "passed", "\(library) \(check): \(results[check]?["message"] ?? "")",
                           file: file, line: line)
        }
    }

    func testTheCExampleConnectorPassesConfiguredAgainstALoopbackList() throws {
        let library = try connector("Examples/readinglist-plugin/tsvlist.c", output: "libshelf-tsvlist.so")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/list.tsv") { _ in
            .text("# isbn\ttitle\tauthor\tshelf\n9780061020681\tMort\tTerry Pratchett\tread\t2020-11-01\t5\n", contentType: "text/tab-separated-values")
        }
        let results = try configuredResults(library, ["--set", "url=\(server.url("/list.tsv").absoluteString)"])
        assertPassed(results, "tsvlist")
        XCTAssertTrue((results["connector-settings"]?["message"] as? String ?? "").contains("pull gave 1 entries, twice the same"))
        let failures = results["connector-failures"]?["message"] as? String ?? ""
        for expected in ["HTTP 500: input/output error", "garbage body: bad data", "no answer: input/output error"] {
            XCTAssertTrue(failures.contains(expected), failures)
        }
        XCTAssertEqual(server.requests(to: "/list.tsv").count, 2, "the failing services were the suite's own, not the list")
    }

    func testUnconfiguredTheChecksAreSkippedSayingWhatToGive() throws {
        let results = try configuredResults(try connector("Examples/readinglist-plugin/tsvlist.c", output: "libshelf-tsvlist.so"), [])
        for check in Self.configuredChecks {
            XCTAssertEqual(results[check]?["status"] as? String, "skipped")
            XCTAssertTrue((results[check]?["message"] as? String ?? "").contains("--set KEY=VALUE"))
        }
    }

    func testGoodreadsPassesAgainstItsFakeShelfFeed() throws {
        // The shelf feed (review/list_rss) of the fake needs no corpus file.
        let goodreads = try FakeGoodreads(corpus: Corpus.root ?? shelf.home)
        defer { goodreads.stop() }
        let path = ShelfProcess.buildDirectory.appendingPathComponent("libshelf-goodreads.so").path
        let results = try configuredResults(path, ["--set", "baseURL=\(goodreads.base)", "--set", "userId=\(goodreads.user)"])
        assertPassed(results, "goodreads")
        XCTAssertTrue((results["connector-cancel"]?["message"] as? String ?? "").contains("SHELF_E_CANCELLED"))
    }

    func testGoogleBooksPassesAgainstItsFakeWithAStoredToken() throws {
        let google = try FakeGoogleBooks(corpus: nil)
        defer { google.stop() }
        google.put(["gen001", "gen002"], on: 4)
        google.put(["gen003"], on: 2)
        google.lock.withLock { _ = google.validTokens.insert("at-conformance") }
        let path = ShelfProcess.buildDirectory.appendingPathComponent("libshelf-googlebooks.so").path
        let results = try configuredResults(path, ["--set", "clientId=test-client", "--set", "baseURL=\(google.base)",
                                                   "--set", "tokenURL=\(google.tokenURL)", "--secret", "access_token"],
                                            stdin: "at-conformance\n")
        assertPassed(results, "google-books")
        XCTAssertTrue((results["connector-settings"]?["message"] as? String ?? "").contains("pull gave 3 entries"))
        XCTAssertTrue((results["connector-settings"]?["message"] as? String ?? "").contains("push twice, nothing added the second time"))
        XCTAssertEqual(google.ids(on: 4).sorted(), ["gen001", "gen002"], "the pushed reads were already there")
    }

    /// Each deliberate bug of Examples/broken-plugins/faulty-connector.c (the example TSV connector, included, with
    /// push added) fails its configured check with a message naming the call; without a bug the same connector passes.
    func testEachConnectorBugFailsItsCheckNamingTheCall() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/list") { _ in .text("9780061020681\tMort\tTerry Pratchett\tread\n\tPippi Longstocking\tAstrid Lindgren\tto-read\n") }
        func build(_ bug: String?) throws -> String {
            try connector("Examples/broken-plugins/faulty-connector.c", output: "libshelf-faulty-connector\(bug.map { "-" + $0 } ?? "").so",
                          flags: bug.map { ["-DBUG=\($0)"] } ?? [])
        }
        let set = ["--set", "url=\(server.url("/list").absoluteString)"]
        assertPassed(try configuredResults(try build(nil), set), "faulty-connector without a bug")
        let expectations: [(bug: String, check: String, words: String)] = [
            ("swallow", "connector-failures", "pull(tsv-list, {}) from a service that gives HTTP 500 succeeded with 0 entries"),
            ("nocancel", "connector-cancel", "sent 20 more requests after it was cancelled"),
            ("duplicate", "connector-settings", "push(tsv-list) of entries already pushed added entry 0 again"),
            ("required", "connector-settings", "connect(tsv-list, {}) succeeded without the required setting url"),
        ]
        for e in expectations {
            let result = try shelf.run(["conformance", try build(e.bug), "--check", e.check, "--json"] + set)
            XCTAssertEqual(result.status, 1, e.bug)
            let check = try XCTUnwrap(((try result.json() as? [String: Any])?["results"] as? [[String: Any]])?.first)
            let message = check["message"] as? String ?? ""
            XCTAssertEqual(check["status"] as? String, "failed", "\(e.bug): \(message)")
            XCTAssertTrue(message.contains(e.words), "\(e.bug): \"\(e.words)\" not in: \(message)")
        }
    }
}
