import Foundation
import PluginAPI

/// An answer from the host's HTTP service ("shelf.host.http/1").
public struct HostHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

extension PluginHost {
    private var rawHost: UnsafePointer<shelf_host>? { hostPointer }

    private func service<T>(_ id: String, _ type: T.Type) -> UnsafePointer<T>? {
        guard let raw = rawHost, raw.pointee.struct_size >= UInt32(MemoryLayout<shelf_host>.size),
            let get = raw.pointee.get_service, let table = get(raw, id)
        else { return nil }
        guard Int(table.load(as: UInt32.self)) >= MemoryLayout<T>.size else { return nil }
        return table.assumingMemoryBound(to: T.self)
    }

    /// Whether this host lends connectors its HTTP client.
    public var hasHTTP: Bool { service(SHELF_HOST_HTTP, shelf_host_http_v1.self) != nil }

    /// One request through the host's HTTP client. Throws a PluginFailure when no answer came.
    public func http(
        _ method: String, _ url: String, headers: [String: String] = [:], body: Data? = nil,
        noRetry: Bool = false, timeout: TimeInterval? = nil
    ) throws -> HostHTTPResponse {
        guard let raw = rawHost, let table = service(SHELF_HOST_HTTP, shelf_host_http_v1.self),
            let send = table.pointee.send
        else {
            throw PluginFailure.unsupported("this host offers no HTTP service (\(SHELF_HOST_HTTP))")
        }
        let headerLines = headers.sorted { $0.key < $1.key }.map { strdup("\($0.key): \($0.value)") }
        defer { headerLines.forEach { free($0) } }
        var list: [UnsafePointer<CChar>?] = headerLines.map { UnsafePointer($0) }
        list.append(nil)
        let bodyCollector = Collector(), headerCollector = Collector()
        var status: Int32 = 0
        var error = shelf_error()
        error.struct_size = UInt32(MemoryLayout<shelf_error>.size)
        let payload = body ?? Data()
        let result: shelf_status = method.withCString { m in
            url.withCString { u in
                list.withUnsafeBufferPointer { l in
                    payload.withUnsafeBytes { b in
                        var request = shelf_http_request()
                        request.struct_size = UInt32(MemoryLayout<shelf_http_request>.size)
                        request.flags = noRetry ? UInt32(SHELF_HTTP_NO_RETRY) : 0
                        request.method = m
                        request.url = u
                        request.headers = l.baseAddress
                        request.body = payload.isEmpty ? nil : b.baseAddress
                        request.body_size = payload.count
                        request.timeout_ms = timeout.map { UInt32(clamping: Int($0 * 1000)) } ?? 0
                        return headerCollector.withWriter { hw in
                            bodyCollector.withWriter { bw in send(raw, &request, &status, hw, bw, &error) }
                        }
                    }
                }
            }
        }
        guard result == SHELF_OK else {
            let message = withUnsafeBytes(of: &error.message) { bytes -> String in
                let end = bytes.firstIndex(of: 0) ?? bytes.count
                return String(decoding: bytes[..<end], as: UTF8.self)
            }
            throw PluginFailure(result, message.isEmpty ? "the request failed" : message)
        }
        let headerText = String(decoding: headerCollector.data, as: UTF8.self)
        var fields: [(name: String, value: String)] = []
        for line in headerText.split(separator: "\n").map(String.init) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = String(line[colon...].dropFirst()).trimmingCharacters(in: .whitespaces)
            fields.append((name: name, value: value))
        }
        return HostHTTPResponse(status: Int(status), headers: fields, body: bodyCollector.data)
    }

    /// Whether this host hands out a book's companion files (files.h): a confined plugin reads them only so.
    public var hasCompanionFiles: Bool { service(SHELF_HOST_FILES, shelf_host_files_v1.self) != nil }

    /// A read-only descriptor of the file `relative` to the folder of `bookPath` (the input being opened), opened by
    /// the host (files.h); the caller closes it. Throws the host's refusal (outside the book's folder, one of shelf's
    /// own files), or when the host offers no such service.
    public func openCompanion(bookPath: String, relative: String) throws -> Int32 {
        guard let raw = rawHost, let table = service(SHELF_HOST_FILES, shelf_host_files_v1.self),
            let open = table.pointee.open_companion
        else {
            throw PluginFailure.unsupported("this host offers no companion files service (\(SHELF_HOST_FILES))")
        }
        var error = shelf_error()
        error.struct_size = UInt32(MemoryLayout<shelf_error>.size)
        var fd: Int32 = -1
        let status = bookPath.withCString { b in relative.withCString { r in open(raw, b, r, &fd, &error) } }
        guard status == SHELF_OK, fd >= 0 else {
            let message = withUnsafeBytes(of: &error.message) { bytes -> String in
                let end = bytes.firstIndex(of: 0) ?? bytes.count
                return String(decoding: bytes[..<end], as: UTF8.self)
            }
            throw PluginFailure(
                status == SHELF_OK ? SHELF_E_IO : status,
                message.isEmpty ? "the host did not open \(relative)" : message)
        }
        return fd
    }

    /// The secret stored under `key` for this plugin, or nil.
    public func secret(_ key: String) throws -> String? {
        guard let raw = rawHost, let table = service(SHELF_HOST_CREDENTIALS, shelf_host_credentials_v1.self),
            let get = table.pointee.get
        else { return nil }
        let collector = Collector()
        var error = shelf_error()
        error.struct_size = UInt32(MemoryLayout<shelf_error>.size)
        let status = key.withCString { k in collector.withWriter { get(raw, k, $0, &error) } }
        if status == SHELF_E_NOT_FOUND { return nil }
        guard status == SHELF_OK else { throw PluginFailure(status, "the host could not read a stored credential") }
        return String(decoding: collector.data, as: UTF8.self)
    }

    /// Stores (or, with nil, deletes) a secret for this plugin through the host.
    public func setSecret(_ value: String?, for key: String) throws {
        guard let raw = rawHost, let table = service(SHELF_HOST_CREDENTIALS, shelf_host_credentials_v1.self) else {
            throw PluginFailure.unsupported("this host offers no credentials service (\(SHELF_HOST_CREDENTIALS))")
        }
        var error = shelf_error()
        error.struct_size = UInt32(MemoryLayout<shelf_error>.size)
        let status: shelf_status = key.withCString { k in
            if let value {
                return value.withCString { v in table.pointee.set?(raw, k, v, &error) ?? SHELF_E_UNSUPPORTED }
            }
            return table.pointee.remove?(raw, k, &error) ?? SHELF_E_UNSUPPORTED
        }
        guard status == SHELF_OK else { throw PluginFailure(status, "the host could not store a credential") }
    }
}

/// A writer that collects bytes (bounded at 64 MiB).
final class Collector {
    var data = Data()
    func withWriter<T>(_ body: (UnsafePointer<shelf_writer>) -> T) -> T {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var writer = shelf_writer(
            context: context,
            write: { context, bytes, size in
                guard let context else { return SHELF_E_INVALID_ARGUMENT }
                let me = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                if size == 0 { return SHELF_OK }
                guard let bytes else { return SHELF_E_INVALID_ARGUMENT }
                guard me.data.count + size <= 64 << 20 else { return SHELF_E_LIMIT }
                me.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size)
                return SHELF_OK
            })
        return withUnsafePointer(to: &writer) { body($0) }
    }
}
