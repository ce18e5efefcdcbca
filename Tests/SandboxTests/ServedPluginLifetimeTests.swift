import Foundation
import Glibc
import TestSupport
import Web
import XCTest

/// An out-of-process plugin in the browser app, which answers each connection on a thread of its own: the plugin's
/// process outlives the request that started it, and one that crashed is started again for the next request.
final class ServedPluginLifetimeTests: XCTestCase {
    var shelf: ShelfProcess!
    var app: WebApp!
    var session = ""

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        shelf.environment["SHELF_PLUGIN_PATH"] = try MisbehavingPlugin.build(in: shelf.home).path
        shelf.environment["SWIFT_BACKTRACE"] = "enable=no"
    }

    override func tearDown() {
        app?.stop()
        shelf?.cleanUp()
    }

    /// Adds a misbehaving book (`action` in `call`) with `shelf add`, starts the app and signs in; the book's id.
    func serve(_ action: String, in call: String) throws -> String {
        let book = shelf.home.appendingPathComponent("book.misbehave")
        try "MISBEHAVE \(action) \(call)\nA lighthouse keeper wrote this.\n".write(
            to: book, atomically: true, encoding: .utf8)
        let added = try shelf.run(["add", book.path])
        XCTAssertEqual(added.status, 0, added.stderr)
        var configuration = WebApp.Configuration(
            webRoot: ShelfProcess.packageRoot.appendingPathComponent("web"), environment: shelf.environment)
        configuration.syncInterval = nil
        app = WebApp(configuration)
        try app.start()
        let page = try get("/open?key=\(app.guardian.mintLaunchKey())").text
        let meta = try XCTUnwrap(page.range(of: #"name="shelf-session" content=""#))
        session = String(page[meta.upperBound...].prefix { $0 != "\"" })
        let items = try XCTUnwrap(try get("/api/shelf").json()["items"] as? [[String: Any]])
        return try XCTUnwrap(items.first?["id"] as? String)
    }

    func search(_ id: String) throws -> Answer {
        try get("/api/reader/search?book=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&q=keeper")
    }

    /// Before: the child was started from the first request's thread and killed (PR_SET_PDEATHSIG) when that
    /// connection closed, so the second request failed with "crashed (signal 9, SIGKILL)" and the plugin was
    /// disabled until the server restarted.
    func testThePluginOutlivesTheConnectionThatStartedIt() throws {
        let id = try serve("none", in: "none")
        let opened = try get("/api/reader?book=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        XCTAssertEqual(opened.status, 200, opened.text)
        // The connection is closed (HTTP/1.0), its thread ends; give the kernel the time to deliver a death signal.
        usleep(500_000)
        let found = try search(id)
        XCTAssertEqual(found.status, 200, found.text)
        XCTAssertEqual(
            (try found.json()["hits"] as? [Any])?.count, 0, "the fixture's search finds nothing, and says so")
    }

    /// Before: a crash disabled the plugin for the server's life ("it is disabled for this command"), so every later
    /// request failed the same way until a restart. Now the answer says what happened and to try again, and the next
    /// request is answered by a new process.
    func testACrashIsSaidAndTheNextRequestStartsThePluginAgain() throws {
        let id = try serve("crashonce", in: "search")
        let crashed = try search(id)
        XCTAssertEqual(crashed.status, 503, crashed.text)
        let problem = try crashed.json()
        let title = try XCTUnwrap(problem["title"] as? String)
        XCTAssertTrue(
            title.contains("\"Misbehaving\" (org.shelf.test.misbehaving) crashed (signal 11, SIGSEGV)"), title)
        XCTAssertTrue(title.contains("starts it again for the next call"), title)
        XCTAssertEqual(problem["detail"] as? String, "Try again in a moment.")
        let again = try search(id)
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(
            (try again.json()["hits"] as? [Any])?.count, 0, "the fixture's search finds nothing, and says so")
    }

    struct Answer {
        let status: Int
        let text: String
        func json() throws -> [String: Any] {
            try (JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        }
    }

    /// One GET on a connection of its own, closed after the answer (HTTP/1.0), as a browser tab that went away.
    func get(_ path: String) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var time = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = app.port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw CocoaError(.fileReadNoPermission) }
        let request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(app.port)\r\nX-Shelf-Session: \(session)\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }  // a child of the server in this process ended (SIGCHLD)
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return Answer(status: 0, text: text) }
        let status = Int(text[..<end.lowerBound].split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, text: String(text[end.upperBound...]))
    }
}
