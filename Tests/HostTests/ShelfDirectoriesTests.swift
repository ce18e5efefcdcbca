import Foundation
import XCTest
#if canImport(Glibc)
    import Glibc
#endif
@testable import Host
import ShelfLibrary
import ShelfCore

final class ShelfDirectoriesTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("shelf-dirs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func mode(_ url: URL) throws -> Int {
        var info = stat()
        XCTAssertEqual(stat(url.path, &info), 0, "stat \(url.path)")
        return Int(info.st_mode & 0o777)
    }

    private func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }

    func testShelfHomeOverridesXDGAndHome() throws {
        let dirs = try ShelfDirectories(environment: [
            "SHELF_HOME": "/srv/portable",
            "HOME": "/home/patron",
            "XDG_CONFIG_HOME": "/elsewhere/config",
            "XDG_DATA_HOME": "/elsewhere/data",
            "XDG_CACHE_HOME": "/elsewhere/cache"
        ])
        XCTAssertEqual(dirs.config.path, "/srv/portable/config")
        XCTAssertEqual(dirs.data.path, "/srv/portable/data")
        XCTAssertEqual(dirs.cache.path, "/srv/portable/cache")
        XCTAssertEqual(dirs.databaseFile.path, "/srv/portable/data/library.sqlite3")
    }

    func testRelativeShelfHomeIsAnchoredToTheCurrentDirectory() throws {
        let dirs = try ShelfDirectories(
            environment: ["SHELF_HOME": "portable/../home"], currentDirectory: "/media/stick")
        XCTAssertEqual(dirs.data.path, "/media/stick/home/data")
    }

    func testXDGVariablesAreUsed() throws {
        let dirs = try ShelfDirectories(environment: [
            "HOME": "/home/patron",
            "XDG_CONFIG_HOME": "/x/config",
            "XDG_DATA_HOME": "/x/data",
            "XDG_CACHE_HOME": "/x/cache"
        ])
        XCTAssertEqual(dirs.config.path, "/x/config/shelf")
        XCTAssertEqual(dirs.data.path, "/x/data/shelf")
        XCTAssertEqual(dirs.cache.path, "/x/cache/shelf")
        XCTAssertEqual(dirs.databaseFile.path, "/x/data/shelf/library.sqlite3")
    }

    func testDefaultsUnderHomeWhenXDGIsUnsetEmptyOrRelative() throws {
        let dirs = try ShelfDirectories(environment: [
            "HOME": "/home/patron",
            "XDG_CONFIG_HOME": "",  // empty: treated as unset
            "XDG_DATA_HOME": "relative/data"  // relative: invalid per the XDG specification
        ])
        XCTAssertEqual(dirs.config.path, "/home/patron/.config/shelf")
        XCTAssertEqual(dirs.data.path, "/home/patron/.local/share/shelf")
        XCTAssertEqual(dirs.cache.path, "/home/patron/.cache/shelf")
    }

    func testNoHomeIsAClearError() {
        XCTAssertThrowsError(try ShelfDirectories(environment: ["XDG_DATA_HOME": "/x/data"])) { error in
            let failure = error as? ShelfDirectoriesError
            XCTAssertEqual(failure?.kind, .noHome)
            XCTAssertTrue(failure?.message.contains("SHELF_HOME") ?? false, "\(error)")
        }
    }

    func testNothingIsCreatedUntilAsked() throws {
        let dirs = try ShelfDirectories(environment: ["SHELF_HOME": root.appendingPathComponent("home").path])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dirs.data.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("home").path))
    }

    func testCreatedDirectoriesAndTheirMissingParentsAreMode0700() throws {
        // A permissive umask must not leak into the folders shelf creates.
        let previous = umask(0)
        defer { umask(previous) }
        let home = root.appendingPathComponent("patron")
        let dirs = try ShelfDirectories(environment: ["HOME": home.path])
        let data = try dirs.createData()
        let config = try dirs.createConfig()
        let cache = try dirs.createCache()
        for url in [data, config, cache] {
            XCTAssertTrue(isDirectory(url), url.path)
            XCTAssertEqual(try mode(url), 0o700, url.path)
        }
        XCTAssertEqual(data.path, home.appendingPathComponent(".local/share/shelf").path)
        XCTAssertEqual(try mode(home.appendingPathComponent(".local")), 0o700)
        XCTAssertEqual(try mode(home.appendingPathComponent(".local/share")), 0o700)
        XCTAssertEqual(try mode(home), 0o700)
    }

    func testAnExistingFolderKeepsItsMode() throws {
        let data = root.appendingPathComponent("xdg-data")
        try FileManager.default.createDirectory(
            at: data, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        let dirs = try ShelfDirectories(environment: ["HOME": "/nonexistent", "XDG_DATA_HOME": data.path])
        try dirs.createData()
        XCTAssertEqual(try mode(data), 0o755, "the patron's own folder is not ours to change")
        XCTAssertEqual(try mode(dirs.data), 0o700)
        // Asking twice is fine.
        XCTAssertNoThrow(try dirs.createData())
    }

    func testAFileWhereAFolderBelongsIsRefused() throws {
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: home.appendingPathComponent("data").path,
                contents: Data("not a folder".utf8)))
        let dirs = try ShelfDirectories(environment: ["SHELF_HOME": home.path])
        XCTAssertThrowsError(try dirs.createData()) { error in
            XCTAssertEqual((error as? ShelfDirectoriesError)?.kind, .notADirectory, "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: home.appendingPathComponent("data"), encoding: .utf8), "not a folder")
    }

    func testPluginDirectoriesAreCreatedPerPlugin() throws {
        let home = root.appendingPathComponent("home")
        let dirs = try ShelfDirectories(environment: ["SHELF_HOME": home.path])
        let data = try dirs.pluginData(for: "org.shelf.epub3")
        let cache = try dirs.pluginCache(for: "org.shelf.epub3")
        XCTAssertEqual(data.path, home.appendingPathComponent("data/plugins/org.shelf.epub3").path)
        XCTAssertEqual(cache.path, home.appendingPathComponent("cache/plugins/org.shelf.epub3").path)
        XCTAssertTrue(isDirectory(data))
        XCTAssertTrue(isDirectory(cache))
        XCTAssertEqual(try mode(data), 0o700)
        XCTAssertEqual(try mode(cache), 0o700)
        XCTAssertNotEqual(try dirs.pluginData(for: "other"), data)
    }

    func testPluginIDsThatCouldEscapeAreRefused() throws {
        let home = root.appendingPathComponent("home")
        let dirs = try ShelfDirectories(environment: ["SHELF_HOME": home.path])
        for id in ["", ".", "..", "../escape", "a/b", "/etc", "..\u{2F}x", "nul\u{0}byte"] {
            XCTAssertThrowsError(try dirs.pluginData(for: id), "data for \(id.debugDescription)") { error in
                XCTAssertEqual((error as? ShelfDirectoriesError)?.kind, .invalidPluginID)
            }
            XCTAssertThrowsError(try dirs.pluginCache(for: id), "cache for \(id.debugDescription)") { error in
                XCTAssertEqual((error as? ShelfDirectoriesError)?.kind, .invalidPluginID)
            }
        }
        // Nothing was created on the way to refusing, inside or outside shelf's folders.
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("escape").path))
        // Dots inside a name are fine: ids are reverse-DNS.
        XCTAssertNoThrow(try dirs.pluginData(for: "org..example"))
    }

    func testTheLibraryDatabaseLivesInTheDataFolder() throws {
        let home = root.appendingPathComponent("home")
        let dirs = try ShelfDirectories(environment: ["SHELF_HOME": home.path])
        let database = try LibraryDatabase(directories: dirs)
        defer { database.close() }
        XCTAssertEqual(database.path, home.appendingPathComponent("data/library.sqlite3").path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: database.path))
        XCTAssertEqual(try mode(dirs.data), 0o700)
        XCTAssertEqual(try mode(URL(fileURLWithPath: database.path)), 0o600)
    }
}
