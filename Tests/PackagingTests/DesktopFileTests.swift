import Foundation
import TestSupport
import XCTest

/// The desktop entry, MIME types and AppStream metainfo in packaging/, checked by the tools desktops use.
final class DesktopFileTests: XCTestCase {
    let packaging = ShelfProcess.packageRoot.appendingPathComponent("packaging")

    func testDesktopEntryValidatesAndOpensTheFileInTheBrowserApp() throws {
        let validate = try Tool("desktop-file-validate", package: "desktop-file-utils")
        let entry = packaging.appendingPathComponent("org.shelfreader.Shelf.desktop")
        let result = try validate.run([entry.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "", "desktop-file-validate says nothing")
        let text = try String(contentsOf: entry, encoding: .utf8)
        XCTAssertTrue(text.contains("\nExec=shelf serve --open %f\n"))
        for type in ["application/epub+zip", "application/audiobook+zip", "application/lpf+zip", "audio/x-m4b"] {
            XCTAssertTrue(text.contains(type + ";"), "the entry opens \(type)")
        }
    }

    func testMetainfoValidatesAndNamesThisVersion() throws {
        let appstream = try Tool("appstreamcli", package: "appstream")
        let metainfo = packaging.appendingPathComponent("org.shelfreader.Shelf.metainfo.xml")
        let result = try appstream.run(["validate", "--no-net", metainfo.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let version = String(try shelf.run(["--version"]).stdout.split(separator: " ")[1])
        XCTAssertTrue(
            try String(contentsOf: metainfo, encoding: .utf8).contains("<release version=\"\(version)\""),
            "the metainfo's newest release is shelf \(version): add a <release> when the version changes")
    }

    /// update-mime-database takes the types (it refuses malformed XML) and indexes their globs and magic.
    func testMimeTypesInstallByExtensionAndMagic() throws {
        let update = try Tool("update-mime-database", package: "shared-mime-info")
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let database = shelf.home.appendingPathComponent("mime")
        try FileManager.default.createDirectory(
            at: database.appendingPathComponent("packages"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: packaging.appendingPathComponent("shelf-mime.xml"),
            to: database.appendingPathComponent("packages/shelf.xml"))
        let result = try update.run(["-V", database.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("rror"), result.stderr)
        let globs = try String(contentsOf: database.appendingPathComponent("globs2"), encoding: .utf8)
        XCTAssertTrue(globs.contains("application/audiobook+zip:*.audiobook"), globs)
        XCTAssertTrue(globs.contains("application/lpf+zip:*.lpf"), globs)
        XCTAssertFalse(globs.contains("audiobook+json"), "a manifest is JSON: no glob, only Open With")
        let magic = try Data(contentsOf: database.appendingPathComponent("magic"))
        XCTAssertNotNil(magic.range(of: Data("[60:application/audiobook+zip]".utf8)))
        XCTAssertNotNil(magic.range(of: Data("[60:application/lpf+zip]".utf8)))
    }
}
