import CCurl
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Remembers, on the `.part` file itself (an extended attribute), which version of the
/// resource its bytes belong to. A resume then sends `If-Range`, and a server whose file has
/// changed since answers 200 with the new version instead of splicing two editions together.
/// Where extended attributes are unavailable, resuming simply goes without `If-Range`.
enum PartFileValidator {
    private static let attribute = "user.shelf.if-range"

    /// A strong ETag, else Last-Modified; weak ETags are not allowed in If-Range (RFC 9110 §13.1.5).
    static func value(from headers: HTTPHeaders) -> String? {
        if let etag = headers["ETag"], !etag.hasPrefix("W/") { return etag }
        return headers["Last-Modified"]
    }

    static func store(_ value: String?, fd: Int32) {
        guard let value else {
            _ = fremovexattr(fd, attribute)
            return
        }
        _ = value.withCString { fsetxattr(fd, attribute, $0, strlen($0), 0) }
    }

    static func load(path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        let length = getxattr(path, attribute, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
