import CPluginChannel
import Foundation
import PluginAPI

/// shelf's answers to what an out-of-process plugin asks during a call: its log lines and progress, and the
/// HTTP and credentials services of connectors. Each goes to the very services an in-process plugin gets (the
/// `shelf_host` the registry made for it), so the plugin's rights are the same in or out of process: its own
/// credentials only, and the network only through the host's client.
enum ChildServices {
    /// The reply's fields (and a descriptor to pass after them), or nil for a message that has none (log, progress).
    static func answer(_ request: ChannelMessage, plugin: RemotePlugin, child: PluginChild) -> (
        fields: [ChannelField], passing: Int32?
    )? {
        if request.op == UInt32(SHELF_OP_COMPANION.rawValue) { return companion(request, plugin: plugin, child: child) }
        if request.op == UInt32(SHELF_OP_HTTP.rawValue),
            let refused = unreachable(request, plugin: plugin, child: child)
        {
            return (refused, nil)
        }
        return answer(request, plugin: plugin).map { ($0, nil) }
    }

    /// Why an HTTP request of a confined plugin may not go out, or nil when it may (ConnectorReach).
    private static func unreachable(_ request: ChannelMessage, plugin: RemotePlugin, child: PluginChild)
        -> [ChannelField]?
    {
        let url = request.string(1) ?? ""
        guard plugin.offers(SHELF_EXT_READINGLIST) else {
            return refusal(SHELF_E_UNSUPPORTED, "a format plugin gets no HTTP service (it asked for \(url))")
        }
        guard child.reach.allows(url) else {
            return refusal(
                SHELF_E_IO,
                "\(url) is not an address of this connector's service: a connector reaches only the hosts "
                    + "its settings name or its description declares (shelf-plugin(7), WHERE A PLUGIN RUNS)")
        }
        return nil
    }

    /// A companion file of one of the books the child was started for (files.h), opened by shelf.
    private static func companion(_ request: ChannelMessage, plugin: RemotePlugin, child: PluginChild) -> (
        fields: [ChannelField], passing: Int32?
    ) {
        let book = request.string(0) ?? "", relative = request.string(1) ?? ""
        let resolved = PluginSearchPath.realPath(book) ?? book
        guard child.inputs.contains(resolved) else {
            return (
                refusal(
                    SHELF_E_IO,
                    "the companion file \(relative) was asked of \(book), which is not the book this plugin was handed"),
                nil
            )
        }
        let forbidden = plugin.host.map { HostServices.forbidden(of: $0) } ?? CompanionFiles.Forbidden(directories: nil)
        switch CompanionFiles.open(book: resolved, relative: relative, forbidden: forbidden) {
        case .success(let fd): return ([.int(Int64(SHELF_OK)), .string(""), .string("")], fd)
        case .failure(let refusal): return ([.int(Int64(SHELF_E_IO)), .string(refusal.message), .string(relative)], nil)
        }
    }

    private static func answer(_ request: ChannelMessage, plugin: RemotePlugin) -> [ChannelField]? {
        guard let host = plugin.host else {
            return request.op == UInt32(SHELF_OP_LOG.rawValue) || request.op == UInt32(SHELF_OP_PROGRESS.rawValue)
                ? nil : refusal(SHELF_E_UNSUPPORTED, "no host services before init")
        }
        switch request.op {
        case SHELF_OP_LOG.rawValue:
            (request.string(1) ?? "").withCString {
                host.pointee.log?(host, Int32(truncatingIfNeeded: request.int(0)), $0)
            }
            return nil
        case SHELF_OP_PROGRESS.rawValue:
            let bytes = request.bytes(0)
            let fraction = bytes.count == 8 ? bytes.loadUnaligned(as: Double.self) : -1
            if let label = request.string(1) {
                _ = label.withCString { host.pointee.progress?(host, fraction, $0) }
            } else {
                _ = host.pointee.progress?(host, fraction, nil)
            }
            return nil
        case SHELF_OP_HTTP.rawValue:
            return http(request, host)
        case SHELF_OP_CREDENTIAL_GET.rawValue, SHELF_OP_CREDENTIAL_SET.rawValue, SHELF_OP_CREDENTIAL_REMOVE.rawValue:
            return credential(request, host)
        default:
            return refusal(SHELF_E_UNSUPPORTED, "unknown request \(request.op)")
        }
    }

    static func refusal(_ status: shelf_status, _ message: String) -> [ChannelField] {
        [.int(Int64(status)), .string(message), .string("")]
    }

    private static func replied(_ status: shelf_status, _ error: inout shelf_error, _ more: [ChannelField])
        -> [ChannelField]
    {
        guard status == SHELF_OK else {
            return [
                .int(Int64(status)), .string(PluginCall.message(of: &error)), .string(PluginCall.text(&error.location))
            ]
        }
        return [.int(Int64(status)), .string(""), .string("")] + more
    }

    /// [method, url, headers, body, flags, timeout] -> [status, message, location, HTTP status, headers, body].
    private static func http(_ request: ChannelMessage, _ host: UnsafePointer<shelf_host>) -> [ChannelField] {
        guard let raw = host.pointee.get_service?(host, SHELF_HOST_HTTP) else {
            return refusal(SHELF_E_UNSUPPORTED, "no HTTP service")
        }
        let service = raw.assumingMemoryBound(to: shelf_host_http_v1.self)
        let headerLines = (request.string(2) ?? "").split(separator: "\n").map { strdup(String($0)) }
        defer { headerLines.forEach { free($0) } }
        var headerArray: [UnsafePointer<CChar>?] = headerLines.map { UnsafePointer($0) } + [nil]
        let body = request.bytes(3)
        let method = request.string(0) ?? "GET", url = request.string(1) ?? ""
        let headers = OutputCollector(limit: OutputCollector.jsonLimit),
            content = OutputCollector(limit: OutputCollector.resourceLimit)
        var error = PluginCall.newError()
        var status: Int32 = 0
        let result: shelf_status = method.withCString { cMethod in
            url.withCString { cURL in
                headerArray.withUnsafeMutableBufferPointer { list in
                    var r = shelf_http_request()
                    r.struct_size = UInt32(MemoryLayout<shelf_http_request>.size)
                    r.flags = UInt32(truncatingIfNeeded: request.int(4))
                    r.method = cMethod
                    r.url = cURL
                    r.headers = headerLines.isEmpty ? nil : UnsafePointer(list.baseAddress)
                    r.body = body.count > 0 ? body.baseAddress : nil
                    r.body_size = body.count
                    r.timeout_ms = UInt32(truncatingIfNeeded: request.int(5))
                    return headers.withWriter { h in
                        content.withWriter { b in service.pointee.send(host, &r, &status, h, b, &error) }
                    }
                }
            }
        }
        return replied(result, &error, [.int(Int64(status)), .bytes(headers.data), .bytes(content.data)])
    }

    /// GET [key] -> [status, message, location, value]; SET [key, value]; REMOVE [key].
    private static func credential(_ request: ChannelMessage, _ host: UnsafePointer<shelf_host>) -> [ChannelField] {
        guard let raw = host.pointee.get_service?(host, SHELF_HOST_CREDENTIALS) else {
            return refusal(SHELF_E_UNSUPPORTED, "no credentials service")
        }
        let service = raw.assumingMemoryBound(to: shelf_host_credentials_v1.self)
        let key = request.string(0) ?? ""
        var error = PluginCall.newError()
        switch request.op {
        case SHELF_OP_CREDENTIAL_GET.rawValue:
            let value = OutputCollector(limit: 1 << 20)
            let status = key.withCString { k in value.withWriter { service.pointee.get(host, k, $0, &error) } }
            return replied(status, &error, [.bytes(value.data)])
        case SHELF_OP_CREDENTIAL_SET.rawValue:
            let status = key.withCString { k in
                (request.string(1) ?? "").withCString { service.pointee.set(host, k, $0, &error) }
            }
            return replied(status, &error, [])
        default:
            let status = key.withCString { service.pointee.remove(host, $0, &error) }
            return replied(status, &error, [])
        }
    }
}
