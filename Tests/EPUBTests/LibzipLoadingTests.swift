import Foundation
import TestSupport
import XCTest

/// libzip is opened on first use (Sources/CLibZip), never linked: a command that opens no archive
/// does not pay for it and its dependency tree, and one that does loads it then.
final class LibzipLoadingTests: XCTestCase {
    func needed(_ file: URL) throws -> String {
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "-d", file.path]
        let out = Pipe()
        readelf.standardOutput = out
        try readelf.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        return text.split(separator: "\n").filter { $0.contains("(NEEDED)") }.joined(separator: "\n")
    }

    func testNeitherTheCommandNorAPluginLinksLibzip() throws {
        for name in ["shelf", "libshelf-epub2.so", "libshelf-epub3.so", "libshelf-audiobook.so"] {
            let file = ShelfProcess.buildDirectory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw XCTSkip("\(name) is not built beside the tests")
            }
            let libraries = try needed(file)
            XCTAssertTrue(libraries.contains("libc.so"), "\(name): \(libraries)")
            XCTAssertFalse(libraries.contains("libzip"), "\(name) links libzip: \(libraries)")
        }
    }

    /// The loader's own account (LD_DEBUG): `shelf --version` never loads libzip; `shelf info` of a book
    /// loads it by dlopen.
    func testLibzipIsLoadedWhenABookIsOpenedAndNotBefore() throws {
        let book = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        var shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        shelf.environment["LD_DEBUG"] = "files"
        let idle = try shelf.run(["--version"])
        XCTAssertEqual(idle.status, 0, idle.stderr)
        XCTAssertFalse(idle.stderr.contains("libzip.so"), "libzip loaded by a command that opens no archive")
        let info = try shelf.run(["info", book])
        XCTAssertEqual(info.status, 0, info.stderr)
        let loaded = info.stderr.split(separator: "\n").filter { $0.contains("file=libzip.so") }
        XCTAssertTrue(loaded.contains { $0.contains("dynamically loaded by") }, loaded.joined(separator: "\n"))
    }
}
