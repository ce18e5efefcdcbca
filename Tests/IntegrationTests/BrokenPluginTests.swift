import Foundation
import TestSupport
import XCTest

/// Deliberately broken C plugins (Examples/broken-plugins): shelf refuses each with one clear
/// line and keeps every other plugin, and the conformance suite reports crashes and hangs as
/// failed checks without dying itself.
final class BrokenPluginTests: XCTestCase {
    var shelf: ShelfProcess!
    var brokenDirectory: URL!
    var textDirectory: URL!
    let root = ShelfProcess.packageRoot
    var textSample: URL { root.appendingPathComponent("Examples/text-plugin/samples/clockmakers-daughter.txt") }

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        brokenDirectory = shelf.home.appendingPathComponent("broken")
        textDirectory = shelf.home.appendingPathComponent("text")
        for dir in [brokenDirectory!, textDirectory!] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        let include = root.appendingPathComponent("Sources/PluginAPI/include")
        let examples = root.appendingPathComponent("Examples/broken-plugins")
        for name in ["abi", "crash", "noentry", "mediatype", "hang", "duplicate"] {
            try CCompiler.sharedLibrary(
                sources: [examples.appendingPathComponent("broken-\(name).c")],
                output: brokenDirectory.appendingPathComponent("libshelf-broken-\(name).so"),
                includes: [include, examples])
        }
        try CCompiler.examplePlugin("text-plugin", output: textDirectory.appendingPathComponent("libshelf-text.so"))
        // The text plugin comes first on the path, so the duplicate id is the one refused.
        shelf.environment["SHELF_PLUGIN_PATH"] = textDirectory.path + ":" + brokenDirectory.path
    }

    override func tearDown() { shelf.cleanUp() }

    func testEachBrokenPluginIsRefusedWithItsReasonAndTheRestLoad() throws {
        let result = try shelf.run(["plugins", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try result.json() as? [String: Any])
        let loaded = (json["plugins"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        XCTAssertTrue(loaded.contains("org.shelf.example.text"))
        XCTAssertTrue(loaded.contains("org.shelf.epub3"), "bundled plugins still load")
        var refused: [String: String] = [:]
        for entry in json["refused"] as? [[String: Any]] ?? [] {
            refused[((entry["path"] as? String ?? "") as NSString).lastPathComponent] = entry["reason"] as? String
        }
        XCTAssertTrue(refused["libshelf-broken-abi.so"]?.contains("ABI 99") == true, refused.description)
        XCTAssertTrue(
            refused["libshelf-broken-noentry.so"]?.contains("exports no shelf_plugin_entry") == true,
            refused.description)
        XCTAssertTrue(
            refused["libshelf-broken-mediatype.so"]?.contains("\"Not A Type\" is malformed") == true,
            refused.description)
        XCTAssertTrue(
            refused["libshelf-broken-duplicate.so"]?.contains("already provided by") == true, refused.description)
        // The crash and hang plugins have valid descriptors: loading them is fine; using them is not.
        XCTAssertTrue(loaded.contains("org.shelf.test.broken-crash"), loaded.description)
        XCTAssertTrue(loaded.contains("org.shelf.test.broken-hang"), loaded.description)
        XCTAssertEqual(refused.count, 4)
    }

    func testHumanOutputNamesEachRefusalOnOneLine() throws {
        let result = try shelf.run(["plugins"])
        XCTAssertEqual(result.status, 0)
        let refusals = result.stdout.split(separator: "\n").filter { $0.hasPrefix("Refused: ") }
        XCTAssertEqual(refusals.count, 4)
        // Said once: it read "Refused: .../libshelf-broken-abi.so: refused: built for plugin ABI 99.0, ...".
        for line in refusals { XCTAssertFalse(line.lowercased().dropFirst(9).contains("refused"), String(line)) }
    }

    func testConformanceReportsACrashInOpenWithItsSignal() throws {
        let result = try shelf.run([
            "conformance", brokenDirectory.appendingPathComponent("libshelf-broken-crash.so").path,
            "--sample", textSample.path, "--json"
        ])
        XCTAssertEqual(result.status, 1, "a crashed check fails the suite")
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        let byCheck = Dictionary(uniqueKeysWithValues: results.map { ($0["check"] as! String, $0) })
        XCTAssertEqual(byCheck["load"]?["status"] as? String, "passed")
        XCTAssertEqual(byCheck["probe"]?["status"] as? String, "passed", "probe works; only open crashes")
        XCTAssertEqual(byCheck["open-errors"]?["status"] as? String, "crashed")
        XCTAssertTrue((byCheck["open-errors"]?["message"] as? String ?? "").contains("signal 11"))
        XCTAssertEqual(results.count, 24, "the suite ran every check despite the crashes")
    }

    func testConformanceTimesOutAHangingProbe() throws {
        let result = try shelf.run([
            "conformance", brokenDirectory.appendingPathComponent("libshelf-broken-hang.so").path,
            "--sample", textSample.path, "--timeout", "2", "--json"
        ])
        XCTAssertEqual(result.status, 1)
        let results = try XCTUnwrap((try result.json() as? [String: Any])?["results"] as? [[String: Any]])
        let probe = try XCTUnwrap(results.first { $0["check"] as? String == "probe" })
        XCTAssertEqual(probe["status"] as? String, "failed")
        XCTAssertTrue((probe["message"] as? String ?? "").contains("hangs"))
    }

    func testConformanceOnARefusedPluginFailsLoadAndSkipsTheRest() throws {
        let result = try shelf.run([
            "conformance", brokenDirectory.appendingPathComponent("libshelf-broken-abi.so").path, "--json"
        ])
        XCTAssertEqual(result.status, 1)
        let results = try XCTUnwrap((try result.json() as? [String: Any])?["results"] as? [[String: Any]])
        XCTAssertEqual(results.first?["status"] as? String, "failed")
        XCTAssertTrue((results.first?["message"] as? String ?? "").contains("ABI 99"))
        XCTAssertTrue(results.dropFirst().allSatisfy { $0["status"] as? String == "skipped" })
    }

    /// A file no plugin opens says which plugin files were refused: the one meant for it may be among them (an author
    /// whose FB2 plugin was built for another ABI read only "no installed plugin opens application/xml").
    func testAFileNoPluginOpensNamesTheRefusedPlugins() throws {
        let book = shelf.home.appendingPathComponent("book.fb2")
        try "<?xml version=\"1.0\"?><FictionBook><body><section><p>Hello</p></section></body></FictionBook>\n"
            .write(to: book, atomically: true, encoding: .utf8)
        // The plugins refused at loading, without the ones that load and then crash or hang when asked to probe.
        // (and without the text plugin, which would take the file as text).
        shelf.environment["SHELF_PLUGIN_PATH"] = ["abi", "noentry"].map {
            brokenDirectory.appendingPathComponent("libshelf-broken-\($0).so").path
        }.joined(separator: ":")
        for _ in 0..<2 {  // the second time from the plugin registry's cache
            let info = try shelf.run(["info", book.path])
            XCTAssertEqual(info.status, 69, info.stderr)
            XCTAssertTrue(info.stderr.contains("no installed plugin opens"), info.stderr)
            XCTAssertTrue(
                info.stderr.contains("and why libshelf-broken-abi.so, libshelf-broken-noentry.so were refused."),
                info.stderr)
        }
    }

    func testABrokenPluginDoesNotStopABookOpening() throws {
        let info = try shelf.run(["info", textSample.path, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual((try info.json() as? [String: Any])?["plugin"] as? String, "org.shelf.example.text")
    }
}
