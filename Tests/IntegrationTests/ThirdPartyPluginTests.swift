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
        XCTAssertEqual(
            Set(text["capabilities"] as? [String] ?? []),
            ["shelf.format/1", "shelf.render/1", "shelf.positions/1", "shelf.search/1"])
        XCTAssertEqual(plugins.count, 7)
    }

    /// `shelf plugins` says where each plugin runs and why: the bundled ones in shelf's process, the C plugin from
    /// SHELF_PLUGIN_PATH confined, and the settings that move them named as the reason.
    func testPluginsSaysWhereEachPluginRunsAndWhy() throws {
        func places(_ environment: [String: String] = [:]) throws -> [String: (runs: String, because: String)] {
            for (key, value) in environment { shelf.environment[key] = value }
            defer { for key in environment.keys { shelf.environment[key] = nil } }
            let result = try shelf.run(["plugins", "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let plugins = try XCTUnwrap((try result.json() as? [String: Any])?["plugins"] as? [[String: Any]])
            var byID: [String: (runs: String, because: String)] = [:]
            for p in plugins {
                byID[p["id"] as? String ?? ""] = (p["runs"] as? String ?? "none", p["runsBecause"] as? String ?? "")
            }
            return byID
        }
        let plain = try places()
        XCTAssertEqual(plain["org.shelf.epub3"]?.runs, "in-process")
        XCTAssertEqual(plain["org.shelf.epub3"]?.because, "shelf ships it")
        XCTAssertEqual(plain["org.shelf.example.text"]?.runs, "confined")
        XCTAssertEqual(
            plain["org.shelf.example.text"]?.because,
            "shelf does not ship it: it was found in \(pluginDirectory.path)")

        let moved = try places([
            "SHELF_PLUGINS_OUT_OF_PROCESS": "org.shelf.epub3", "SHELF_PLUGINS_IN_PROCESS": "org.shelf.example.text"
        ])
        XCTAssertEqual(moved["org.shelf.epub3"]?.runs, "confined")
        XCTAssertEqual(moved["org.shelf.epub3"]?.because, "SHELF_PLUGINS_OUT_OF_PROCESS names it")
        XCTAssertEqual(moved["org.shelf.example.text"]?.runs, "in-process")
        XCTAssertEqual(moved["org.shelf.example.text"]?.because, "SHELF_PLUGINS_IN_PROCESS names it")

        let unconfined = try places(["SHELF_PLUGIN_CONFINEMENT": "off"])
        XCTAssertEqual(unconfined["org.shelf.example.text"]?.runs, "unconfined")
        XCTAssertTrue(
            unconfined["org.shelf.example.text"]?.because.hasSuffix(
                "SHELF_PLUGIN_CONFINEMENT=off runs it without Landlock and seccomp") ?? false)

        let text = try shelf.run(["plugins"])
        XCTAssertTrue(
            text.stdout.contains(
                "  runs:     confined, in a process of its own (shelf does not ship it: it was found in"), text.stdout)
        XCTAssertTrue(text.stdout.contains("  runs:     in shelf's process (shelf ships it)"), text.stdout)
        let inspect = try shelf.run(["plugins", "--inspect", "org.shelf.example.text", "--json"])
        XCTAssertEqual((try inspect.json() as? [String: Any])?["runs"] as? String, "confined")
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

        let html = try shelf.run([
            "render", markdownSample.path, "--as", "html", "--theme", "night", "--font-scale", "150"
        ])
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
        let result = try shelf.run([
            "conformance", pluginDirectory.appendingPathComponent("libshelf-text.so").path,
            "--sample", markdownSample.path, "--sample", textSample.path, "--json"
        ])
        XCTAssertEqual(result.status, 0, result.stdout)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 24)
        for r in results {
            XCTAssertEqual(r["status"] as? String, "passed", "\(r["check"] ?? "?"): \(r["message"] ?? "")")
        }
    }
}
