import Foundation
import TestSupport
import XCTest

/// A plugin written in plain C from the headers and libshelf-plugin, compiled here with `cc` and loaded into the
/// already-built shelf through SHELF_PLUGIN_PATH: formats are added without rebuilding shelf.
final class ThirdPartyPluginTests: XCTestCase {
    var shelf: ShelfProcess!
    var pluginDirectory: URL!
    let example = ShelfProcess.packageRoot.appendingPathComponent("Examples/text-plugin")
    var markdownSample: URL { example.appendingPathComponent("samples/lighthouse-keeper.md") }
    var textSample: URL { example.appendingPathComponent("samples/clockmakers-daughter.txt") }

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        pluginDirectory = shelf.home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: pluginDirectory, withIntermediateDirectories: true)
        try CCompiler.examplePlugin("text-plugin", output: pluginDirectory.appendingPathComponent("libshelf-text.so"))
        shelf.environment["SHELF_PLUGIN_PATH"] = pluginDirectory.path
    }

    override func tearDown() { shelf.cleanUp() }

    func testTheCPluginIsListedBesideTheBundledOnes() throws {
        let result = try shelf.run(["plugins", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let plugins = try XCTUnwrap((try result.json() as? [String: Any])?["plugins"] as? [[String: Any]])
        let text = try XCTUnwrap(plugins.first { $0["id"] as? String == "org.shelf.example.text" })
        XCTAssertEqual(Set(text["mediaTypes"] as? [String] ?? []), ["text/plain", "text/markdown"])
        XCTAssertEqual(Set(text["capabilities"] as? [String] ?? []),
                       ["shelf.format/1", "shelf.render/1", "shelf.positions/1", "shelf.search/1"])
        XCTAssertEqual(plugins.count, 6)
    }

    func testABookOpensThroughTheCPlugin() throws {
        let info = try shelf.run(["info", markdownSample.path, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        let json = try XCTUnwrap(try info.json() as? [String: Any])
        XCTAssertEqual(json["title"] as? String, "The Lighthouse Keeper")
        XCTAssertEqual(json["plugin"] as? String, "org.shelf.example.text")
        XCTAssertEqual(json["mediaType"] as? String, "text/markdown")
        XCTAssertEqual(json["format"] as? String, "eBook")
        XCTAssertGreaterThan(json["chapters"] as? Int ?? 0, 1)

        let manifest = try shelf.run(["manifest", markdownSample.path])
        XCTAssertEqual(manifest.status, 0)
        let m = try XCTUnwrap(try manifest.json() as? [String: Any])
        let order = try XCTUnwrap(m["readingOrder"] as? [[String: Any]])
        XCTAssertEqual(order.count, json["readingOrderItems"] as? Int)

        let render = try shelf.run(["render", markdownSample.path, "--chapter", "2", "--width", "40"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let lines = render.stdout.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 40 }, "text is wrapped to the width asked for")

        let html = try shelf.run(["render", markdownSample.path, "--as", "html", "--theme", "night", "--font-scale", "150"])
        XCTAssertEqual(html.status, 0)
        XCTAssertTrue(html.stdout.contains("<"), "HTML output")
        XCTAssertTrue(html.stdout.contains("150"), "the font scale reaches the plugin")
    }

    func testPositionsAndSearchGoThroughTheABI() throws {
        let positions = try shelf.run(["positions", textSample.path, "--json"])
        XCTAssertEqual(positions.status, 0, positions.stderr)
        let list = try XCTUnwrap(try positions.json() as? [[String: Any]])
        XCTAssertFalse(list.isEmpty)
        let numbers = list.compactMap { ($0["locations"] as? [String: Any])?["position"] as? Int }
        XCTAssertEqual(numbers, Array(1...list.count))

        let search = try shelf.run(["search", markdownSample.path, "lighthouse", "--json"])
        XCTAssertEqual(search.status, 0, search.stderr)
        let hits = try XCTUnwrap(try search.json() as? [[String: Any]])
        XCTAssertFalse(hits.isEmpty)
        for hit in hits {
            let highlight = (hit["text"] as? [String: Any])?["highlight"] as? String
            XCTAssertEqual(highlight?.lowercased(), "lighthouse")
        }
    }

    func testTheCPluginPassesConformance() throws {
        let result = try shelf.run(["conformance", pluginDirectory.appendingPathComponent("libshelf-text.so").path,
                                    "--sample", markdownSample.path, "--sample", textSample.path, "--json"])
        XCTAssertEqual(result.status, 0, result.stdout)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 20)
        for r in results {
            XCTAssertEqual(r["status"] as? String, "passed", "\(r["check"] ?? "?"): \(r["message"] ?? "")")
        }
    }
}
