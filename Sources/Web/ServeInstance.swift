import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The record of a running `shelf serve` (its process, port and secret) in shelf's cache folder, readable by the
/// patron alone, so that a second `shelf serve --open` opens the running server instead of starting another. A
/// record whose process is gone or whose port no longer answers is stale and replaced. The secret never goes in an
/// address: it asks the server for a launch key, which lets one browser in once.
public struct ServeInstance: Codable, Equatable, Sendable {
    public let pid: Int32
    public let port: UInt16
    public let key: String

    public static func file(in cache: URL) -> URL { cache.appendingPathComponent("serve.json") }

    public var url: String { "http://\(RequestGuard.appName):\(port)/" }

    /// The address that lets a browser in, with a launch key the running server gives for the secret; nil when it
    /// gives none (it is not the server recorded any more).
    public func newLaunchURL(file: String? = nil) -> String? {
        let request =
            "POST /launch-key HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\(RequestGuard.secretHeader): \(key)\r\nContent-Length: 0\r\n\r\n"
        guard let answer = Self.exchange(request, port: port), answer.hasPrefix("HTTP/1.") && answer.contains(" 200 "),
            let body = answer.range(of: "\r\n\r\n").map({ answer[$0.upperBound...] }),
            let document = try? JSONDecoder().decode([String: String].self, from: Data(body.utf8)),
            let key = document["key"]
        else { return nil }
        return WebApp.launchURL(url, key: key, file: file)
    }

    /// The running server recorded in `cache`, if its process lives and its port answers as shelf.
    public static func running(in cache: URL) -> ServeInstance? {
        // A record that cannot be read names no server to reuse: a new one starts, and `save` replaces the record.
        guard let data = FileManager.default.contents(atPath: file(in: cache).path),
            let instance = try? JSONDecoder().decode(ServeInstance.self, from: data)
        else { return nil }
        guard instance.pid != getpid(), kill(instance.pid, 0) == 0, answers(port: instance.port) else { return nil }
        return instance
    }

    /// Writes the record (mode 0600: the key lets a browser act for the patron).
    public func save(in cache: URL) throws {
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let target = Self.file(in: cache)
        let temporary = cache.appendingPathComponent(".serve.json.\(getpid())")
        let data = try JSONEncoder().encode(self)
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        guard rename(temporary.path, target.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
    }

    /// Removes the record if it is still this one's.
    public func remove(in cache: URL) {
        let target = Self.file(in: cache)
        // Removed only when it is surely this one's; another's (or an unreadable one) is left to its owner.
        guard let data = FileManager.default.contents(atPath: target.path),
            (try? JSONDecoder().decode(ServeInstance.self, from: data)) == self
        else { return }
        unlink(target.path)
    }

    /// True when something on 127.0.0.1:`port` answers `/api/session` as shelf does (401 without a session,
    /// with shelf's problem type). A plain socket: linking Foundation's URL loading would slow every command.
    static func answers(port: UInt16) -> Bool {
        guard let text = exchange("GET /api/session HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port) else {
            return false
        }
        return text.hasPrefix("HTTP/1.") && text.contains(" 401 ") && text.contains("shelf.invalid/problems/no-session")
    }

    /// Sends `request` to 127.0.0.1:`port` and reads the whole answer; nil when nothing answers.
    static func exchange(_ request: String, port: UInt16) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        guard request.withCString({ send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) > 0 else { return nil }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while answer.count < 65536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
