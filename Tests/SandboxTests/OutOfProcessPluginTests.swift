import Foundation
@testable import Host
import TestSupport
import XCTest

/// Plugins shelf does not ship run in shelf-plugin-sandbox: a crash, an exit or a hang in one is one line naming
/// the plugin and the call, the command ends cleanly (exit < 128), and the rest of the command goes on, the plugin
/// started again for its next call. The
/// fixture (Fixtures/misbehaving.c) misbehaves as each book's first line says.
final class OutOfProcessPluginTests: XCTestCase {
    var shelf: ShelfProcess!
    var books: URL!

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        books = shelf.home.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        shelf.environment["SHELF_PLUGIN_PATH"] = try MisbehavingPlugin.build(in: shelf.home).path
        shelf.environment["SWIFT_BACKTRACE"] = "enable=no"
    }

    override func tearDown() { shelf.cleanUp() }

    func book(_ name: String, _ action: String, in call: String, text: String = "Some text to read.\n") throws -> String
    {
        let url = books.appendingPathComponent("\(name).misbehave")
        try "MISBEHAVE \(action) \(call)\n\(text)".write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The first line of standard error: the failure, naming the plugin, what it did and in which call.
    func assertOneLine(
        _ result: ShelfProcess.Result, _ what: String, in call: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertTrue(
            (1..<128).contains(result.status), "exit \(result.status): \(result.stderr)", file: file, line: line)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(
            first.contains("\"Misbehaving\" (org.shelf.test.misbehaving) \(what)"), first, file: file, line: line)
        XCTAssertTrue(first.contains(" in \(call)"), first, file: file, line: line)
        XCTAssertTrue(first.hasSuffix("shelf starts it again for the next call"), first, file: file, line: line)
    }

    func testACrashInRenderIsNamedByRead() throws {
        let added = try shelf.run(["add", try book("crash", "crash", in: "render")])
        XCTAssertEqual(added.status, 0, added.stderr)
        assertOneLine(try shelf.run(["read", "A misbehaving book"]), "crashed (signal 11, SIGSEGV)", in: "render of ")
    }

    func testAnExitInOpenIsNamedByInfo() throws {
        let path = try book("exit", "exit", in: "open")
        assertOneLine(try shelf.run(["info", path]), "exited (status 3)", in: "open (file \(path))")
    }

    func testAHangInSearchIsStoppedAtTheDeadline() throws {
        shelf.environment["SHELF_PLUGIN_TIMEOUT"] = "1"
        let path = try book("hang", "hang", in: "search")
        let started = Date()
        let result = try shelf.run(["search", path, "lighthouse"], timeout: 30)
        assertOneLine(result, "hung (no answer within 1 s; stopped)", in: "search for \"lighthouse\" (file \(path))")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "the hang was cut off, not waited out")
    }

    /// A plugin that fails without a message is still named, out of process and in, and the line says it is the
    /// plugin's fault (it said "bad data (the plugin gave no message)", naming no plugin).
    func testAFailureWithoutAMessageNamesThePlugin() throws {
        let path = try book("silent", "silent", in: "search")
        for placement in ["", "org.shelf.test.misbehaving"] {
            shelf.environment["SHELF_PLUGINS_IN_PROCESS"] = placement
            let result = try shelf.run(["search", path, "lighthouse"])
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("the plugin org.shelf.test.misbehaving failed (bad data) without saying why"),
                result.stderr)
            XCTAssertTrue(
                result.stderr.contains("This is a fault in the plugin org.shelf.test.misbehaving"), result.stderr)
        }
        // shelf conformance says what is missing rather than ending its line on a colon.
        let plugin = try XCTUnwrap(shelf.environment["SHELF_PLUGIN_PATH"])
        let report = try shelf.run([
            "conformance", plugin, "--sample", try book("quiet", "silent", in: "render"), "--check", "render"
        ])
        XCTAssertTrue(
            report.stdout.contains("failed with bad data and no message: a failing call says what went wrong"),
            report.stdout)
    }

    /// An answer cut at shelf's limit fails in shelf's words, naming the plugin, even when the plugin ignores the
    /// writer's refusal and returns SHELF_OK (it said "the plugin's output could not be taken (over a safety limit)",
    /// naming no plugin; in process half an answer passed as whole).
    func testAnAnswerOverTheLimitNamesThePlugin() throws {
        let path = try book("flood", "flood", in: "search")
        // Out of process the child's limit (512 MiB) cuts it; in process the host's (256 MiB for a JSON answer).
        for (placement, limit) in [("", 512), ("org.shelf.test.misbehaving", 256)] {
            shelf.environment["SHELF_PLUGINS_IN_PROCESS"] = placement
            let result = try shelf.run(["search", path, "lighthouse"], timeout: 120)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(
                result.stderr.contains(
                    "the plugin \"Misbehaving\" (org.shelf.test.misbehaving) wrote more than \(limit) MiB in one answer"
                ),
                result.stderr)
            XCTAssertTrue(result.stdout.isEmpty, "nothing of a cut answer is shown")
        }
    }

    /// A connector's "file" setting (readinglist.h) names a file the patron chose, anywhere: the confined child may read
    /// it (it was "Permission denied", and a connector such as a list-export reader could not work out of process).
    func testAConnectorReadsTheFileItsFileSettingNames() throws {
        let elsewhere = shelf.home.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let list = elsewhere.appendingPathComponent("my-list.txt")
        try "The Left Hand of Darkness\n".write(to: list, atomically: true, encoding: .utf8)
        let connect = try shelf.run(["lists", "connect", "misbehaving-list", "--set", "list=\(list.path)"])
        XCTAssertEqual(connect.status, 0, connect.stderr)
        let pull = try shelf.run(["lists", "pull"])
        XCTAssertEqual(pull.status, 0, pull.stderr)
        let shown = try shelf.run(["lists", "show"])
        XCTAssertTrue(shown.stdout.contains("The Left Hand of Darkness"), shown.stdout + shown.stderr)
    }

    /// A manifest with an empty reading order is the plugin's fault, said so, not a book of no chapters (`shelf info`
    /// said "Chapters: 0" and exit 0, and `shelf toc` printed nothing).
    func testAnEmptyReadingOrderIsThePluginsFault() throws {
        let path = try book("empty", "empty", in: "manifest")
        for command in ["info", "toc"] {
            let result = try shelf.run([command, path])
            XCTAssertEqual(result.status, 70, result.stderr)
            XCTAssertTrue(result.stderr.contains("plugin org.shelf.test.misbehaving wrote a manifest"), result.stderr)
            XCTAssertTrue(result.stderr.contains("its readingOrder is empty"), result.stderr)
            XCTAssertTrue(
                result.stderr.contains("This is a fault in the plugin org.shelf.test.misbehaving"), result.stderr)
        }
    }

    func testACrashInPullIsNamedByListsPull() throws {
        let connect = try shelf.run(["lists", "connect", "misbehaving-list", "--set", "pull=crash"])
        XCTAssertEqual(connect.status, 0, connect.stderr)
        assertOneLine(
            try shelf.run(["lists", "pull"]), "crashed (signal 11, SIGSEGV)", in: "pull (service misbehaving-list)")
    }

    func testAWellBehavedThirdPartyPluginWorksOutOfProcess() throws {
        let added = try shelf.run([
            "add", try book("fine", "none", in: "none", text: "Hello from a stranger's plugin.\n")
        ])
        XCTAssertEqual(added.status, 0, added.stderr)
        let result = try shelf.run(["read", "A misbehaving book"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Hello from a stranger's plugin."), result.stdout)
        let pulled = try shelf.run(["lists", "connect", "misbehaving-list", "--set", "pull=none"])
        XCTAssertEqual(pulled.status, 0, pulled.stderr)
        let pull = try shelf.run(["lists", "pull", "--json"])
        XCTAssertEqual(pull.status, 0, pull.stderr)
        let shown = try shelf.run(["lists", "show"])
        XCTAssertTrue(shown.stdout.contains("Pippi Longstocking"), shown.stdout + shown.stderr)
    }

    /// In one process: after the plugin crashed, the next call starts it again and the fine book opens (it was
    /// refused at once: the plugin was disabled for the command, and in `shelf serve` until a restart), while a book
    /// another plugin opens (a bundled EPUB, in process) still opens.
    func testTheNextCallStartsACrashedPluginAgain() throws {
        let crash = try book("crash", "crash", in: "open"), fine = try book("fine", "none", in: "none")
        var environment = shelf.environment
        environment["SHELF_HOME"] = shelf.home.path
        let host = Shelf(environment: environment)
        XCTAssertTrue(try XCTUnwrap(host.registry.plugin(id: "org.shelf.test.misbehaving")).isOutOfProcess)
        for _ in 1...2 {
            XCTAssertThrowsError(try host.open(crash)) { error in
                XCTAssertTrue("\(error)".contains("crashed (signal 11, SIGSEGV) in open"), "\(error)")
                XCTAssertTrue("\(error)".contains("shelf starts it again for the next call"), "\(error)")
                XCTAssertEqual((error as? ShelfError)?.kind, .temporary, "asking again may work")
            }
            let page = try host.open(fine).render(at: nil, settings: nil).content
            XCTAssertTrue(String(decoding: page, as: UTF8.self).contains("Some text to read."))
        }
        let epub = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        XCTAssertNoThrow(try host.open(epub).render(at: nil, settings: nil))
    }

    /// A plugin whose processes fail `RemotePlugin.failuresInARow` (3) times without one call answered between is not
    /// started again for ever (each hang would cost SHELF_PLUGIN_TIMEOUT): it is disabled for the command.
    func testAPluginThatFailsEveryCallIsDisabled() throws {
        let crash = try book("crash", "crash", in: "probe"), fine = try book("fine", "none", in: "none")
        var environment = shelf.environment
        environment["SHELF_HOME"] = shelf.home.path
        let host = Shelf(environment: environment)
        for _ in 1...3 { XCTAssertThrowsError(try host.open(crash)) }
        let started = Date()
        XCTAssertThrowsError(try host.open(fine), "the plugin is disabled for the command")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "no new child was started")
    }
}

/// Builds the misbehaving fixture into `home`/plugins (a folder of its own: a child may read its plugin's folder).
enum MisbehavingPlugin {
    static func build(in home: URL) throws -> URL {
        let folder = home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("libshelf-misbehaving.so")
        let source = ShelfProcess.packageRoot.appendingPathComponent("Tests/SandboxTests/Fixtures/misbehaving.c")
        try CCompiler.sharedLibrary(sources: [source], output: output, includes: CCompiler.pluginIncludes)
        return output
    }
}
