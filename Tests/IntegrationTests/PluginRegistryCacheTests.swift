import Foundation
import TestSupport
import XCTest

/// The registry cache: a command loads only the plugins it needs once shelf has seen the others,
/// and a plugin file that changes is read again, never trusted from the cache.
final class PluginRegistryCacheTests: XCTestCase {
    var shelf: ShelfProcess!
    let book = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    /// The shared libraries the dynamic loader opened during one run (LD_DEBUG=files).
    func librariesLoaded(_ arguments: [String]) throws -> String {
        var traced = shelf
        traced!.environment["LD_DEBUG"] = "files"
        let result = try traced!.run(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stderr
    }

    func testASecondCommandLoadsOnlyThePluginsItNeeds() throws {
        let first = try librariesLoaded(["info", book])
        XCTAssertTrue(first.contains("libshelf-audiobook.so"), "the first run reads every plugin")
        let cacheFile = shelf.home.appendingPathComponent("cache/plugin-registry")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: cacheFile.path), "the registry is kept for the next command")

        // render: a call only the plugin can answer (a second info comes from the publication memo).
        let second = try librariesLoaded(["render", book])
        XCTAssertTrue(second.contains("libshelf-epub3.so"), "the plugin that opens the book is loaded")
        XCTAssertFalse(second.contains("libshelf-audiobook.so"), "the audiobook plugin (and FFmpeg) is not")
        XCTAssertFalse(second.contains("libshelf-goodreads.so"))

        // `shelf plugins` still opens everything: it is the command that says what really loads.
        let plugins = try librariesLoaded(["plugins"])
        XCTAssertTrue(plugins.contains("libshelf-audiobook.so"))
    }

    func testABookOnTheShelfOpensThroughThePluginThatOpenedItBefore() throws {
        XCTAssertEqual(try shelf.run(["add", book]).status, 0)
        XCTAssertEqual(try shelf.run(["read", "lighthouse"]).status, 0)
        let next = try librariesLoaded(["read", "lighthouse", "--next"])
        XCTAssertTrue(next.contains("libshelf-epub3.so"))
        XCTAssertFalse(next.contains("libshelf-epub2.so"), "the other EPUB plugin is not even asked")
    }

    func testADamagedRegistryIsReadAgainFromThePlugins() throws {
        XCTAssertEqual(try shelf.run(["info", book]).status, 0)
        let cacheFile = shelf.home.appendingPathComponent("cache/plugin-registry")
        let good = try Data(contentsOf: cacheFile)
        try good.prefix(good.count / 2).write(to: cacheFile)
        let plugins = try librariesLoaded(["info", book])
        XCTAssertTrue(
            plugins.contains("libshelf-audiobook.so"),
            "nothing is believed from a damaged registry: every plugin is read")
        XCTAssertEqual(try Data(contentsOf: cacheFile).count, good.count, "and the registry is written again")
    }

    func testAPluginFileThatChangesIsReadAgain() throws {
        let include = ShelfProcess.packageRoot.appendingPathComponent("Sources/PluginAPI/include")
        let examples = ShelfProcess.packageRoot.appendingPathComponent("Examples")
        let directory = shelf.home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let library = directory.appendingPathComponent("libshelf-mine.so")
        try CCompiler.examplePlugin("text-plugin", output: library)
        shelf.environment["SHELF_PLUGIN_PATH"] = directory.path
        let sample = examples.appendingPathComponent("text-plugin/samples/lighthouse-keeper.md").path
        XCTAssertEqual(try shelf.run(["info", sample]).status, 0)
        XCTAssertEqual(try shelf.run(["info", sample]).status, 0, "served from the cache")

        // The same path now holds a plugin built for ABI 99: it must be refused, not taken from the cache.
        let broken = shelf.home.appendingPathComponent("broken.so")
        try CCompiler.sharedLibrary(
            sources: [examples.appendingPathComponent("broken-plugins/broken-abi.c")], output: broken,
            includes: [include, examples.appendingPathComponent("broken-plugins")])
        XCTAssertEqual(rename(broken.path, library.path), 0, "replace the library in one step")
        let info = try shelf.run(["info", sample])
        XCTAssertEqual(info.status, 69, "no plugin opens Markdown any more: \(info.stderr)")
        let plugins = try shelf.run(["plugins", "--json"])
        let refused = (try plugins.json() as? [String: Any])?["refused"] as? [[String: Any]] ?? []
        XCTAssertTrue(refused.contains { ($0["reason"] as? String ?? "").contains("ABI 99") }, plugins.stdout)
    }
}
