import Foundation
@testable import Host
import TestSupport
import XCTest

/// An out-of-process plugin may read its plugin, the libraries and the book file it was handed, and
/// write its own data and cache folders; Landlock refuses the credentials file, the library database and any
/// other file, and seccomp refuses socket() (EPERM: not among the calls allowed). The fixture tries each when it opens a book with SNOOP lines and
/// says what happened in the manifest's description.
final class ConfinementTests: XCTestCase {
    var shelf: ShelfProcess!

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        shelf.environment["SHELF_PLUGIN_PATH"] = try MisbehavingPlugin.build(in: shelf.home).path
        shelf.environment["SWIFT_BACKTRACE"] = "enable=no"
    }

    override func tearDown() { shelf.cleanUp() }

    /// What the plugin saw, one line per attempt: "PATH: refused (Permission denied)" or "PATH: OPENED ...".
    func snoop(_ environment: [String: String] = [:]) throws -> (
        report: [String: String], text: String, paths: [String: String]
    ) {
        let home = shelf.home
        // The library database and the credentials file exist, as they do for a patron.
        let added = try shelf.run(["lists", "connect", "misbehaving-list", "--set", "pull=none"])
        XCTAssertEqual(added.status, 0, added.stderr)
        let credentials = home.appendingPathComponent("config/credentials.json")
        try FileManager.default.createDirectory(
            at: credentials.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: credentials.path) {
            try "{}".write(to: credentials, atomically: true, encoding: .utf8)
        }
        let database = home.appendingPathComponent("data/library.sqlite3")
        XCTAssertTrue(FileManager.default.fileExists(atPath: database.path))
        let elsewhere = home.appendingPathComponent("elsewhere/notes.txt")
        try FileManager.default.createDirectory(
            at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "not the plugin's business".write(to: elsewhere, atomically: true, encoding: .utf8)
        let books = home.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        let beside = books.appendingPathComponent("chapter-2.txt")
        try "the next chapter".write(to: beside, atomically: true, encoding: .utf8)
        let book = books.appendingPathComponent("snoop.misbehave")
        try """
        MISBEHAVE none none
        SNOOP \(credentials.path)
        SNOOP \(database.path)
        SNOOP \(elsewhere.path)
        SNOOP \(beside.path)
        The book's own text.

        """.write(to: book, atomically: true, encoding: .utf8)
        var process = shelf!
        for (key, value) in environment { process.environment[key] = value }
        let manifest = try process.run(["manifest", book.path])
        XCTAssertEqual(manifest.status, 0, manifest.stderr)
        let json = try XCTUnwrap(try manifest.json() as? [String: Any])
        let description = try XCTUnwrap((json["metadata"] as? [String: Any])?["description"] as? String)
        var report: [String: String] = [:]
        for line in description.split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            report[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        let render = try process.run(["render", book.path])
        XCTAssertEqual(render.status, 0, render.stderr)
        return (
            report, render.stdout,
            [
                "credentials": credentials.path, "database": database.path, "elsewhere": elsewhere.path,
                "beside": beside.path
            ]
        )
    }

    func testTheSandboxRefusesWhatIsNotThePluginsBusinessAndTheBookStillReads() throws {
        let (report, text, paths) = try snoop()
        guard let abi = report["landlock ABI"].flatMap(Int.init), abi >= 1 else {
            throw XCTSkip(
                "this kernel has no Landlock (the plugin saw ABI \(report["landlock ABI"] ?? "?")): children run unconfined"
            )
        }
        for what in ["credentials", "database", "elsewhere"] {
            XCTAssertEqual(report[paths[what]!], "refused (Permission denied)", "\(what): \(report)")
        }
        XCTAssertEqual(report["socket(AF_INET)"], "refused (Operation not permitted)", "\(report)")
        XCTAssertEqual(report["socket(AF_UNIX)"], "refused (Operation not permitted)", "\(report)")
        XCTAssertEqual(
            report[paths["beside"]!], "refused (Permission denied)",
            "a file beside the book is asked of shelf as a companion (files.h), not read: \(report)")
        XCTAssertEqual(report["own data folder"], "OPENED and read", "\(report)")
        XCTAssertTrue(text.contains("The book's own text."), text)
    }

    /// The same plugin moved into shelf's process by the setting reads everything shelf may: the sandbox, not
    /// the fixture, made the difference above.
    func testTheSettingMovesAPluginIntoShelfsProcess() throws {
        let (report, _, paths) = try snoop(["SHELF_PLUGINS_IN_PROCESS": "org.shelf.test.misbehaving"])
        XCTAssertEqual(report[paths["credentials"]!], "OPENED and read", "\(report)")
        XCTAssertEqual(report["socket(AF_INET)"], "OPENED and read", "\(report)")
    }

    func testBundledPluginsMoveOutOfProcessAndReadTheSame() throws {
        let epub = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        var environment = shelf.environment
        let inProcess = Shelf(environment: environment)
        environment["SHELF_PLUGINS_OUT_OF_PROCESS"] = "all"
        let outOfProcess = Shelf(environment: environment)
        XCTAssertFalse(try XCTUnwrap(inProcess.registry.plugin(id: "org.shelf.epub3")).isOutOfProcess)
        XCTAssertTrue(try XCTUnwrap(outOfProcess.registry.plugin(id: "org.shelf.epub3")).isOutOfProcess)
        let a = try inProcess.open(epub), b = try outOfProcess.open(epub)
        XCTAssertEqual(a.manifestJSON, b.manifestJSON)
        XCTAssertEqual(try a.render(at: nil, settings: nil).content, try b.render(at: nil, settings: nil).content)
        XCTAssertEqual(try a.positions().count, try b.positions().count)
        XCTAssertEqual(try a.search("lighthouse").count, try b.search("lighthouse").count)
    }
}
