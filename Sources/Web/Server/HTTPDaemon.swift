import CMicroHTTPD
import Foundation
import Host
#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP server: libmicrohttpd with a thread per connection (a slow library call or an open event stream
/// holds only its own connection). It turns each request into a `WebRequest`, asks `respond` for the answer and
/// writes it, streaming server-sent events from their subscription until the browser goes.
///
/// Idle and slow connections cannot lock the app out: a connection that sends or reads nothing for `idleTimeout`
/// seconds (a request dribbled in byte by byte, a kept-alive connection left open, an answer never read) is
/// closed, and the pool is large enough that hundreds of them at once leave room for the patron's own requests.
/// The time limit counts the client's silence only: while shelf works on an answer (a slow library call) the
/// clock is stopped, and an event stream writes a keep-alive well within it.
final class HTTPDaemon: @unchecked Sendable {
    typealias Responder = @Sendable (WebRequest) -> WebResponse

    /// A request body larger than this is refused (413): the API takes small JSON objects only.
    static let maxBody = 1 << 20
    /// Connections open at once (a thread each; poll(2), so descriptors above 1024 work too).
    static let maxConnections: UInt32 = 1000
    let idleTimeout: UInt32

    private var daemon: OpaquePointer?
    let responder: Responder
    private(set) var port: UInt16 = 0

    /// Listens on `address` (an IPv4 or IPv6 literal) and `port` (0: the kernel chooses).
    init(address: String, port: UInt16, idleTimeout: UInt32, responder: @escaping Responder) throws {
        self.responder = responder
        self.idleTimeout = idleTimeout
        if let missing = shelf_mhd_load() {
            throw ServerProblem.noHTTPServer(detail: String(cString: missing)).error
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var flags = UInt32(
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
                | MHD_USE_POLL.rawValue)
        var storage = sockaddr_storage()
        if address.contains(":") {
            var ipv6 = sockaddr_in6()
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, address, &ipv6.sin6_addr) == 1 else {
                throw ServerProblem.notAnIPAddress(address).error
            }
            withUnsafeBytes(of: ipv6) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            flags |= UInt32(MHD_USE_IPv6.rawValue)
        } else {
            var ipv4 = sockaddr_in()
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            guard inet_pton(AF_INET, address, &ipv4.sin_addr) == 1 else {
                throw ServerProblem.notAnIPAddress(address).error
            }
            withUnsafeBytes(of: ipv4) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
        }
        daemon = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                shelf_mhd_start(
                    flags, address, accessHandler, context, requestCompleted, Self.maxConnections, idleTimeout)
            }
        }
        guard let daemon else {
            throw ServerProblem.cannotListen(address: address, port: port).error
        }
        self.port = shelf_mhd_port(daemon)
    }

    /// Stops listening and waits for the connection threads (end event streams first: `EventHub.close`).
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        shelf_mhd_stop(daemon)
    }

    deinit { stop() }
}

/// What one connection gathers across libmicrohttpd's calls: the body as it arrives.
private final class PendingRequest {
    var body = Data()
    var tooLarge = false
}

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, upload, uploadSize, state in
    guard let context, let connection, let state, let uploadSize else { return .NO }
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    // First call: only the headers have arrived. Keep a place for the body and answer on a later call.
    guard let pending = state.pointee.map({ Unmanaged<PendingRequest>.fromOpaque($0).takeUnretainedValue() }) else {
        state.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        return .YES
    }
    if uploadSize.pointee > 0 {
        if pending.body.count + uploadSize.pointee > HTTPDaemon.maxBody { pending.tooLarge = true }
        if !pending.tooLarge, let upload {
            upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                pending.body.append($0, count: uploadSize.pointee)
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    let request = WebRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
        query: values(connection, .GET_ARGUMENT_KIND), headers: values(connection, .HEADER_KIND),
        body: pending.body)
    // The whole request is in: the clock stops while shelf answers, and starts afresh for sending the answer.
    shelf_mhd_set_timeout(connection, 0)
    let response =
        pending.tooLarge
        ? WebError(413, RequestProblem.tooLarge(limit: HTTPDaemon.maxBody)).response : daemon.responder(request)
    shelf_mhd_set_timeout(connection, daemon.idleTimeout)
    return queue(response, on: connection, idleTimeout: daemon.idleTimeout)
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let pointer = state.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pointer).release()
    state.pointee = nil
}

private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
    final class Box { var values: [String: String] = [:] }
    let box = Box()
    _ = shelf_mhd_get_connection_values(
        connection, kind,
        { context, _, key, value in
            guard let context, let key else { return .YES }
            let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
            let name = String(cString: key)
            if box.values[name] == nil { box.values[name] = value.map { String(cString: $0) } ?? "" }
            return .YES
        }, Unmanaged.passUnretained(box).toOpaque())
    return box.values
}

private func queue(_ answer: WebResponse, on connection: OpaquePointer, idleTimeout: UInt32) -> MHD_Result {
    let response: OpaquePointer?
    switch answer.body {
    case .bytes(let data):
        response = data.withUnsafeBytes { bytes in
            shelf_mhd_response_from_buffer(bytes.count, bytes.baseAddress)
        }
    case .events(let subscription):
        let stream = Unmanaged.passRetained(
            EventStreamWriter(subscription, connection: connection, idleTimeout: idleTimeout)
        ).toOpaque()
        response = shelf_mhd_response_from_callback(
            UInt64.max, 4096,
            { context, _, buffer, size in
                guard let context, let buffer else { return -1 }
                return Unmanaged<EventStreamWriter>.fromOpaque(context).takeUnretainedValue().write(
                    into: buffer, size: size)
            }, stream,
            { context in
                if let context { Unmanaged<EventStreamWriter>.fromOpaque(context).release() }
            })
    }
    guard let response else { return .NO }
    defer { shelf_mhd_destroy_response(response) }
    for (name, value) in answer.headers { shelf_mhd_add_header(response, name, value) }
    return shelf_mhd_queue_response(connection, UInt32(answer.status), response)
}

/// Hands an event stream to libmicrohttpd in pieces no larger than its buffer.
private final class EventStreamWriter {
    let subscription: EventSubscription
    let connection: OpaquePointer
    let idleTimeout: UInt32
    var pending = Data()

    init(_ subscription: EventSubscription, connection: OpaquePointer, idleTimeout: UInt32) {
        self.subscription = subscription
        self.connection = connection
        self.idleTimeout = idleTimeout
    }

    func write(into buffer: UnsafeMutablePointer<CChar>, size: Int) -> Int {
        if pending.isEmpty {
            // Waiting for an event is the server's silence, not the browser's: the clock stops meanwhile.
            shelf_mhd_set_timeout(connection, 0)
            let next = subscription.nextChunk()
            shelf_mhd_set_timeout(connection, idleTimeout)
            guard let chunk = next else { return -1 }
            pending = chunk
        }
        let count = min(size, pending.count)
        pending.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count)
        }
        pending.removeFirst(count)
        if pending.isEmpty { pending = Data() }
        return count
    }
}
