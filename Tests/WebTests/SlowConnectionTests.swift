import Foundation
import TestSupport
import Web
import XCTest
#if canImport(Glibc)
    import Glibc
#endif

/// Connections that say nothing, or dribble a request in, cannot lock the patron out of the app.
final class SlowConnectionTests: WebServerTestCase {
    /// 300 requests whose headers never end, held open, as a slow-loris client does (64 locked the app before).
    func testTheAppAnswersWhileThreeHundredSlowConnectionsAreOpen() throws {
        let slow = try (0..<300).map { _ in try SlowClient(port: app.port) }
        defer { slow.forEach { $0.close() } }
        for client in slow { client.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(app.port)\r\n") }
        // A real request: answered (401, as without a cookie) within a second, not when the others give up.
        let answer = try http.send("GET", "/api/session", timeout: 1)
        XCTAssertEqual(answer.status, 401)
        XCTAssertTrue(slow.allSatisfy { $0.isOpen() }, "the slow connections were still open during the request")
    }
}

/// A connection silent past the time limit is closed.
final class IdleConnectionTests: WebServerTestCase {
    override func configure(_ configuration: inout WebApp.Configuration) { configuration.idleTimeout = 1 }

    func testAConnectionSilentPastTheLimitIsClosed() throws {
        let client = try SlowClient(port: app.port)
        defer { client.close() }
        client.send("GET /api/status HTTP/1.1\r\n")
        // Closed by the server (recv gives 0) long before the 10 s this waits; before, it stayed open for good.
        XCTAssertEqual(client.receive(timeout: 10), 0)
    }

    func testAnEventStreamQuietLongerThanTheLimitStaysOpen() throws {
        // The server is the one silent here (waiting for an event), so the client's time limit does not end it.
        let session = try signIn()
        let events = app.events
        DispatchQueue.global().asyncAfter(deadline: .now() + 3) { events.publish("late", json: Data("{}".utf8)) }
        let answer = try http.send(
            "GET", "/api/events", headers: ["X-Shelf-Session": session, "Sec-Fetch-Site": "same-origin"],
            timeout: 10, until: { $0.contains("event: late") })
        XCTAssertTrue(answer.text.contains("event: late"), answer.text)
    }
}

/// A raw socket to the server that sends what a test tells it and nothing more.
private final class SlowClient {
    let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            Glibc.close(fd)
            throw CocoaError(.fileReadNoPermission)
        }
    }

    func send(_ text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// What recv(2) returns within `timeout` seconds: 0 when the server closed, -1 when nothing came.
    func receive(timeout: Int) -> Int {
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// True while the server has not closed the connection (nothing to read yet, without waiting).
    func isOpen() -> Bool {
        var buffer: UInt8 = 0
        let count = recv(fd, &buffer, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    func close() { Glibc.close(fd) }
}
