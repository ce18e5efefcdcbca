import Foundation

extension LoopbackHTTPServer.Response {
    /// Answers `request` for a resource with these bytes the way a careful static server does:
    /// ETag and Last-Modified on every answer, 304 for a matching conditional request, and a
    /// single `Range` honoured with 206 (or 416), unless an `If-Range` no longer matches.
    ///
    /// Scripted routes can call this and then add a fault, e.g. truncate the first answer.
    public static func content(
        _ data: Data, for request: LoopbackHTTPServer.Request,
        contentType: String = "application/octet-stream",
        etag: String? = nil, lastModified: Date = Date(timeIntervalSince1970: 1_700_000_000)
    )
        -> LoopbackHTTPServer.Response
    {
        let tag = etag ?? "\"\(data.count)-\(Int(lastModified.timeIntervalSince1970))\""
        let modified = LoopbackHTTPServer.httpDate(lastModified)
        let validators = ["ETag": tag, "Last-Modified": modified]

        if let match = request.header("If-None-Match") {
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains("*") || tags.contains(tag) { return .status(304, headers: validators) }
        } else if let since = request.header("If-Modified-Since").flatMap(LoopbackHTTPServer.parseHTTPDate),
            lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return .status(304, headers: validators)
        }

        var headers = validators
        headers["Content-Type"] = contentType
        headers["Accept-Ranges"] = "bytes"
        let rangeStillValid = request.header("If-Range").map { $0 == tag || $0 == modified } ?? true
        guard let rangeHeader = request.header("Range"), rangeStillValid, request.method != "HEAD" else {
            return .init(status: 200, headers: headers, body: data)
        }
        guard let range = ByteRange.resolve(rangeHeader, length: data.count) else {
            headers["Content-Range"] = "bytes */\(data.count)"
            return .init(status: 416, headers: headers)
        }
        headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(data.count)"
        return .init(status: 206, headers: headers, body: data.subdata(in: range))
    }
}

/// One `bytes=` range (first-last, first-, or -suffix) resolved against a length.
/// Several ranges in one header are not supported; nothing in shelf asks for them.
enum ByteRange {
    static func resolve(_ header: String, length: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces))
        let last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case let (first?, last?) where first <= last && first < length:
            return first..<min(last + 1, length)
        case let (first?, nil) where first < length:
            return first..<length
        case let (nil, suffix?) where suffix > 0 && length > 0:
            return max(0, length - suffix)..<length
        default:
            return nil
        }
    }
}

extension LoopbackHTTPServer {
    /// IMF-fixdate, the date form HTTP servers send (Last-Modified, Retry-After, Date).
    public static func httpDate(_ date: Date) -> String { dateFormatter().string(from: date) }

    public static func parseHTTPDate(_ text: String) -> Date? { dateFormatter().date(from: text) }

    // A new formatter per call: DateFormatter is not safe to share between connection threads.
    private static func dateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
