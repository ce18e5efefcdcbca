import Foundation
import TestSupport
import XCTest
@testable import ReadingListFakes

/// `shelf conformance --set ... --secret ...` on connectors configured against loopback services: the C example
/// and the bundled Goodreads and Google Books connectors against their fakes pass connect, describe, pull twice,
/// push twice, a failing service and cancellation.
final class ConnectorConformanceTests: ShelfTestCase {
    static let configuredChecks = ["connector-settings", "connector-failures", "connector-cancel"]

    /// The configured checks' results by name, after asserting that each ran.
    func configuredResults(_ library: String, _ options: [String], stdin: String = "") throws -> [String: [String: Any]]
    {
        let report = try json(
            run(
                ["conformance", library] + options + Self.configuredChecks.flatMap { ["--check", $0] } + ["--json"],
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
        try CCompiler.sharedLibrary(
            sources: [root.appendingPathComponent(source), Self.helperArchive], output: output,
            includes: CCompiler.pluginIncludes, flags: flags)
        return output.path
    }

    static let helperArchive = ShelfProcess.packageRoot.appendingPathComponent("build/plugin-sdk/libshelf-plugin.a")

    func assertPassed(
        _ results: [String: [String: Any]], _ library: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for check in Self.configuredChecks {
            XCTAssertEqual(
                results[check]?["status"] as? String, "passed",
                "\(library) \(check): \(results[check]?["message"] ?? "")",
                file: file, line: line)
        }
    }

    func testTheCExampleConnectorPassesConfiguredAgainstALoopbackList() throws {
        let library = try connector("Examples/readinglist-plugin/tsvlist.c", output: "libshelf-tsvlist.so")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/list.tsv") { _ in
            .text(
                "# isbn\ttitle\tauthor\tshelf\n9780061020681\tMort\tTerry Pratchett\tread\t2020-11-01\t5\n",
                contentType: "text/tab-separated-values")
        }
        let results = try configuredResults(library, ["--set", "url=\(server.url("/list.tsv").absoluteString)"])
        assertPassed(results, "tsvlist")
        XCTAssertTrue(
            (results["connector-settings"]?["message"] as? String ?? "").contains("pull gave 1 entries, twice the same")
        )
        let failures = results["connector-failures"]?["message"] as? String ?? ""
        for expected in ["HTTP 500: input/output error", "garbage body: bad data", "no answer: input/output error"] {
            XCTAssertTrue(failures.contains(expected), failures)
        }
        XCTAssertEqual(
            server.requests(to: "/list.tsv").count, 2, "the failing services were the suite's own, not the list")
    }

    func testUnconfiguredTheChecksAreSkippedSayingWhatToGive() throws {
        let results = try configuredResults(
            try connector("Examples/readinglist-plugin/tsvlist.c", output: "libshelf-tsvlist.so"), [])
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
        let results = try configuredResults(
            path, ["--set", "baseURL=\(goodreads.base)", "--set", "userId=\(goodreads.user)"])
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
        let results = try configuredResults(
            path,
            [
                "--set", "clientId=test-client", "--set", "baseURL=\(google.base)",
                "--set", "tokenURL=\(google.tokenURL)", "--secret", "access_token"
            ],
            stdin: "at-conformance\n")
        assertPassed(results, "google-books")
        XCTAssertTrue((results["connector-settings"]?["message"] as? String ?? "").contains("pull gave 3 entries"))
        XCTAssertTrue(
            (results["connector-settings"]?["message"] as? String ?? "").contains(
                "push twice, nothing added the second time"))
        XCTAssertEqual(google.ids(on: 4).sorted(), ["gen001", "gen002"], "the pushed reads were already there")
    }

    /// Each deliberate bug of Examples/broken-plugins/faulty-connector.c (the example TSV connector, included, with
    /// push added) fails its configured check with a message naming the call; without a bug the same connector passes.
    func testEachConnectorBugFailsItsCheckNamingTheCall() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/list") { _ in
            .text("9780061020681\tMort\tTerry Pratchett\tread\n\tPippi Longstocking\tAstrid Lindgren\tto-read\n")
        }
        func build(_ bug: String?) throws -> String {
            try connector(
                "Examples/broken-plugins/faulty-connector.c",
                output: "libshelf-faulty-connector\(bug.map { "-" + $0 } ?? "").so",
                flags: bug.map { ["-DBUG=\($0)"] } ?? [])
        }
        let set = ["--set", "url=\(server.url("/list").absoluteString)"]
        assertPassed(try configuredResults(try build(nil), set), "faulty-connector without a bug")
        let expectations: [(bug: String, check: String, words: String)] = [
            (
                "swallow", "connector-failures",
                "pull(tsv-list, {}) from a service that gives HTTP 500 succeeded with 0 entries"
            ),
            ("nocancel", "connector-cancel", "sent 20 more requests after it was cancelled"),
            ("duplicate", "connector-settings", "push(tsv-list) of entries already pushed added entry 0 again"),
            ("required", "connector-settings", "connect(tsv-list, {}) succeeded without the required setting url")
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

    // MARK: a connector of two services

    /// Open Library's My Books API as it documents it (GET /people/NAME/books/SHELF.json?page=N answering
    /// {"page", "reading_log_entries": [{"work": {"title", "key", "author_names"}, "logged_date"}]}, an empty list past
    /// the last page), on loopback, for the patron "ada".
    func fakeOpenLibrary() throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        let shelves = [
            "want-to-read": [("Pippi Longstocking", "OL45804W", "Astrid Lindgren")],
            "already-read": [("Mort", "OL27448W", "Terry Pratchett"), ("Small Gods", "OL27485W", "Terry Pratchett")],
            "currently-reading": []
        ]
        for (shelf, works) in shelves {
            server.route("GET", "/people/ada/books/\(shelf).json") { request in
                let page = Int(request.queryItems["page"] ?? "1") ?? 1
                let entries =
                    page == 1
                    ? works.map { title, key, author in
                        [
                            "work": ["title": title, "key": "/works/\(key)", "author_names": [author]] as [String: Any],
                            "logged_date": "2024/05/01, 10:00:00"
                        ] as [String: Any]
                    } : []
                let body = try! JSONSerialization.data(withJSONObject: ["page": page, "reading_log_entries": entries])
                return .data(body, contentType: "application/json")
            }
        }
        return server
    }

    /// The example connector of two services, a file for one and HTTP for the other, given settings for each
    /// (`--set SERVICE.KEY=VALUE`): every configured check passes for each service, and the file's service is not
    /// applicable to the failing-service and cancellation checks instead of failing them.
    func testATwoServiceConnectorPassesWithSettingsForEachService() throws {
        let library = try connector("Examples/booklog-plugin/booklog.c", output: "libshelf-booklog.so")
        let list = shelf.home.appendingPathComponent("list.tsv")
        try Data("# isbn\ttitle\tauthor\tshelf\n9780061020681\tMort\tTerry Pratchett\tread\t2020-11-01\t5\n".utf8)
            .write(to: list)
        let openLibrary = try fakeOpenLibrary()
        defer { openLibrary.stop() }
        let report = try json(
            run([
                "conformance", library, "--set", "tsv-file.file=\(list.path)", "--set", "openlibrary.username=ada",
                "--set", "openlibrary.baseURL=\(openLibrary.url("/").absoluteString)", "--json"
            ]))
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        func result(_ check: String, _ service: String) -> (status: String, message: String) {
            let r = results.first { $0["check"] as? String == check && $0["service"] as? String == service }
            return (r?["status"] as? String ?? "absent", r?["message"] as? String ?? "")
        }
        for check in ["connector"] + Self.configuredChecks {
            XCTAssertEqual(
                result(check, "openlibrary").status, "passed",
                "\(check) openlibrary: \(result(check, "openlibrary").message)")
        }
        XCTAssertEqual(result("connector", "tsv-file").status, "passed", result("connector", "tsv-file").message)
        XCTAssertEqual(
            result("connector-settings", "tsv-file").status, "passed", result("connector-settings", "tsv-file").message)
        XCTAssertTrue(result("connector-settings", "tsv-file").message.contains("pull gave 1 entries, twice the same"))
        XCTAssertTrue(
            result("connector-settings", "openlibrary").message.contains("pull gave 3 entries, twice the same"))
        for check in ["connector-failures", "connector-cancel"] {
            XCTAssertEqual(result(check, "tsv-file").status, "not-applicable", result(check, "tsv-file").message)
            XCTAssertTrue(result(check, "tsv-file").message.contains("pull made no HTTP request"))
        }
        let summary = report["summary"] as? [String: Int] ?? [:]
        XCTAssertEqual([summary["failed"], summary["crashed"], summary["not-applicable"]], [0, 0, 2], "\(summary)")
        // Pull twice, per shelf a page of works and the empty page after it.
        XCTAssertEqual(openLibrary.requests(to: "/people/ada/books/already-read.json").count, 4)

        // --service checks one service alone.
        let one = try json(
            run([
                "conformance", library, "--service", "openlibrary", "--set", "openlibrary.username=ada",
                "--set", "openlibrary.baseURL=\(openLibrary.url("/").absoluteString)", "--check", "connector-settings",
                "--json"
            ]))
        let only = try XCTUnwrap(one["results"] as? [[String: Any]])
        XCTAssertEqual(only.map { $0["service"] as? String }, ["openlibrary"])
        XCTAssertEqual(only.first?["status"] as? String, "passed")

        // Without settings of its own, each service is skipped on its own, saying how to give them.
        let unset = try json(
            run([
                "conformance", library, "--set", "tsv-file.file=\(list.path)", "--check", "connector-settings", "--json"
            ]))
        let skipped = try XCTUnwrap(unset["results"] as? [[String: Any]]).first {
            $0["service"] as? String == "openlibrary"
        }
        XCTAssertEqual(skipped?["status"] as? String, "skipped")
        XCTAssertTrue((skipped?["message"] as? String ?? "").contains("--set openlibrary.KEY=VALUE"))

        let text = try shelf.run([
            "conformance", library, "--set", "tsv-file.file=\(list.path)", "--check", "connector-failures"
        ])
        XCTAssertTrue(
            text.stdout.contains("  N/A      connector-failures [tsv-file] pull made no HTTP request"), text.stdout)
        XCTAssertTrue(text.stdout.contains("1 not applicable"), text.stdout)
    }

    /// Each deliberate bug of Examples/broken-plugins/faulty-booklog.c is in one service, and its check fails on that
    /// service only: the other service's result stays what it was without the bug.
    func testATwoServiceConnectorFailsOnTheServiceThatHasTheBug() throws {
        let list = shelf.home.appendingPathComponent("list.tsv")
        try Data("9780061020681\tMort\tTerry Pratchett\tread\n".utf8).write(to: list)
        let openLibrary = try fakeOpenLibrary()
        defer { openLibrary.stop() }
        let set = [
            "--set", "tsv-file.file=\(list.path)", "--set", "openlibrary.username=ada",
            "--set", "openlibrary.baseURL=\(openLibrary.url("/").absoluteString)"
        ]
        func statuses(_ bug: String?, _ check: String) throws -> [String: (status: String, message: String)] {
            let library = try connector(
                "Examples/broken-plugins/faulty-booklog.c",
                output: "libshelf-faulty-booklog\(bug.map { "-" + $0 } ?? "").so",
                flags: bug.map { ["-DBUG=\($0)"] } ?? [])
            let result = try shelf.run(["conformance", library, "--check", check, "--json"] + set)
            XCTAssertEqual(result.status, bug == nil ? 0 : 1, "\(bug ?? "no bug"): \(result.stdout)")
            var byService: [String: (status: String, message: String)] = [:]
            for r in ((try result.json() as? [String: Any])?["results"] as? [[String: Any]]) ?? [] {
                byService[r["service"] as? String ?? "none"] = (
                    r["status"] as? String ?? "", r["message"] as? String ?? ""
                )
            }
            return byService
        }
        let failures = try statuses("swallow", "connector-failures")
        XCTAssertEqual(failures["openlibrary"]?.status, "failed")
        XCTAssertTrue(
            failures["openlibrary"]?.message.contains(
                "pull(openlibrary, {}) from a service that gives HTTP 500 succeeded with 0 entries") ?? false,
            failures["openlibrary"]?.message ?? "")
        XCTAssertEqual(failures["tsv-file"]?.status, "not-applicable")

        let settings = try statuses("nofile", "connector-settings")
        XCTAssertEqual(settings["tsv-file"]?.status, "failed")
        XCTAssertTrue(
            settings["tsv-file"]?.message.contains("connect(tsv-file, {}) succeeded without the required setting file")
                ?? false,
            settings["tsv-file"]?.message ?? "")
        XCTAssertEqual(settings["openlibrary"]?.status, "passed", settings["openlibrary"]?.message ?? "")

        let correct = try statuses(nil, "connector-settings")
        XCTAssertEqual(correct["tsv-file"]?.status, "passed", correct["tsv-file"]?.message ?? "")
        XCTAssertEqual(correct["openlibrary"]?.status, "passed", correct["openlibrary"]?.message ?? "")
    }
}
