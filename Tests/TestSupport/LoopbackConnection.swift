import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// One accepted connection: read one request, answer it (faults included), close.
struct LoopbackConnection {
    let fd: Int32
    let server: LoopbackHTTPServer

    static let maxHeaderBytes = 64 * 1024
    static let maxBodyBytes = 64 * 1024 * 1024

    func serve() {
        // A client that connects and says nothing must not hold a thread for ever.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        guard let request = readRequest() else { return }
        server.record(request)
        let response = server.respond(to: request)
        if response.delay > 0 { server.pause(response.delay) }
        if response.fault == .dropConnection || server.isStopped { return }
        write(response, headOnly: request.method == "HEAD")
    }

    // MARK: - Reading

    private func readRequest() -> LoopbackHTTPServer.Request? {
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            guard buffer.count < Self.maxHeaderBytes, let chunk = receive() else { return nil }
            buffer.append(chunk)
            headerEnd = buffer.range(of: separator)
        }
        guard let headerEnd,
            let head = String(data: buffer[..<headerEnd.lowerBound], encoding: .utf8)
        else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        let headers: [(name: String, value: String)] = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                name: String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        var body = Data(buffer[headerEnd.upperBound...])
        if header("Transfer-Encoding") != nil {
            return nil  // Chunked uploads are not needed by shelf's client, which always sends a length.
        }
        let length = header("Content-Length").flatMap { Int($0) } ?? 0
        guard length <= Self.maxBodyBytes else { return nil }
        if length > body.count, header("Expect")?.lowercased() == "100-continue" {
            _ = sendAll(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < length {
            guard let chunk = receive() else { return nil }
            body.append(chunk)
        }
        body = body.prefix(length)

        let target = String(requestLine[1])
        let split = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return .init(
            method: String(requestLine[0]).uppercased(), target: target, path: String(split[0]),
            query: split.count > 1 ? String(split[1]) : nil, headers: headers, body: body)
    }

    private func receive() -> Data? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 { return Data(chunk[..<count]) }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    // MARK: - Writing

    private func write(_ response: LoopbackHTTPServer.Response, headOnly: Bool) {
        let bodyAllowed = !(100..<200).contains(response.status) && response.status != 204 && response.status != 304
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for field in response.headers where field.name.lowercased() != "connection" {
            head += "\(field.name): \(field.value)\r\n"
        }
        let chunked = response.header("Transfer-Encoding")?.lowercased() == "chunked"
        if bodyAllowed, !chunked, response.header("Content-Length") == nil {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        guard sendAll(Data(head.utf8)), bodyAllowed, !headOnly else { return }

        // Faults count bytes as they go on the wire, chunk framing included.
        let body = chunked ? Self.chunkedEncoding(response.body) : response.body
        switch response.fault {
        case .truncateBody(let after)?:
            _ = sendAll(body.prefix(max(0, after)))
        case .stallBody(let after, let seconds)?:
            guard sendAll(body.prefix(max(0, after))) else { return }
            server.pause(seconds)
            if !server.isStopped { _ = sendAll(body.dropFirst(max(0, after))) }
        case .throttle(let chunk, let interval)?:
            var offset = body.startIndex
            while offset < body.endIndex, !server.isStopped {
                let end = min(body.endIndex, offset + max(1, chunk))
                guard sendAll(body[offset..<end]) else { return }
                offset = end
                if offset < body.endIndex { server.pause(interval) }
            }
        case .dropConnection?, nil:
            _ = sendAll(body)
        }
    }

    /// A body with no length announced in advance, as streaming servers send it.
    static func chunkedEncoding(_ body: Data, chunkSize: Int = 4096) -> Data {
        var wire = Data()
        var offset = body.startIndex
        while offset < body.endIndex {
            let end = min(body.endIndex, offset + chunkSize)
            wire.append(Data("\(String(end - offset, radix: 16))\r\n".utf8))
            wire.append(body[offset..<end])
            wire.append(Data("\r\n".utf8))
            offset = end
        }
        wire.append(Data("0\r\n\r\n".utf8))
        return wire
    }

    /// False when the client went away; MSG_NOSIGNAL keeps that from killing the test process.
    private func sendAll(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
