import Foundation
import TestSupport
import XCTest

/// `shelf.speech/1` in `shelf conformance`: shelf's speech plugin on libespeak-ng passes every speech check; the
/// fixture Examples/broken-plugins/faulty-speech.c passes without a bug and fails, with a message naming what is
/// wrong, once a bug is built in. Without libespeak-ng the speech plugin is refused saying which package to install.
final class SpeechConformanceTests: XCTestCase {
    var shelf: ShelfProcess!
    let root = ShelfProcess.packageRoot

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    var speechPlugin: String { ShelfProcess.buildDirectory.appendingPathComponent("libshelf-speech.so").path }

    func faulty(_ bug: String?) throws -> String {
        let output = shelf.home.appendingPathComponent("libshelf-faulty-speech\(bug.map { "-" + $0 } ?? "").so")
        try CCompiler.sharedLibrary(
            sources: [root.appendingPathComponent("Examples/broken-plugins/faulty-speech.c")]
                + CCompiler.helperLibrarySources,
            output: output, includes: CCompiler.pluginIncludes, flags: ["-lm"] + (bug.map { ["-DBUG=\($0)"] } ?? []))
        return output.path
    }

    func speechChecks(_ plugin: String) throws -> (Int32, [String: [String: Any]]) {
        let names = ["speech-voices", "speech", "speech-arguments", "speech-cancel"]
        let result = try shelf.run(["conformance", plugin, "--json"] + names.flatMap { ["--check", $0] })
        let report = try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        return (result.status, Dictionary(uniqueKeysWithValues: results.map { ($0["check"] as! String, $0) }))
    }

    func testTheEspeakPluginPassesEverySpeechCheck() throws {
        let (status, checks) = try speechChecks(speechPlugin)
        XCTAssertEqual(checks.count, 4)
        for (name, check) in checks {
            XCTAssertEqual(check["status"] as? String, "passed", "\(name): \(check["message"] ?? "")")
        }
        XCTAssertEqual(status, 0)
        XCTAssertTrue((checks["speech"]?["message"] as? String ?? "").contains("sentence marks"))
        // And the rest of the suite has nothing against a plugin that opens no books.
        let all = try shelf.run(["conformance", speechPlugin])
        XCTAssertEqual(all.status, 0, all.stdout)
    }

    func testTheFixtureWithoutABugPasses() throws {
        let (status, checks) = try speechChecks(try faulty(nil))
        XCTAssertEqual(status, 0, "\(checks)")
    }

    func testEachBugFailsItsCheckSayingWhatIsWrong() throws {
        let expectations: [(bug: String, check: String, words: [String])] = [
            ("order", "speech", ["starts before the previous word ends", "marks of one kind do not overlap"]),
            ("outside", "speech", ["is outside the text of 104 bytes"]),
            ("format", "speech", ["declared sample format 2", "SHELF_AUDIO_SAMPLE_F32"]),
            ("silent", "speech", ["of silence"]),
            (
                "nocancel", "speech-cancel",
                ["told to stop by its sink", "more times after it answered SHELF_E_CANCELLED"]
            )
        ]
        for e in expectations {
            let (status, checks) = try speechChecks(try faulty(e.bug))
            XCTAssertEqual(status, 1, e.bug)
            XCTAssertEqual(checks[e.check]?["status"] as? String, "failed", "\(e.bug): \(checks)")
            let message = checks[e.check]?["message"] as? String ?? ""
            for word in e.words { XCTAssertTrue(message.contains(word), "\(e.bug): \(message)") }
            for (name, check) in checks where name != e.check {
                XCTAssertEqual(
                    check["status"] as? String, "passed",
                    "\(e.bug) fails only \(e.check), not \(name): \(check["message"] ?? "")")
            }
        }
    }

    /// A libespeak-ng.so.1 without its functions stands for a machine without the library: the plugin loads, and its
    /// init refuses, naming the library and the Debian package.
    func testWithoutLibespeakThePluginIsRefusedWithThePackageToInstall() throws {
        let fake = shelf.home.appendingPathComponent("fake-lib")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        let source = fake.appendingPathComponent("empty.c")
        try "int shelf_not_espeak;\n".write(to: source, atomically: true, encoding: .utf8)
        try CCompiler.sharedLibrary(sources: [source], output: fake.appendingPathComponent("libespeak-ng.so.1"))
        // The plugin shelf ships, beside the executable, loads in shelf's process: the fake is what it finds.
        shelf.environment["LD_LIBRARY_PATH"] = fake.path
        let listing = try shelf.run(["plugins"])
        XCTAssertTrue(listing.stdout.contains("libshelf-speech.so"), listing.stdout + listing.stderr)
        XCTAssertTrue(listing.stdout.contains("apt-get install libespeak-ng1"), listing.stdout + listing.stderr)
    }
}
