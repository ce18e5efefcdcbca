import Foundation
import Host
import ShelfPlugins
import XCTest

/// A test that loads the bundled connectors in-process: a home of its own, where the host keeps the
/// connectors' credentials, removed afterwards.
class ConnectorTestCase: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-rl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        ConnectorServices.credentialDirectories = ShelfDirectories(
            config: home.appendingPathComponent("config"),
            data: home.appendingPathComponent("data"),
            cache: home.appendingPathComponent("cache"))
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }
}
