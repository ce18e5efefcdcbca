import Foundation
import TestSupport
import XCTest

/// Each deliberate bug of Examples/broken-plugins/faulty.c (one build a bug) fails `shelf conformance` with a
/// message that names the call and its input, and a crash names the call and the plugin's own source line. Without
/// a bug, the same plugin passes: the failures come from the bugs, not from the fixture.
final class ConformanceDepthTests: XCTestCase {
    var shelf: ShelfProcess!
    let root = ShelfProcess.packageRoot
    var sample: String { root.appendingPathComponent("Examples/text-plugin/samples/clockmakers-daughter.txt").path }

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    /// libshelf-faulty[-BUG].so, built with debug information so that a backtrace has file and line.
    func faulty(_ bug: String?) throws -> String {
        let output = shelf.home.appendingPathComponent("libshelf-faulty\(bug.map { "-" + $0 } ?? "").so")
        try CCompiler.sharedLibrary(
            sources: [root.appendingPathComponent("Examples/broken-plugins/faulty.c")] + CCompiler.helperLibrarySources,
            output: output, includes: CCompiler.pluginIncludes, flags: ["-g"] + (bug.map { ["-DBUG=\($0)"] } ?? []))
        return output.path
    }

    func conformance(_ plugin: String, _ extra: [String] = []) throws -> (Int32, [String: [String: Any]]) {
        let result = try shelf.run(["conformance", plugin, "--sample", sample, "--json"] + extra)
        let report = try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        return (result.status, Dictionary(uniqueKeysWithValues: results.map { ($0["check"] as! String, $0) }))
    }

    func testWithoutABugTheFixturePasses() throws {
        let (status, checks) = try conformance(try faulty(nil))
        XCTAssertEqual(status, 0)
        XCTAssertEqual(checks.count, 24)
        for (name, check) in checks {
            XCTAssertTrue(
                ["passed", "skipped"].contains(check["status"] as? String ?? ""), "\(name): \(check["message"] ?? "")")
        }
    }

    func testEachBugFailsItsCheckNamingTheCallAndTheInput() throws {
        let expectations: [(bug: String, check: String, status: String, words: [String])] = [
            ("stdout", "open", "failed", ["open(clockmakers-daughter.txt) printed", "a plugin never prints"]),
            (
                "probeall", "probe", "failed",
                ["probe(catalog.xml, media type application/xml) answered 100", "declares text/plain"]
            ),
            (
                "leak", "close", "failed",
                ["open(clockmakers-daughter.txt) and close, ", "times, left", "KiB more memory in use"]
            ),
            (
                "spacing", "locators", "failed",
                ["positions() of clockmakers-daughter.txt: text.txt has 2 positions, but its 2134 bytes make 3"]
            ),
            (
                "total", "locators", "failed",
                ["position 1 of 3 (text.txt) has totalProgression 0.333", "(p - 1) / n = 0.0"]
            ),
            (
                "where", "render", "failed",
                [
                    "render({\"href\":\"text.txt\"",
                    "of clockmakers-daughter.txt: `where` says text.txt position 1, but the locator asked for is position 2"
                ]
            ),
            (
                "html", "render", "failed",
                [
                    "{\"as\":\"html\"",
                    "of clockmakers-daughter.txt wrote HTML that is not XHTML: it is not well-formed XML: line"
                ]
            ),
            ("case", "search", "failed", ["of clockmakers-daughter.txt found nothing", "search ignores case"]),
            (
                "comma", "arguments", "failed",
                ["render(NULL, {\"as\":\"html\",}) of clockmakers-daughter.txt answered ok", "trailing commas"]
            ),
            ("uaf", "open-foreign", "crashed", ["signal 11", "in open(", "not_text (faulty.c:"]),
            (
                "abort", "render", "crashed",
                ["signal 6", "in render({\"href\":\"text.txt\"", "of clockmakers-daughter.txt", "render (faulty.c:"]
            ),
            // Passes every check made in process: only the sandbox check, which opens it as shelf will, finds it.
            (
                "outside", "sandbox", "failed",
                [
                    "clockmakers-daughter.txt opens in process but not in shelf-plugin-sandbox",
                    "cannot read /etc/hostname or open a socket", "WHERE A PLUGIN RUNS"
                ]
            )
        ]
        for e in expectations {
            let (status, checks) = try conformance(try faulty(e.bug), ["--check", e.check])
            XCTAssertEqual(status, 1, e.bug)
            XCTAssertEqual(checks.count, 1, "--check runs one check")
            let message = checks[e.check]?["message"] as? String ?? ""
            XCTAssertEqual(checks[e.check]?["status"] as? String, e.status, "\(e.bug): \(message)")
            for words in e.words { XCTAssertTrue(message.contains(words), "\(e.bug): \"\(words)\" not in: \(message)") }
        }
    }

    /// A first sample too short to choose words from does not end the search check: the next sample is searched,
    /// so a search that matches case still fails (it was one warning, "too little text", and the bug passed).
    func testAShortFirstSampleDoesNotHideASearchBug() throws {
        let short = shelf.home.appendingPathComponent("short.txt")
        try "A short note.\n".write(to: short, atomically: true, encoding: .utf8)
        func search(_ plugin: String, _ samples: [String]) throws -> (Int32, String, String) {
            let result = try shelf.run(
                ["conformance", plugin] + samples.flatMap { ["--sample", $0] } + ["--check", "search", "--json"])
            let report = try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
            let check = try XCTUnwrap((report["results"] as? [[String: Any]])?.first)
            return (result.status, check["status"] as? String ?? "", check["message"] as? String ?? "")
        }
        let (status, result, message) = try search(try faulty("case"), [short.path, sample])
        XCTAssertEqual(status, 1, message)
        XCTAssertEqual(result, "failed", message)
        XCTAssertTrue(message.contains("search ignores case"), message)
        // Only short samples: a warning that says what the check needs.
        let (_, warned, words) = try search(try faulty(nil), [short.path])
        XCTAssertEqual(warned, "warning", words)
        XCTAssertTrue(words.contains("20 words of five letters or more"), words)
    }

    /// --memcheck runs the plugin under valgrind in the stand-in host: the use of freed memory is named with its frames.
    func testMemcheckNamesTheUseAfterFree() throws {
        try buildStandInHost()
        shelf.environment["SHELF_PLUGIN_HOST"] = root.appendingPathComponent("build/plugin-sdk/shelf-plugin-host").path
        let (status, checks) = try conformance(try faulty("uaf"), ["--check", "load", "--memcheck"])
        XCTAssertEqual(status, 1)
        let message = checks["memcheck"]?["message"] as? String ?? ""
        XCTAssertEqual(checks["memcheck"]?["status"] as? String, "failed", message)
        for words in ["valgrind, on catalog.xml", "Invalid read", "not_text (faulty.c:", "free'd"] {
            XCTAssertTrue(message.contains(words), "\"\(words)\" not in: \(message)")
        }
    }

    func buildStandInHost() throws {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", root.appendingPathComponent("Sources/PluginAPI").path, "all"]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0)
    }

    /// --set gives a connector its settings: the C example is connected to a loopback list, pulled twice;
    /// a list that answers 500 fails the check naming the pull and the settings.
    func testAConnectorIsExercisedWithItsSettings() throws {
        let library = shelf.home.appendingPathComponent("libshelf-tsvlist.so")
        try CCompiler.examplePlugin("readinglist-plugin", output: library)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/list.tsv") { _ in .text("9780061020681\tMort\tTerry Pratchett\tread\t2020-11-01\t4.5\n") }
        server.route("GET", "/broken.tsv") { _ in .text("down", status: 500) }
        for (path, status, words) in [
            ("/list.tsv", "passed", "with url: pull gave 1 entries, twice the same"),
            (
                "/broken.tsv", "failed",
                "pull(tsv-list, {}) with {\"url\":\"\(server.url("/broken.tsv").absoluteString)\"} failed with"
            )
        ] {
            let result = try shelf.run([
                "conformance", library.path, "--check", "connector-settings", "--set",
                "url=\(server.url(path).absoluteString)", "--json"
            ])
            let report = try XCTUnwrap(try result.json() as? [String: Any], result.stderr)
            let check = try XCTUnwrap((report["results"] as? [[String: Any]])?.first)
            let message = check["message"] as? String ?? ""
            XCTAssertEqual(check["status"] as? String, status, message)
            XCTAssertEqual(check["service"] as? String, "tsv-list", "a connector check's result names its service")
            XCTAssertTrue(message.contains(words), "\"\(words)\" not in: \(message)")
        }
    }

    func testTheChecksAreListed() throws {
        let list = try shelf.run(["conformance", "--list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let names = (try list.json() as? [[String: String]] ?? []).compactMap { $0["check"] }
        XCTAssertEqual(names.count, 24)
        for name in ["probe", "open-foreign", "render", "locators", "search", "arguments", "close"] {
            XCTAssertTrue(names.contains(name), name)
        }
        let unknown = try shelf.run(["conformance", try faulty(nil), "--check", "no-such-check"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("open-foreign"), "the error lists the checks: \(unknown.stderr)")
    }

    /// The stand-in host finds the totalProgression bug too, without shelf.
    func testTheStandInHostReportsABreach() throws {
        try buildStandInHost()
        let host = Process()
        host.executableURL = root.appendingPathComponent("build/plugin-sdk/shelf-plugin-host")
        host.arguments = [try faulty("total"), sample]
        let pipe = Pipe()
        host.standardOutput = pipe
        try host.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        host.waitUntilExit()
        XCTAssertEqual(host.terminationStatus, 1, output)
        XCTAssertTrue(
            output.contains(
                "BREACH     positions[1]: totalProgression 0.333333, but position 1 of 3 has (p - 1) / n = 0"), output)
    }
}
