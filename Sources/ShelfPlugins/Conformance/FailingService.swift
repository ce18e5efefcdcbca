import ShelfCore
import Foundation
import Glibc
import Synchronization

/// A loopback HTTP server that fails in one way, for the connector checks: it answers every request with a
/// 500, or with a 200 whose body is garbage (in the media type the request accepts), or it reads the request
/// and never answers. A connector shown it (through ConnectorDetour) must report an error, never crash, hang
/// or pretend it read something.
/// Unchecked Sendable: its state is atomics and a mutex; only the socket descriptor and the semaphore are plain, and they are constant.
final class FailingService: @unchecked Sendable {
    enum Failure: String, CaseIterable {
        case serverError = "HTTP 500", garbage = "a 200 with a garbage body", stall = "no answer"
    }

    let failure: Failure
    let port: UInt16
    private let socket: Int32
    private let stopped = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)
    private let held = Mutex<[Int32]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(_ failure: Failure) throws {
        self.failure = failure
        (socket, port) = try LoopbackSocket.listen(backlog: 16, purpose: "the failing service")
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Connections accepted so far.
    var connections: Int { accepted.load(ordering: .relaxed) }

    /// Waits up to `timeout` seconds for the first connection.
    func waitForConnection(timeout: TimeInterval) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while connections == 0 && Date() < end { usleep(20_000) }
        return connections > 0
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
        for fd in held.withLock({ $0 }) { close(fd) }
        close(socket)
    }

    deinit { stop() }

    private func serve() {
        defer { finished.signal() }
        while !stopped.load(ordering: .relaxed) {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
            accepted.add(1, ordering: .relaxed)
            let request = readHead(client)
            switch failure {
            case .stall:
                held.withLock { $0.append(client) }
            case .serverError:
                respond(
                    client, status: "500 Internal Server Error", type: "text/html",
                    body: Array("<html><body><h1>Internal Server Error</h1></body></html>".utf8))
            case .garbage:
                respond(client, status: "200 OK", type: Self.accepted(by: request), body: Self.garbage)
            }
        }
    }

    private func readHead(_ client: Int32) -> String {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 65536 {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            head += buffer[0..<n]
            if head.count >= 4,
                head.suffix(4) == [13, 10, 13, 10] || String(decoding: head, as: UTF8.self).contains("\r\n\r\n")
            {
                break
            }
        }
        return String(decoding: head, as: UTF8.self)
    }

    private func respond(_ client: Int32, status: String, type: String, body: [UInt8]) {
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(client)
    }

    /// The first media type the request's Accept names (not a wildcard), so the garbage reaches the parser.
    static func accepted(by request: String) -> String {
        for line in request.split(separator: "\r\n") where line.lowercased().hasPrefix("accept:") {
            let first = line.dropFirst(7).split(separator: ",").first?.split(separator: ";").first
            if let type = first?.trimmingCharacters(in: .whitespaces), !type.contains("*"), !type.isEmpty {
                return type
            }
        }
        return "application/json"
    }

    /// Bytes no documented wire format parses: a line of three tab fields, unclosed JSON and XML, a NUL, and
    /// 4 KiB of fixed random bytes (invalid UTF-8 among them).
    static let garbage: [UInt8] = {
        var bytes =
            Array("garbage\twith three\tfields\n{\"items\": [<rss><channel>\"\u{1}\n".utf8) + [0, 0xFF, 0xFE, 0xC3]
        var random = SplitMix(seed: 0x5EED)
        for _ in 0..<4096 { bytes.append(random.byte()) }
        return bytes
    }()
}
