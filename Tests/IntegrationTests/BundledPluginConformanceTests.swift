import Foundation
import TestSupport
import XCTest

/// Every bundled plugin passes `shelf conformance` on the bundled samples, run exactly as a
/// third party would run it on their own plugin.
final class BundledPluginConformanceTests: XCTestCase {
    var shelf: ShelfProcess!
    let samples = ShelfProcess.packageRoot.appendingPathComponent("samples")

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    func conformance(_ library: String, samples names: [String]) throws -> [String: [String: Any]] {
        let plugin = ShelfProcess.buildDirectory.appendingPathComponent(library).path
        let result = try shelf.run(
            ["conformance", plugin, "--json"]
                + names.flatMap { ["--sample", samples.appendingPathComponent($0).path] })
        let report = try XCTUnwrap(try result.json() as? [String: Any], result.stderr)
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: results.map { ($0["check"] as! String, $0) })
    }

    func assertAllPassed(
        _ results: [String: [String: Any]], _ plugin: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(results.count, 24, file: file, line: line)
        for (check, result) in results {
            XCTAssertEqual(
                result["status"] as? String, "passed", "\(plugin) \(check): \(result["message"] ?? "")", file: file,
                line: line)
        }
    }

    func testEPUB3PassesEveryCheck() throws {
        assertAllPassed(try conformance("libshelf-epub3.so", samples: ["the-lighthouse-keeper.epub"]), "EPUB3")
    }

    func testEPUB2PassesEveryCheck() throws {
        assertAllPassed(try conformance("libshelf-epub2.so", samples: ["a-winter-crossing.epub"]), "EPUB2")
    }

    func testAFormatPluginWithoutASampleFailsTheOpenChecksAndSaysWhy() throws {
        let results = try conformance("libshelf-epub3.so", samples: [])
        for check in ["open", "resources", "render", "locators", "search"] {
            XCTAssertEqual(results[check]?["status"] as? String, "failed", check)
            XCTAssertTrue((results[check]?["message"] as? String ?? "").contains("pass --sample"), check)
        }
        XCTAssertEqual(results["descriptor"]?["status"] as? String, "passed")
    }

    func testConnectorsPassWhatTheyOfferAndSkipFormatChecks() throws {
        for library in ["libshelf-goodreads.so", "libshelf-googlebooks.so"] {
            let results = try conformance(library, samples: [])
            for check in ["load", "descriptor", "exports", "extensions"] {
                XCTAssertEqual(results[check]?["status"] as? String, "passed", "\(library) \(check)")
            }
            XCTAssertEqual(results["open"]?["status"] as? String, "skipped")
            XCTAssertTrue((results["open"]?["message"] as? String ?? "").contains("not a format plugin"))
        }
    }

    func testTheEPUBPluginsSplitTheWorkByProbing() throws {
        let three = try shelf.run(["info", samples.appendingPathComponent("the-lighthouse-keeper.epub").path, "--json"])
        let two = try shelf.run(["info", samples.appendingPathComponent("a-winter-crossing.epub").path, "--json"])
        XCTAssertEqual((try three.json() as? [String: Any])?["plugin"] as? String, "org.shelf.epub3")
        XCTAssertEqual((try two.json() as? [String: Any])?["plugin"] as? String, "org.shelf.epub2")
    }
}
