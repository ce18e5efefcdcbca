import ShelfPlugins
import ShelfCore
import Foundation
import Glibc

/// The loopback redirect of OAuth for installed apps (RFC 8252 §7.3): a one-shot listener on 127.0.0.1 at a
/// port the system picks, answering the browser's redirect and handing over its query parameters.
final class LoopbackRedirect {
    let socket: Int32
    let port: UInt16
    var redirectURI: String { "http://127.0.0.1:\(port)/callback" }

    init() throws {
        (socket, port) = try LoopbackSocket.listen(backlog: 4, purpose: "the sign-in")
    }

    deinit { close(socket) }

    /// Waits for the redirect; other requests (a favicon) are answered 404 and the wait goes on.
    func wait(timeout: TimeInterval) throws -> [String: String] {
        let end = Date().addingTimeInterval(timeout)
        while true {
            let left = end.timeIntervalSinceNow
            guard left > 0 else {
                throw ShelfError(.temporary, "the sign-in did not come back from the browser within \(Int(timeout)) s")
            }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 0.5) * 1000))
            if HostServices.cancelRequested { throw ShelfError(.cancelled, "the sign-in was cancelled") }
            guard ready > 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            var timeoutValue = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeoutValue, socklen_t(MemoryLayout<timeval>.size))
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while request.count < 16384 {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 { break }
                request += buffer[0..<n]
                if request.count >= 4, request.suffix(4) == [13, 10, 13, 10] { break }
                if let text = String(bytes: request, encoding: .utf8), text.contains("\r\n\r\n") { break }
            }
            let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
            let parts = line.split(separator: " ")
            guard parts.count >= 2, parts[0] == "GET", parts[1].hasPrefix("/callback") else {
                respond(client, status: "404 Not Found", body: "Not found.")
                continue
            }
            let components = URLComponents(string: "http://127.0.0.1" + parts[1])
            var query: [String: String] = [:]
            for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
            let ok = query["error"] == nil
            respond(
                client, status: "200 OK",
                body: ok
                    ? "shelf is signed in. You can close this window."
                    : "The sign-in was declined. You can close this window.")
            return query
        }
    }

    private func respond(_ client: Int32, status: String, body: String) {
        let text =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = text.withCString { write(client, $0, strlen($0)) }
    }
}
