@testable import Host
@testable import ShelfPlugins
import TestSupport
import XCTest

final class PluginDescriptorTests: XCTestCase {
    func testMediaTypesMustBeLowercaseTypeSlashSubtype() {
        for good in ["application/epub+zip", "text/plain", "audio/mp4", "application/vnd.readium.lcp.license.v1.0+json"]
        {
            XCTAssertTrue(PluginDescriptor.isValidMediaType(good), good)
        }
        for bad in [
            "Not A Type", "text", "text/", "/plain", "Text/Plain", "text/plain; charset=utf-8", "a/b/c", "",
            "text/pl ain"
        ] {
            XCTAssertFalse(PluginDescriptor.isValidMediaType(bad), bad)
        }
    }

    func testIDsAreReverseDNSCharacters() {
        XCTAssertTrue(PluginDescriptor.isValidID("org.example.markdown"))
        XCTAssertTrue(PluginDescriptor.isValidID("google-books"))
        for bad in ["", "Org.Example", "../evil", "a b", ".hidden", String(repeating: "a", count: 129)] {
            XCTAssertFalse(PluginDescriptor.isValidID(bad), bad)
        }
    }
}

final class ELFExportsTests: XCTestCase {
    var buildDirectory: URL { ShelfProcess.buildDirectory }

    func testBundledPluginsExportOnlyTheEntrySymbol() throws {
        for name in [
            "libshelf-epub2.so", "libshelf-epub3.so", "libshelf-audiobook.so", "libshelf-goodreads.so",
            "libshelf-googlebooks.so"
        ] {
            let path = buildDirectory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw XCTSkip("\(name) not built beside the tests")
            }
            XCTAssertEqual(ELFExports.names(path: path), ["shelf_plugin_entry"], name)
        }
    }

    func testAnExecutableExportsMore() throws {
        let names = try XCTUnwrap(
            ELFExports.names(path: "/lib/x86_64-linux-gnu/libc.so.6")
                ?? ELFExports.names(path: "/usr/lib/x86_64-linux-gnu/libc.so.6"))
        XCTAssertTrue(names.contains("malloc"))
    }

    func testGarbageIsNotAnELF() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID().uuidString).so")
        // An ELF magic followed by offsets pointing far outside the file.
        try Data([0x7F, 0x45, 0x4C, 0x46, 2, 1] + [UInt8](repeating: 0xFF, count: 200)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertNil(ELFExports.names(path: url.path))
        XCTAssertNil(ELFExports.names(path: "/no/such/file.so"))
    }
}

final class PluginSearchPathTests: XCTestCase {
    func testOrderAndTheBundledFilter() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString)")
        let bin = root.appendingPathComponent("bin"), explicit = root.appendingPathComponent("explicit")
        let installed = root.appendingPathComponent("lib/shelf/plugins"), home = root.appendingPathComponent("home")
        for dir in [bin, explicit, installed, home.appendingPathComponent(".local/lib/shelf/plugins")] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        for file in [
            bin.appendingPathComponent("libshelf-a.so"), bin.appendingPathComponent("libother.so"),
            explicit.appendingPathComponent("b.so"), explicit.appendingPathComponent("readme.txt"),
            installed.appendingPathComponent("c.so"), home.appendingPathComponent(".local/lib/shelf/plugins/d.so")
        ] {
            XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data()))
        }
        // The same library named twice is tried once.
        try FileManager.default.createSymbolicLink(
            at: explicit.appendingPathComponent("again.so"), withDestinationURL: explicit.appendingPathComponent("b.so")
        )
        let path = PluginSearchPath.standard(
            explicit: [explicit.path], environment: ["HOME": home.path],
            executable: bin.appendingPathComponent("shelf").path)
        let names = path.candidates().map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(names, ["again.so", "libshelf-a.so", "d.so", "c.so"])
    }

    func testEnvironmentPathTakesFilesAndDirectories() {
        let path = PluginSearchPath.standard(
            explicit: [], environment: ["SHELF_PLUGIN_PATH": "/x/one.so:/y::"], executable: "/opt/bin/shelf")
        XCTAssertEqual(Array(path.entries.prefix(3)), [.file("/x/one.so"), .directory("/y"), .bundled("/opt/bin")])
        XCTAssertEqual(path.entries.last, .directory("/opt/lib/shelf/plugins"))
    }
}
