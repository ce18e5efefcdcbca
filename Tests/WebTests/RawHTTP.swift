import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.0 client on a plain socket, so tests can send exactly the headers a browser or an attacker
/// would (a foreign Host, a forged Origin), which URLSession does not allow.
struct RawHTTP {
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
        func json() throws -> [String: Any] {
            try (JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
        }
    }

    let port: UInt16
    /// The Host header sent unless a test names another: the app's name.
    var host: String { "shelf.localhost:\(port)" }

    func send(
        _ method: String = "GET", _ path: String, headers: [String: String] = [:], body: Data = Data(),
        readLimit: Int = 1 << 22, timeout: Int = 30, until done: ((String) -> Bool)? = nil
    ) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw CocoaError(.fileReadNoPermission) }
        var head = "\(method) \(path) HTTP/1.0\r\n"
        var all = headers
        if all.keys.first(where: { $0.lowercased() == "host" }) == nil { all["Host"] = host }
        if !body.isEmpty { all["Content-Length"] = String(body.count) }
        for (name, value) in all { head += "\(name): \(value)\r\n" }
        var request = Data((head + "\r\n").utf8)
        request.append(body)
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while answer.count < readLimit {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }  // a child of the server in this process ended (SIGCHLD)
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
            // A stream that never ends is read until what the test waits for has come.
            if let done, done(String(decoding: answer, as: UTF8.self)) { break }
        }
        return Self.parse(answer)
    }

    static func parse(_ answer: Data) -> Answer {
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else {
            return Answer(status: 0, headers: [:], body: answer)
        }
        let lines = String(decoding: answer[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased(),
                value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + "\n" + value } ?? value
        }
        return Answer(status: status, headers: headers, body: answer[split.upperBound...])
    }
}
