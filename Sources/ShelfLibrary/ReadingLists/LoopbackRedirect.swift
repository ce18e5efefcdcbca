import ShelfPlugins
import ShelfCore
import Foundation
import Glibc

/// How the browser that came back from a sign-in is answered, once the sign-in is complete or has failed: a page of
/// words (the command line's patron closes it), or a redirect (the browser app's Reading lists page).
public enum SignInReply: Sendable {
    case text(String)
    case redirect(String)
}

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

    /// The browser's redirect, held open until `answer`: the sign-in is completed first, so the page says how it went.
    final class Callback {
        let query: [String: String]
        private var client: Int32

        init(query: [String: String], client: Int32) {
            self.query = query
            self.client = client
        }

        func answer(_ reply: SignInReply) {
            guard client >= 0 else { return }
            switch reply {
            case .text(let body): LoopbackRedirect.respond(client, status: "200 OK", body: body)
            case .redirect(let url):
                LoopbackRedirect.respond(client, status: "303 See Other", body: "", headers: "Location: \(url)\r\n")
            }
            close(client)
            client = -1
        }

        deinit { if client >= 0 { close(client) } }
    }

    /// Waits for the redirect; other requests (a favicon) are answered 404 and the wait goes on. `isCancelled`
    /// stops the wait as the patron's Ctrl-C does.
    func wait(timeout: TimeInterval, isCancelled: () -> Bool = { false }) throws -> Callback {
        let end = Date().addingTimeInterval(timeout)
        while true {
            let left = end.timeIntervalSinceNow
            guard left > 0 else {
                throw ShelfError(.temporary, "the sign-in did not come back from the browser within \(Int(timeout)) s")
            }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 0.5) * 1000))
            if HostServices.cancelRequested || isCancelled() {
                throw ShelfError(.cancelled, "the sign-in was cancelled")
            }
            guard ready > 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
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
                Self.respond(client, status: "404 Not Found", body: "Not found.")
                close(client)
                continue
            }
            let components = URLComponents(string: "http://127.0.0.1" + parts[1])
            var query: [String: String] = [:]
            for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
            return Callback(query: query, client: client)
        }
    }

    static func respond(_ client: Int32, status: String, body: String, headers: String = "") {
        let text =
            "HTTP/1.1 \(status)\r\n\(headers)Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = text.withCString { write(client, $0, strlen($0)) }
    }
}
