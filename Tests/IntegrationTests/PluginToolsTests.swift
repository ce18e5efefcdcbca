import Foundation
import TestSupport
import XCTest

/// The tools a plugin author expects (as gst-inspect and typefind give GStreamer authors): `shelf sniff FILE`
/// says what shelf sniffs and which plugin wins, and `shelf plugins --inspect ID` shows one plugin whole.
final class PluginToolsTests: XCTestCase {
    var shelf: ShelfProcess!
    let samples = ShelfProcess.packageRoot.appendingPathComponent("samples")

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    func testSniffNamesTheMediaTypeEveryProbeAndTheWinner() throws {
        let result = try shelf.run([
            "sniff", samples.appendingPathComponent("the-lighthouse-keeper.epub").path, "--json"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(report["mediaType"] as? String, "application/epub+zip")
        XCTAssertEqual(report["opensWith"] as? String, "org.shelf.epub3")
        let probes = try XCTUnwrap(report["probes"] as? [[String: Any]])
        let byPlugin = Dictionary(uniqueKeysWithValues: probes.map { ($0["plugin"] as! String, $0) })
        XCTAssertEqual(byPlugin["org.shelf.epub3"]?["claims"] as? Bool, true)
        XCTAssertEqual(byPlugin["org.shelf.epub2"]?["claims"] as? Bool, true, "both EPUB plugins declare the type")
        XCTAssertGreaterThan(
            byPlugin["org.shelf.epub3"]?["confidence"] as? Int ?? 0,
            byPlugin["org.shelf.epub2"]?["confidence"] as? Int ?? 100)
        XCTAssertEqual(byPlugin["org.shelf.audiobook"]?["claims"] as? Bool, false)

        let text = try shelf.run(["sniff", samples.appendingPathComponent("the-lighthouse-keeper.epub").path])
        XCTAssertTrue(text.stdout.hasSuffix("Opens with org.shelf.epub3.\n"), text.stdout)
        let nothing = try shelf.run(["sniff", samples.appendingPathComponent("make-samples.py").path])
        XCTAssertEqual(nothing.status, 69, "no plugin opens a Python script: \(nothing.stdout)")
    }

    func testInspectShowsTheDescriptorEachCapabilityAndEachService() throws {
        let epub = try shelf.run(["plugins", "--inspect", "org.shelf.epub3", "--json"])
        XCTAssertEqual(epub.status, 0, epub.stderr)
        let inspection = try XCTUnwrap(try epub.json() as? [String: Any])
        XCTAssertEqual(inspection["mediaTypes"] as? [String], ["application/epub+zip"])
        let capabilities = try XCTUnwrap(inspection["capabilities"] as? [[String: Any]])
        let format = try XCTUnwrap(capabilities.first { $0["id"] as? String == "shelf.format/1" })
        XCTAssertEqual(format["functions"] as? Int, 5, "probe, open, manifest, resource, close")

        let goodreads = try shelf.run(["plugins", "--inspect", "org.shelf.goodreads"])
        XCTAssertEqual(goodreads.status, 0, goodreads.stderr)
        XCTAssertTrue(goodreads.stdout.contains("service:      goodreads (Goodreads)"), goodreads.stdout)
        XCTAssertTrue(goodreads.stdout.contains("offers:       shelf.readinglist/1"), goodreads.stdout)

        let unknown = try shelf.run(["plugins", "--inspect", "org.example.nothing"])
        XCTAssertEqual(unknown.status, 66)
        XCTAssertTrue(unknown.stderr.contains("no plugin has the id org.example.nothing"), unknown.stderr)
    }
}
