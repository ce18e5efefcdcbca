import Foundation
import Host
import TestSupport
import XCTest

/// A connector's secrets are kept in the credential store of the `Shelf` whose reading lists were given them, not in
/// whichever Shelf of the process opened its reading lists last (the browser app and tests make several).
final class ShelfSecretsTests: XCTestCase {
    var homes: [URL] = []

    override func tearDown() { homes.forEach { try? FileManager.default.removeItem(at: $0) } }  // temporary folders

    func makeShelf() throws -> Shelf {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        homes.append(home)
        return Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path],
            environment: ["SHELF_HOME": home.path, "HOME": home.path, "SHELF_SECRET_SERVICE": "off"])
    }

    func credentialsFile(of shelf: Shelf) throws -> String {
        let file = try XCTUnwrap(shelf.directories).config.appendingPathComponent("credentials.json")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""  // no file: nothing kept there
    }

    func testAConnectorSecretStaysWithItsShelf() throws {
        let first = try makeShelf(), second = try makeShelf()
        let lists = try first.library().readingLists()
        _ = try second.library().readingLists()
        // Whether the connection then works does not matter here (nothing answers at that address): the secret is
        // kept before the connector is asked.
        _ = try? lists.connect(
            service: "goodreads", settings: ["userId": "1", "baseURL": "http://127.0.0.1:9"],
            secrets: ["apiKey": "the-first-shelfs-key"], authorize: false, openBrowser: { _ in })
        XCTAssertTrue(
            try credentialsFile(of: first).contains("the-first-shelfs-key"), "not kept by the Shelf it was given to")
        XCTAssertFalse(try credentialsFile(of: second).contains("the-first-shelfs-key"), "kept by another Shelf")
    }
}
