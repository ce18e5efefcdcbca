import Foundation
import TestSupport
import Web
import XCTest

/// A `shelf serve` app in the test process, on a port of its own, over the built `shelf` in a fresh home.
class WebServerTestCase: XCTestCase {
    var app: WebApp!
    var shelf: ShelfProcess!
    var http: RawHTTP!
    var origin: String { "http://shelf.localhost:\(app.port)" }

    func configure(_ configuration: inout WebApp.Configuration) {}

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        var configuration = WebApp.Configuration(
            webRoot: ShelfProcess.packageRoot.appendingPathComponent("web"),
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

    /// A session token, got the way a browser gets it: a launch key at /open, whose page carries the token.
    func signIn() throws -> String {
        let answer = try http.send("GET", "/open?key=\(app.guardian.mintLaunchKey())")
        XCTAssertEqual(answer.status, 200)
        return try XCTUnwrap(Self.sessionToken(in: answer.text))
    }

    /// The token in the page /open or /login answers with.
    static func sessionToken(in page: String) -> String? {
        guard let meta = page.range(of: #"name="shelf-session" content=""#) else { return nil }
        return String(page[meta.upperBound...].prefix { $0 != "\"" })
    }
}
