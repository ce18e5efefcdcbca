import Foundation
import TestSupport
import XCTest

/// ABI 1.1 beside 1.0 (plugin.h, "Minor versions"): a plugin compiled against the 1.0 headers (Tests/ABI/1.0) still
/// loads and opens books, and `shelf plugins` says what it lacks; a 1.1 plugin gets its own file at init
/// (shelf_host.plugin_path) and says why it refuses a file it knows (shelf.probe/1); a plugin built for a newer
/// minor loads, and shelf says only its own calls are made. Each in shelf's process and confined.
final class ABIMinorTests: XCTestCase {
    var shelf: ShelfProcess!
    var plugins: URL!
    static let folder = ShelfProcess.packageRoot.appendingPathComponent("Tests/ABI")

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        plugins = shelf.home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        shelf.environment["SHELF_PLUGIN_PATH"] = plugins.path
    }

    override func tearDown() { shelf.cleanUp() }

    func build(_ source: String, _ name: String, headers: URL, flags: [String] = []) throws {
        try CCompiler.sharedLibrary(
            sources: [Self.folder.appendingPathComponent(source)], output: plugins.appendingPathComponent(name),
            includes: [headers], flags: flags)
    }

    func book(_ name: String, _ text: String) throws -> String {
        let url = shelf.home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func listed(_ id: String) throws -> [String: Any] {
        let result = try shelf.run(["plugins", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let plugins = try XCTUnwrap((try result.json() as? [String: Any])?["plugins"] as? [[String: Any]])
        return try XCTUnwrap(plugins.first { $0["id"] as? String == id }, "\(id) is not listed: \(result.stdout)")
    }

    /// Both placements: confined (a plugin shelf does not ship) and in shelf's process.
    func inEachPlace(_ id: String, _ body: (String) throws -> Void) rethrows {
        for place in ["confined", "in-process"] {
            shelf.environment["SHELF_PLUGINS_IN_PROCESS"] = place == "in-process" ? id : nil
            try body(place)
        }
        shelf.environment["SHELF_PLUGINS_IN_PROCESS"] = nil
    }

    func testAPluginBuiltAgainstTheOneZeroHeadersLoadsAndSaysWhatItLacks() throws {
        try build("oldie.c", "libshelf-oldie.so", headers: Self.folder.appendingPathComponent("1.0"))
        let oldie = try listed("org.shelf.test.oldie")
        XCTAssertEqual(oldie["abi"] as? String, "1.0")
        XCTAssertEqual(
            oldie["abiNote"] as? String,
            "built for ABI 1.0: it lacks shelf.probe/1 (1.1), so shelf cannot say why it refuses a file")
        let path = try book("first.oldie", "OLDIE\nThe First Book\n")
        try inEachPlace("org.shelf.test.oldie") { place in
            let info = try shelf.run(["info", path, "--json"])
            XCTAssertEqual(info.status, 0, "\(place): \(info.stderr)")
            XCTAssertEqual((try info.json() as? [String: Any])?["title"] as? String, "The First Book", place)
        }
        let text = try shelf.run(["plugins"])
        XCTAssertTrue(
            text.stdout.contains("  ABI:      1.0, built for ABI 1.0: it lacks shelf.probe/1 (1.1)"), text.stdout)
        let conformance = try shelf.run([
            "conformance", plugins.appendingPathComponent("libshelf-oldie.so").path, "--check", "load",
            "--check", "descriptor", "--check", "extensions", "--json"
        ])
        XCTAssertEqual(conformance.status, 0, conformance.stdout)
    }

    func testAOneOnePluginIsGivenItsOwnPathAtInit() throws {
        try build("pathy.c", "libshelf-pathy.so", headers: CCompiler.pluginIncludes[0])
        try Data("Hello from beside the plugin\n".utf8).write(to: plugins.appendingPathComponent("pathy-greeting.txt"))
        let path = try book("one.pathy", "PATHY1\nThe Path\n")
        XCTAssertNil(try listed("org.shelf.test.pathy")["abiNote"])
        try inEachPlace("org.shelf.test.pathy") { place in
            let info = try shelf.run(["info", path, "--json"])
            XCTAssertEqual(info.status, 0, "\(place): \(info.stderr)")
            let title = (try info.json() as? [String: Any])?["title"] as? String ?? ""
            // The path itself reaches the plugin in both places; the file beside it is read in shelf's process (the
            // sandbox may refuse a confined plugin the folder it was found in: shelf-plugin(7)).
            XCTAssertTrue(title.hasSuffix(": The Path [libshelf-pathy.so]"), "\(place): \(title)")
            if place == "in-process" {
                XCTAssertEqual(title, "Hello from beside the plugin: The Path [libshelf-pathy.so]")
            }
        }
    }

    func testAProbeSaysWhyItRefusesAFileItKnows() throws {
        try build("pathy.c", "libshelf-pathy.so", headers: CCompiler.pluginIncludes[0])
        let path = try book("two.pathy", "PATHY2\nThe Sequel\n")
        try inEachPlace("org.shelf.test.pathy") { place in
            let info = try shelf.run(["info", path])
            XCTAssertEqual(info.status, 69, "\(place): \(info.stderr)")
            XCTAssertTrue(
                info.stderr.contains(
                    "the plugin \"Pathy\" (org.shelf.test.pathy) knows this file but cannot open it: "
                        + "this is a Pathy 2 book, and this plugin reads Pathy 1 only: update it"),
                "\(place): \(info.stderr)")
            XCTAssertFalse(info.stderr.contains("no installed plugin opens"), info.stderr)
            let sniff = try shelf.run(["sniff", path, "--json"])
            let probes = (try sniff.json() as? [String: Any])?["probes"] as? [[String: Any]] ?? []
            let pathy = probes.first { $0["plugin"] as? String == "org.shelf.test.pathy" }
            XCTAssertEqual(pathy?["confidence"] as? Int, 0)
            XCTAssertTrue((pathy?["error"] as? String ?? "").contains("this is a Pathy 2 book"), "\(place): \(probes)")
            XCTAssertNil(
                probes.first { $0["plugin"] as? String == "org.shelf.epub3" }?["error"],
                "a probe without a reason says none")
        }
    }

    func testAPluginBuiltForANewerMinorLoadsAndShelfSaysSo() throws {
        try build("pathy.c", "libshelf-pathy.so", headers: CCompiler.pluginIncludes[0], flags: ["-DPATHY_MINOR=9"])
        let pathy = try listed("org.shelf.test.pathy")
        XCTAssertEqual(pathy["abi"] as? String, "1.9")
        XCTAssertEqual(
            pathy["abiNote"] as? String,
            "built for ABI 1.9, newer than this shelf's 1.1: shelf makes only the calls of 1.1, and a call added after 1.1 is never made"
        )
        let path = try book("one.pathy", "PATHY1\nThe Path\n")
        let info = try shelf.run(["info", path, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
    }
}
