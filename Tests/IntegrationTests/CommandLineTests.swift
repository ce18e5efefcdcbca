import Foundation
import TestSupport
import XCTest

/// The `shelf` command as a user runs it: output, --json, and exit codes.
final class CommandLineTests: XCTestCase {
    var shelf: ShelfProcess!
    let samples = ShelfProcess.packageRoot.appendingPathComponent("samples")

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    func testVersionAndHelp() throws {
        let version = try shelf.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.contains("plugin ABI 1.0"), version.stdout)
        let help = try shelf.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for command in ["plugins", "info", "manifest", "render", "conformance"] {
            XCTAssertTrue(help.stdout.contains("  \(command) "), "help lists \(command)")
        }
        XCTAssertFalse(help.stdout.contains("conformance-check"), "the internal command stays hidden")
        let one = try shelf.run(["help", "render"])
        XCTAssertEqual(one.status, 0)
        XCTAssertTrue(one.stdout.contains("--font-scale"))
    }

    func testUsageErrorsExit64() throws {
        let unknown = try shelf.run(["frobnicate"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no command \"frobnicate\""), unknown.stderr)
        let badOption = try shelf.run(["info", "x.epub", "--colour"])
        XCTAssertEqual(badOption.status, 64)
        XCTAssertTrue(badOption.stderr.contains("unknown option --colour"))
        let badValue = try shelf.run([
            "render", samples.appendingPathComponent("a-winter-crossing.epub").path, "--width", "wide"
        ])
        XCTAssertEqual(badValue.status, 64)
        XCTAssertTrue(badValue.stderr.contains("--width takes a whole number"))
        XCTAssertEqual(try shelf.run(["info"]).status, 64)
        XCTAssertEqual(try shelf.run([]).status, 64)
    }

    func testMissingFileExits66AndNamesIt() throws {
        let result = try shelf.run(["info", "/no/such/book.epub"])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.stderr.contains("/no/such/book.epub: no such file"), result.stderr)
        XCTAssertTrue(result.stdout.isEmpty)
    }

    func testUnknownFormatExits69() throws {
        let file = shelf.home.appendingPathComponent("noise.bin")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)
        let result = try shelf.run(["info", file.path])
        XCTAssertEqual(result.status, 69)
        XCTAssertTrue(result.stderr.contains("no installed plugin opens"), result.stderr)
        XCTAssertTrue(result.stderr.contains("shelf plugins"), "the error says what to do")
    }

    func testDirectoryIsNotABook() throws {
        let result = try shelf.run(["info", shelf.home.path])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.stderr.contains("is a directory"))
    }

    func testBundledPluginsAreListedWithTheirTypesAndServices() throws {
        let result = try shelf.run(["plugins", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try result.json() as? [String: Any])
        let plugins = try XCTUnwrap(json["plugins"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: plugins.map { ($0["id"] as! String, $0) })
        XCTAssertEqual(
            Set(byID.keys),
            [
                "org.shelf.epub2", "org.shelf.epub3", "org.shelf.audiobook",
                "org.shelf.goodreads", "org.shelf.googlebooks", "org.shelf.speech.espeak-ng"
            ])
        XCTAssertEqual(byID["org.shelf.epub2"]?["mediaTypes"] as? [String], ["application/epub+zip"])
        XCTAssertEqual(byID["org.shelf.epub3"]?["mediaTypes"] as? [String], ["application/epub+zip"])
        XCTAssertTrue(
            (byID["org.shelf.audiobook"]?["mediaTypes"] as? [String] ?? []).contains("application/audiobook+json"))
        XCTAssertEqual(byID["org.shelf.goodreads"]?["services"] as? [String], ["goodreads"])
        XCTAssertEqual(byID["org.shelf.googlebooks"]?["services"] as? [String], ["google-books"])
        for plugin in plugins {
            XCTAssertEqual(plugin["abi"] as? String, "1.1")
            XCTAssertNotNil(plugin["license"] as? String)
        }
        XCTAssertEqual((json["refused"] as? [Any])?.count, 0)
    }

    func testHumanPluginListSaysWhatEachOpens() throws {
        let result = try shelf.run(["plugins"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("opens:    application/epub+zip"))
        XCTAssertTrue(result.stdout.contains("connects: goodreads"))
    }
}
