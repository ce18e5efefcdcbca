import Foundation
import TestSupport
import XCTest

/// The plugin author's kit as an author gets it: `make install-plugin-kit PREFIX=…` (which `make install`
/// runs) installs the headers, libshelf-plugin, shelf-plugin-host and shelf-plugin.pc; a plugin built with
/// nothing but `pkg-config --cflags --libs shelf-plugin` against that prefix loads into shelf and passes
/// conformance, and the stand-in host runs it without shelf.
final class PluginKitTests: XCTestCase {
    var shelf: ShelfProcess!
    var prefix: URL!
    let root = ShelfProcess.packageRoot
    var gemini: URL { root.appendingPathComponent("Examples/gemini-plugin/gemini.c") }
    var sample: URL { root.appendingPathComponent("Examples/gemini-plugin/samples/harbour-notes.gmi") }

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        prefix = shelf.home.appendingPathComponent("prefix")
    }

    override func tearDown() { shelf.cleanUp() }

    /// Runs a program and returns its exit status and standard output; standard error joins the output.
    @discardableResult
    func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func installKit() throws {
        let (status, output) = try run("make", ["-C", root.path, "install-plugin-kit", "PREFIX=\(prefix.path)"])
        XCTAssertEqual(status, 0, output)
        for file in [
            "include/shelf/plugin.h", "include/shelf/format.h", "include/shelf/helper.h", "lib/libshelf-plugin.a",
            "lib/libshelf-plugin.so.1", "lib/libshelf-plugin.so", "bin/shelf-plugin-host",
            "lib/pkgconfig/shelf-plugin.pc",
            // What helper.h and shelf-plugin(7) point an author with the kit alone to (they named docs/ and
            // Examples/ of a source tree the author does not have).
            "share/doc/shelf-plugin-dev/plugin-library.md",
            "share/doc/shelf-plugin-dev/examples/gemini-plugin/gemini.c",
            "share/doc/shelf-plugin-dev/examples/text-plugin/Makefile",
            "share/doc/shelf-plugin-dev/examples/readinglist-plugin/tsvlist.c"
        ] {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) is installed"
            )
        }
    }

    func pkgConfig(_ arguments: [String]) throws -> [String] {
        let (status, output) = try run(
            "pkg-config", arguments + ["shelf-plugin"],
            environment: ["PKG_CONFIG_PATH": prefix.appendingPathComponent("lib/pkgconfig").path])
        XCTAssertEqual(status, 0, output)
        return output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    func conformance(_ library: URL) throws -> [String: [String: Any]] {
        let result = try shelf.run(["conformance", library.path, "--sample", sample.path, "--json"])
        let report = try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: results.map { ($0["check"] as! String, $0) })
    }

    func testAPluginBuiltWithPkgConfigAgainstTheInstalledKitLoadsAndPassesConformance() throws {
        try installKit()
        let flags = try pkgConfig(["--cflags", "--libs"])
        XCTAssertTrue(flags.contains("-lshelf-plugin"), flags.description)
        let library = shelf.home.appendingPathComponent("plugins/libshelf-gemini.so")
        try FileManager.default.createDirectory(
            at: library.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (status, output) = try run(
            "cc",
            [
                "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fPIC", "-shared",
                "-fvisibility=hidden", "-o", library.path, gemini.path
            ] + flags)
        XCTAssertEqual(status, 0, output)

        let checks = try conformance(library)
        XCTAssertEqual(checks.count, 24)
        for (name, check) in checks {
            XCTAssertTrue(
                ["passed", "skipped"].contains(check["status"] as? String ?? ""), "\(name): \(check["message"] ?? "")")
        }
        XCTAssertEqual(checks["render"]?["status"] as? String, "passed", "the plugin renders through the library")
        XCTAssertEqual(checks["exports"]?["status"] as? String, "passed", "the library adds no exported symbol")

        shelf.environment["SHELF_PLUGIN_PATH"] = library.deletingLastPathComponent().path
        let info = try shelf.run(["info", sample.path, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual((try info.json() as? [String: Any])?["title"] as? String, "Harbour Notes")

        let host = prefix.appendingPathComponent("bin/shelf-plugin-host").path
        let (hostStatus, hostOutput) = try run(host, [library.path, sample.path])
        XCTAssertEqual(hostStatus, 0, hostOutput)
        XCTAssertTrue(hostOutput.contains("manifest   \"Harbour Notes\", 4 reading-order items"), hostOutput)
        XCTAssertTrue(hostOutput.hasSuffix("0 contract breaches\n"), hostOutput)
    }

    /// The installed text plugin example builds with its own Makefile against the installed kit, outside shelf's tree.
    func testTheInstalledExampleBuildsAgainstTheInstalledKit() throws {
        try installKit()
        let example = shelf.home.appendingPathComponent("my-plugins")
        try FileManager.default.copyItem(
            at: prefix.appendingPathComponent("share/doc/shelf-plugin-dev/examples"), to: example)
        let (status, output) = try run(
            "make", ["-s", "-C", example.appendingPathComponent("text-plugin").path],
            environment: ["PKG_CONFIG_PATH": prefix.appendingPathComponent("lib/pkgconfig").path])
        XCTAssertEqual(status, 0, output)
        let library = example.appendingPathComponent("text-plugin/libshelf-text.so")
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.path), output)
        let result = try shelf.run([
            "info", example.appendingPathComponent("text-plugin/samples/clockmakers-daughter.txt").path,
            "--plugin-path", library.path
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testTheStaticLibraryGoesInsideThePluginHidden() throws {
        try installKit()
        let staticLibrary = try pkgConfig(["--variable=staticlib"])
        XCTAssertEqual(staticLibrary, [prefix.appendingPathComponent("lib/libshelf-plugin.a").path])
        let library = shelf.home.appendingPathComponent("libshelf-gemini-static.so")
        let (status, output) = try run(
            "cc",
            ["-std=c99", "-fPIC", "-shared", "-fvisibility=hidden", "-o", library.path, gemini.path]
                + (try pkgConfig(["--cflags"])) + staticLibrary)
        XCTAssertEqual(status, 0, output)
        let (_, needed) = try run("readelf", ["-d", library.path])
        XCTAssertFalse(needed.contains("libshelf-plugin"), "linked in, not needed at run time: \(needed)")
        XCTAssertEqual(try conformance(library)["exports"]?["status"] as? String, "passed")
    }

    /// docs/plugin-library.md shows the whole plugin: the file itself, under 150 lines.
    func testTheDocumentationShowsTheWholeExamplePlugin() throws {
        let code = try String(contentsOf: gemini, encoding: .utf8)
        XCTAssertLessThan(code.split(separator: "\n", omittingEmptySubsequences: false).count - 1, 150)
        let doc = try String(contentsOf: root.appendingPathComponent("docs/plugin-library.md"), encoding: .utf8)
        let block = try XCTUnwrap(
            doc.components(separatedBy: "```c\n").dropFirst().first?.components(separatedBy: "```\n").first)
        XCTAssertEqual(block, code, "docs/plugin-library.md has drifted from Examples/gemini-plugin/gemini.c")
    }
}
