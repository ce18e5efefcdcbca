@testable import Host
@testable import ShelfPlugins
import Foundation
import PluginAPI
import XCTest

/// credentials.h: "shelf.host.credentials/2" keeps a set of secrets per service of a plugin, and the plugin's own
/// set (service NULL) is the one /1 reads and writes.
final class ServiceCredentialsTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        ConnectorServices.keepsSecretsInFile.store(true, ordering: .relaxed)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-credentials-\(UUID().uuidString)")
        ConnectorServices.credentialDirectories = ShelfDirectories(
            config: home.appendingPathComponent("config"),
            data: home.appendingPathComponent("data"),
            cache: home.appendingPathComponent("cache"))
    }

    override func tearDown() {
        ConnectorServices.credentialDirectories = nil
        ConnectorServices.keepsSecretsInFile.store(false, ordering: .relaxed)
        try? FileManager.default.removeItem(at: home)
    }

    func read(_ get: (UnsafePointer<shelf_writer>, UnsafeMutablePointer<shelf_error>) -> shelf_status) -> (
        shelf_status, String
    ) {
        let output = OutputCollector(limit: 1 << 16)
        var error = PluginCall.newError()
        let status = output.withWriter { get($0, &error) }
        return (status, String(decoding: output.data, as: UTF8.self))
    }

    func testTwoServicesOfOnePluginKeepTheirOwnSecretsAndNULLIsTheFirstVersionsSet() throws {
        let host = HostServices.make(
            pluginID: "org.example.lists", dataDirectory: NSTemporaryDirectory(), cacheDirectory: NSTemporaryDirectory()
        )
        let raw = try XCTUnwrap(
            host.pointee.get_service?(host, SHELF_HOST_CREDENTIALS_2), "the host offers credentials/2")
        let v2 = raw.assumingMemoryBound(to: shelf_host_credentials_v2.self).pointee
        XCTAssertEqual(Int(v2.struct_size), MemoryLayout<shelf_host_credentials_v2>.size)
        let v1 = try XCTUnwrap(host.pointee.get_service?(host, SHELF_HOST_CREDENTIALS)).assumingMemoryBound(
            to: shelf_host_credentials_v1.self
        ).pointee
        var error = PluginCall.newError()
        XCTAssertEqual(v2.set(host, "storygraph", "token", "sg-secret", &error), SHELF_OK)
        XCTAssertEqual(v2.set(host, "open-library", "token", "ol-secret", &error), SHELF_OK)
        XCTAssertEqual(v1.set(host, "token", "plugin-wide", &error), SHELF_OK)

        XCTAssertEqual(read { v2.get(host, "storygraph", "token", $0, $1) }.1, "sg-secret")
        XCTAssertEqual(read { v2.get(host, "open-library", "token", $0, $1) }.1, "ol-secret")
        XCTAssertEqual(read { v2.get(host, nil, "token", $0, $1) }.1, "plugin-wide", "NULL is the plugin's own set")
        XCTAssertEqual(read { v1.get(host, "token", $0, $1) }.1, "plugin-wide")

        XCTAssertEqual(v2.remove(host, "storygraph", "token", &error), SHELF_OK)
        XCTAssertEqual(read { v2.get(host, "storygraph", "token", $0, $1) }.0, SHELF_E_NOT_FOUND)
        XCTAssertEqual(
            read { v2.get(host, "open-library", "token", $0, $1) }.1, "ol-secret",
            "removing one service's key leaves the other's")
        XCTAssertEqual(v2.set(host, "Not A Service", "token", "x", &error), SHELF_E_INVALID_ARGUMENT)
        XCTAssertTrue(PluginCall.message(of: &error).contains("service id"))

        // Another plugin sees none of them.
        let other = HostServices.make(
            pluginID: "org.example.other", dataDirectory: NSTemporaryDirectory(), cacheDirectory: NSTemporaryDirectory()
        )
        XCTAssertEqual(read { v2.get(other, "open-library", "token", $0, $1) }.0, SHELF_E_NOT_FOUND)
    }
}
