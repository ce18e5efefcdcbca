import CCurl
import Foundation

/// Where the body of the final response goes. Returning false aborts the transfer.
protocol BodySink: AnyObject {
    func receive(_ bytes: UnsafeRawBufferPointer, status: Int, headers: HTTPHeaders) -> Bool
}

/// One request on one easy handle. A handle is never shared, which is what makes the
/// client usable from several threads at once (libcurl's rule: one handle, one thread).
final class CurlTransfer {
    struct Outcome {
        var code: CURLcode
        /// The status of the last response seen, 0 when none arrived.
        var status: Int
        var headers: HTTPHeaders
        var effectiveURL: URL?
        var message: String
        var cancelled: Bool
    }

    struct Options {
        var totalTimeout: TimeInterval?
        var maxBodySize: Int64
        var acceptCompression: Bool
    }

    private let request: HTTPRequest
    private let configuration: HTTPClient.Configuration
    private let options: Options
    private let sink: BodySink
    private let isCancelled: (() -> Bool)?
    /// Called about once a second while the transfer runs (libcurl's progress callback), to report waits.
    private let tick: (() -> Void)?

    // Filled in by the callbacks while curl_easy_perform runs on this thread.
    private var status = 0
    private var headers = HTTPHeaders()
    private var cancelled = false

    init(
        _ request: HTTPRequest, configuration: HTTPClient.Configuration, options: Options,
        sink: BodySink, isCancelled: (() -> Bool)?, tick: (() -> Void)? = nil
    ) {
        self.request = request
        self.tick = tick
        self.configuration = configuration
        self.options = options
        self.sink = sink
        self.isCancelled = isCancelled
    }

    func perform() -> Outcome {
        if let failure = shelf_curl_load() {
            return Outcome(
                code: CURLE_FAILED_INIT, status: 0, headers: [:], effectiveURL: nil,
                message: String(cString: failure), cancelled: false)
        }
        guard let handle = shelf_curl_easy_init() else {
            return Outcome(
                code: CURLE_FAILED_INIT, status: 0, headers: [:], effectiveURL: nil,
                message: "libcurl could not start", cancelled: false)
        }
        defer { shelf_curl_easy_cleanup(handle) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { shelf_curl_slist_free_all(headerList) }

        var code = configure(handle, errorBuffer: errorBuffer, headerList: &headerList)
        if code == CURLE_OK {
            code = withExtendedLifetime(self) { shelf_curl_easy_perform(handle) }
        }

        var effective: UnsafePointer<CChar>?
        _ = shelf_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        let message = String(cString: errorBuffer)
        return Outcome(
            code: code, status: status, headers: headers,
            effectiveURL: effective.flatMap { URL(string: String(cString: $0)) },
            message: message.isEmpty ? String(cString: shelf_curl_easy_strerror(code)) : message,
            cancelled: cancelled)
    }

    private func configure(
        _ handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>,
        headerList: inout UnsafeMutablePointer<curl_slist>?
    ) -> CURLcode {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let config = configuration
        var codes: [CURLcode] = [
            shelf_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            shelf_curl_set_string(handle, CURLOPT_URL, request.url.absoluteString),
            // Signals cannot be used for timeouts in a threaded process.
            shelf_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            shelf_curl_set_string(handle, CURLOPT_USERAGENT, config.userAgent),
            // Only http and https, on the first request and on every redirect: a catalog must
            // never be able to send shelf to file:// or anything else.
            shelf_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            shelf_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            shelf_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            shelf_curl_set_long(handle, CURLOPT_MAXREDIRS, config.maxRedirects),
            // The defaults already verify; saying so keeps it true whatever libcurl's build does.
            shelf_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            shelf_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            shelf_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(config.connectTimeout)),
            shelf_curl_set_long(handle, CURLOPT_TIMEOUT_MS, options.totalTimeout.map(Self.milliseconds) ?? 0),
            shelf_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, max(1, config.lowSpeedLimit)),
            shelf_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, config.lowSpeedTime)),
            shelf_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback),
            shelf_curl_set_pointer(handle, CURLOPT_HEADERDATA, context),
            shelf_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteCallback),
            shelf_curl_set_pointer(handle, CURLOPT_WRITEDATA, context),
            shelf_curl_set_xferinfo_callback(handle, curlProgressCallback),
            shelf_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context),
            shelf_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
        ]
        if request.method != .head {
            // Refuses an announced length above the limit before any byte is read; the sinks
            // enforce it for bodies without one. libcurl would apply it to HEAD too, which reads nothing.
            codes.append(shelf_curl_set_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBodySize)))
        }
        if options.acceptCompression {
            // Empty means every encoding this libcurl decodes; the size limit applies after decoding.
            codes.append(shelf_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        }
        codes.append(configureMethod(handle))

        var outgoing = request.headers
        if request.body != nil, !outgoing.contains("Content-Type") {
            // Otherwise libcurl claims form data, which the body rarely is.
            outgoing["Content-Type"] = "application/octet-stream"
        }
        // Without this libcurl waits for "100 Continue" before large bodies, a stall on many servers.
        if !outgoing.contains("Expect") { outgoing["Expect"] = "" }
        for field in outgoing {
            // "Name;" is libcurl's spelling for a header sent with an empty value, "Name:" removes one.
            let line =
                field.value.isEmpty
                ? (field.name == "Expect" ? "Expect:" : "\(field.name);")
                : "\(field.name): \(field.value)"
            headerList = shelf_curl_slist_append(headerList, line)
        }
        codes.append(shelf_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList))
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    private func configureMethod(_ handle: UnsafeMutableRawPointer) -> CURLcode {
        var codes: [CURLcode] = []
        switch request.method {
        case .get: codes.append(shelf_curl_set_long(handle, CURLOPT_HTTPGET, 1))
        case .head: codes.append(shelf_curl_set_long(handle, CURLOPT_NOBODY, 1))
        case .post: codes.append(shelf_curl_set_long(handle, CURLOPT_POST, 1))
        case .put, .delete: codes.append(shelf_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
        }
        // POST and PUT always carry a body (possibly empty) so that libcurl never falls back to
        // reading one from stdin; DELETE carries one only when given.
        let needsBody = request.method == .post || request.method == .put || request.body != nil
        if needsBody {
            let body = request.body ?? Data()
            codes.append(shelf_curl_set_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS copies the bytes at once. The extra NUL gives an empty body an address.
            var bytes = [UInt8](body)
            bytes.append(0)
            codes.append(
                bytes.withUnsafeMutableBytes {
                    shelf_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
                })
        }
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    fileprivate func receiveHeader(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new response begins (after a redirect or a 100 Continue): forget the last one's headers.
            let parts = trimmed.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = HTTPHeaders()
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name, value)
        }
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if checkCancelled() { return false }
        return sink.receive(bytes, status: status, headers: headers)
    }

    fileprivate func progressTick() { tick?() }

    fileprivate func checkCancelled() -> Bool {
        if !cancelled, let isCancelled, isCancelled() { cancelled = true }
        return cancelled
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int(max(1, (seconds * 1000).rounded()))
    }
}

private let curlHeaderCallback: shelf_curl_data_callback = { data, size, count, context in
    let length = size * count
    guard let data, let context else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    transfer.receiveHeader(line)
    return length
}

private let curlWriteCallback: shelf_curl_data_callback = { data, size, count, context in
    let length = size * count
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    // Anything but `length` makes libcurl stop with CURLE_WRITE_ERROR.
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let curlProgressCallback: shelf_curl_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.progressTick()
    return transfer.checkCancelled() ? 1 : 0
}
