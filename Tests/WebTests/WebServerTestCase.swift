import Foundation
import TestSupport
import Web
import XCTest

/// A `shelf serve` app in the test process, on a port of its own, over the built `shelf` in a fresh home.
class WebServerTestCase: XCTestCase {
    var app: WebApp!
    var shelf: ShelfProcess!
    var http: RawHTTP!
    var origin: String { "http://127.0.0.1:\(app.port)" }

    func configure(_ configuration: inout WebApp.Configuration) {}

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        var configuration = WebApp.Configuration(webRoot: ShelfProcess.packageRoot.appendingPathComponent("web"),
                                                 environment: shelf.environment)
        configuration.syncInterval = nil
        configure(&configuration)
        app = WebApp(configuration)
        try app.start()
        http = RawHTTP(port: app.port)
    }

    override func tearDown() {
        app?.stop()
        shelf?.cleanUp()
    }

    /// A session cookie, got the way a browser gets it: the launch key at /open.
    func signIn() throws -> String {
        let answer = try http.send("GET", "/open?key=\(app.guardian.secret)")
        XCTAssertEqual(answer.status, 303)
        let cookie = try XCTUnwrap(answer.header("set-cookie"))
        return String(try XCTUnwrap(cookie.split(separator: ";").first))
    }
}
