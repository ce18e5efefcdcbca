import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests that need a server
/// to talk to: scripted routes, files from a folder, and faults on demand. Every request is
/// recorded. One request per connection (`Connection: close`), one thread per connection.
///
///     let server = try LoopbackHTTPServer()
///     defer { server.stop() }
///     server.route("GET", "/feed") { request in .text("<feed/>", contentType: "application/atom+xml") }
///     let url = server.url("/feed")
public final class LoopbackHTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (Request) -> Response

    public let port: UInt16
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Connections served at once; more are closed on arrival, so a runaway test cannot exhaust threads.
    public static let maxConnections = 64

    private let listener: Int32
    private let lock = NSLock()
    private var routes: [String: Handler] = [:]
    private var mounts: [(prefix: String, directory: URL)] = []
    private var recorded: [Request] = []
    private var openConnections: Set<Int32> = []
    private var stopped = false
    private let running = DispatchGroup()

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError.system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian  // 127.0.0.1, never anything wider
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw ServerError.system("bind", code)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        running.enter()
        let acceptor = Thread { [self] in acceptLoop() }
        acceptor.name = "loopback-http-accept"
        acceptor.start()
    }

    deinit { stop() }

    /// An absolute URL on this server; `path` may carry a query.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? "" : "/")\(path)")!
    }

    /// Answers `method path` (path without query) by calling `handler`; "*" matches any method,
    /// and a GET route also answers HEAD unless HEAD has a route of its own.
    /// A later route for the same method and path replaces the earlier one.
    public func route(_ method: String, _ path: String, _ handler: @escaping Handler) {
        lock.withLock { routes["\(method.uppercased()) \(path)"] = handler }
    }

    /// Answers `method path` with the same response every time.
    public func route(_ method: String, _ path: String, _ response: Response) {
        route(method, path) { _ in response }
    }

    /// Answers `method path` with each response in turn; the last one repeats.
    /// E.g. `[.status(503, headers: ["Retry-After": "1"]), .text("ok")]`.
    public func route(_ method: String, _ path: String, sequence: [Response]) {
        precondition(!sequence.isEmpty, "a sequence needs at least one response")
        let counter = Counter()
        route(method, path) { _ in sequence[min(counter.next(), sequence.count - 1)] }
    }

    /// Serves the files under `directory` at `prefix` for GET and HEAD, with ETag,
    /// Last-Modified, conditional 304 and Range. Scripted routes take precedence.
    public func serveFiles(from directory: URL, at prefix: String = "/") {
        let normalized = prefix.hasSuffix("/") ? prefix : prefix + "/"
        lock.withLock { mounts.append((normalized, directory)) }
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { lock.withLock { recorded } }

    public func requests(to path: String, method: String? = nil) -> [Request] {
        requests.filter { $0.path == path && (method == nil || $0.method == method!.uppercased()) }
    }

    public func clearRequests() { lock.withLock { recorded.removeAll() } }

    /// Stops accepting, cuts every open connection, and waits (briefly) for their threads.
    /// Safe to call more than once.
    public func stop() {
        let connections: Set<Int32> = lock.withLock {
            stopped = true
            return openConnections
        }
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        _ = running.wait(timeout: .now() + 5)
    }

    var isStopped: Bool { lock.withLock { stopped } }

    // MARK: - Accepting

    private func acceptLoop() {
        defer {
            close(listener)
            running.leave()
        }
        while !isStopped {
            // Poll with a timeout so that stop() is noticed within a tenth of a second.
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let admitted: Bool = lock.withLock {
                guard !stopped, openConnections.count < Self.maxConnections else { return false }
                openConnections.insert(client)
                return true
            }
            guard admitted else { close(client); continue }
            running.enter()
            let worker = Thread { [self] in
                defer {
                    lock.withLock { _ = openConnections.remove(client) }
                    close(client)
                    running.leave()
                }
                LoopbackConnection(fd: client, server: self).serve()
            }
            worker.name = "loopback-http-connection"
            worker.start()
        }
    }

    // MARK: - Dispatch (called by connections)

    func record(_ request: Request) {
        lock.withLock { recorded.append(request) }
    }

    func respond(to request: Request) -> Response {
        let (handler, mounts) = lock.withLock {
            // HEAD falls back to the GET route, as HTTP intends; the body is then left out on the wire.
            (
                routes["\(request.method) \(request.path)"]
                    ?? (request.method == "HEAD" ? routes["GET \(request.path)"] : nil)
                        ?? routes["* \(request.path)"],
                self.mounts
            )
        }
        if let handler { return handler(request) }
        if request.method == "GET" || request.method == "HEAD" {
            for mount in mounts where request.path.hasPrefix(mount.prefix) {
                if let response = serveFile(
                    String(request.path.dropFirst(mount.prefix.count)), from: mount.directory,
                    request: request)
                {
                    return response
                }
            }
        }
        return .text("no route for \(request.method) \(request.path)\n", status: 404)
    }

    private func serveFile(_ relative: String, from directory: URL, request: Request) -> Response? {
        let decoded = relative.removingPercentEncoding ?? relative
        let parts = decoded.split(separator: "/")
        // Stay inside the served folder whatever the path says.
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let file = parts.reduce(directory) { $0.appendingPathComponent(String($1)) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let data = try? Data(contentsOf: file)
        else { return nil }
        let modified = (attributes[.modificationDate] as? Date) ?? Date()
        return .content(
            data, for: request, contentType: Self.contentType(for: file.pathExtension),
            lastModified: modified)
    }

    static func contentType(for fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "epub": return "application/epub+zip"
        case "json": return "application/json"
        case "xml", "opds": return "application/atom+xml"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "mp3": return "audio/mpeg"
        case "m4b", "m4a": return "audio/mp4"
        default: return "application/octet-stream"
        }
    }

    /// Sleeps in short steps so that stop() is never held up by a scripted delay.
    func pause(_ seconds: TimeInterval) {
        let end = Date().addingTimeInterval(seconds)
        while !isStopped, Date() < end {
            Thread.sleep(forTimeInterval: min(0.02, max(0, end.timeIntervalSinceNow)))
        }
    }

    public enum ServerError: Error, CustomStringConvertible {
        case system(String, Int32)
        public var description: String {
            if case .system(let call, let code) = self {
                return "loopback server: \(call) failed: \(String(cString: strerror(code)))"
            }
            return "loopback server error"
        }
    }
}

/// A thread-safe counter for sequenced routes.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            defer { value += 1 }; return value
        }
    }
}
