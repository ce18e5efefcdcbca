import Foundation
import TestSupport
import XCTest

/// `shelf serve` as a patron runs it: the address it prints, a second `--open` that reuses it, `--listen`.
final class ServeCommandTests: ShelfTestCase {
    var servers: [Process] = []

    override func tearDown() {
        for server in servers where server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        super.tearDown()
    }

    /// Starts `shelf serve --json ARGS` and returns its first line.
    func startServer(_ arguments: [String] = []) throws -> [String: Any] {
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = ["serve", "--json"] + arguments
        process.environment = shelf.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        servers.append(process)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return try XCTUnwrap(
            try JSONSerialization.jsonObject(with: line) as? [String: Any], String(decoding: line, as: UTF8.self))
    }

    /// A stand-in for xdg-open that writes the address it was given into a file.
    func fakeBrowser() throws -> URL {
        let bin = shelf.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let opened = shelf.home.appendingPathComponent("opened.txt")
        let script = bin.appendingPathComponent("xdg-open")
        try "#!/bin/sh\necho \"$1\" >> '\(opened.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        shelf.environment["PATH"] = bin.path + ":" + (shelf.environment["PATH"] ?? "/usr/bin:/bin")
        return opened
    }

    func testItPrintsTheAddressWithAKeyOnLoopback() throws {
        let started = try startServer()
        let url = try XCTUnwrap(started["url"] as? String)
        XCTAssertTrue(url.hasPrefix("http://shelf.localhost:"), url)
        let open = try XCTUnwrap(started["open"] as? String)
        XCTAssertTrue(open.hasPrefix(url + "open?key="), open)
        XCTAssertEqual(started["reused"] as? Bool, false)
    }

    func testASecondServeOpenReusesTheRunningServer() throws {
        let opened = try fakeBrowser()
        let first = try startServer()
        let second = try run(["serve", "--open", "--json"])
        let reused = try json(second)
        XCTAssertEqual(reused["reused"] as? Bool, true)
        // A key of its own: each lets one browser in once.
        let again = try XCTUnwrap(reused["open"] as? String)
        let firstOpen = try XCTUnwrap(first["open"] as? String)
        XCTAssertTrue(again.hasPrefix(try XCTUnwrap(first["url"] as? String) + "open?key="), again)
        XCTAssertNotEqual(again, firstOpen)
        let browser = try String(contentsOf: opened, encoding: .utf8)
        XCTAssertEqual(browser.trimmingCharacters(in: .newlines), again)
        // Opening a file passes it on to the app, which the reader or the player opens.
        let book = shelf.home.appendingPathComponent("a book.epub").path
        _ = try run(["serve", "--open", book, "--json"])
        let lines = try String(contentsOf: opened, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(
            lines.last?.hasSuffix("&file=" + book.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                == true, String(lines.last ?? ""))
    }

    func testListeningBeyondLoopbackNeedsAPassword() throws {
        let refused = try run(["serve", "--listen", "127.0.0.2"], expect: 64)
        XCTAssertTrue(refused.stderr.contains("needs a password"), refused.stderr)
        shelf.environment["SHELF_SERVE_PASSWORD"] = "short"
        try run(["serve", "--listen", "127.0.0.2"], expect: 64)
    }

    /// What keeps the server from starting is said on the terminal, with the option that helps. Failed before: an
    /// address that is not one exited 69 (a service missing) rather than 64 (what was typed), with no hint.
    func testAServerThatCannotStartSaysWhyAndWhatToType() throws {
        shelf.environment["SHELF_SERVE_PASSWORD"] = "a long enough password"
        let banana = try run(["serve", "--listen", "banana"], expect: 64)
        XCTAssertTrue(banana.stderr.contains("shelf: banana is not an IP address"), banana.stderr)
        XCTAssertTrue(banana.stderr.contains("Give --listen an IPv4 or IPv6 address"), banana.stderr)
        // The port of a running server, asked for on the same address.
        let running = try startServer()
        let port = try XCTUnwrap((running["url"] as? String)?.split(separator: ":").last?.prefix { $0.isNumber })
        let taken = try run(["serve", "--listen", "127.0.0.1", "--port", String(port)], expect: 69)
        XCTAssertTrue(taken.stderr.contains("shelf: cannot listen on 127.0.0.1 port \(port)"), taken.stderr)
        XCTAssertTrue(taken.stderr.contains("Choose another with --port N."), taken.stderr)
    }
}
