import Foundation
import TestSupport
import XCTest

/// Publication memos: the second open of a file takes its manifest and positions from the cache
/// folder and opens the file through the plugin that opened it before only when a call needs it,
/// without probing; anything stale or damaged there is ignored, never believed.
final class PublicationMemoTests: XCTestCase {
    var shelf: ShelfProcess!
    let samples = ShelfProcess.packageRoot.appendingPathComponent("samples")

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    var memoFolder: URL { shelf.home.appendingPathComponent("cache/publications") }

    func memoFiles() -> [URL] {
        (try? FileManager.default.contentsOfDirectory(at: memoFolder, includingPropertiesForKeys: nil)) ?? []
    }

    func positions(_ path: String, in process: ShelfProcess? = nil) throws -> String {
        let result = try (process ?? shelf).run(["positions", path, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    /// A private copy, so that the test may replace it.
    func copy(_ name: String) throws -> String {
        let target = shelf.home.appendingPathComponent("book.epub")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: target)
        return target.path
    }

    func testTheSecondOpenUsesTheMemoAndLoadsNoPluginItDoesNotNeed() throws {
        let book = try copy("the-lighthouse-keeper.epub")
        let first = try positions(book)
        XCTAssertEqual(memoFiles().count, 1)
        var traced = shelf!
        traced.environment["LD_DEBUG"] = "files"
        let second = try traced.run(["positions", book, "--json"])
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(second.stdout, first, "the memo gives exactly what the plugin gave")
        XCTAssertFalse(
            second.stderr.contains("libshelf-"), "positions and manifest come from the memo: no plugin is loaded")
        // A call the memo cannot answer opens the file through the plugin that opened it, and only that one.
        let render = try traced.run(["render", book, "--chapter", "2", "--width", "60"])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertFalse(render.stdout.isEmpty)
        XCTAssertTrue(render.stderr.contains("libshelf-epub3.so"))
        XCTAssertFalse(render.stderr.contains("libshelf-epub2.so"), "no probing: the other EPUB plugin is not loaded")
        let fresh = try ShelfProcess()
        defer { fresh.cleanUp() }
        XCTAssertEqual(
            render.stdout, try fresh.run(["render", book, "--chapter", "2", "--width", "60"]).stdout,
            "the same text as a first open")
    }

    func testASecondInfoLoadsNoPlugin() throws {
        let book = try copy("the-lighthouse-keeper.epub")
        let first = try shelf.run(["info", book, "--json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(memoFiles().count, 1, "the first open is remembered even before positions are asked for")
        var traced = shelf!
        traced.environment["LD_DEBUG"] = "files"
        let second = try traced.run(["info", book, "--json"])
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertFalse(second.stderr.contains("libshelf-"), "the manifest comes from the memo: no plugin is loaded")
        let manifest = try shelf.run(["manifest", book])
        let fresh = try ShelfProcess()
        defer { fresh.cleanUp() }
        XCTAssertEqual(
            manifest.stdout, try fresh.run(["manifest", book]).stdout, "the remembered manifest is the plugin's")
        // Positions asked for later are computed once and kept in the same memo.
        let positions = try positions(book)
        XCTAssertEqual(memoFiles().count, 1)
        XCTAssertEqual(try self.positions(book), positions)
    }

    func testADamagedMemoIsIgnoredAndRewritten() throws {
        let book = try copy("the-lighthouse-keeper.epub")
        let first = try positions(book)
        let memo = try XCTUnwrap(memoFiles().first)
        let good = try Data(contentsOf: memo)
        var traced = shelf!
        traced.environment["LD_DEBUG"] = "files"
        for damage in [
            good.prefix(good.count / 2), Data("not a memo".utf8), Data(),
            good.prefix(40) + Data(repeating: 0xFF, count: 64)
        ] {
            try damage.write(to: memo)
            let reopened = try traced.run(["positions", book, "--json"])
            XCTAssertEqual(reopened.stdout, first)
            XCTAssertTrue(
                reopened.stderr.contains("libshelf-epub"), "a damaged memo is not believed: the plugins are asked")
            XCTAssertEqual(
                try Data(contentsOf: memo).count, good.count, "the memo is written again from the plugin's answer")
            let again = try traced.run(["positions", book, "--json"])
            XCTAssertEqual(again.stdout, first)
            XCTAssertFalse(again.stderr.contains("libshelf-"), "and serves the next command")
        }
    }

    func testAReplacedBookIsNotAnsweredFromTheOldMemo() throws {
        let book = try copy("the-lighthouse-keeper.epub")
        let lighthouse = try positions(book)
        _ = try copy("a-winter-crossing.epub")
        let fresh = try ShelfProcess()
        defer { fresh.cleanUp() }
        let winter = try positions(samples.appendingPathComponent("a-winter-crossing.epub").path, in: fresh)
        XCTAssertNotEqual(lighthouse, winter)
        XCTAssertEqual(
            try positions(book),
            winter.replacingOccurrences(of: samples.appendingPathComponent("a-winter-crossing.epub").path, with: book))
    }
}
