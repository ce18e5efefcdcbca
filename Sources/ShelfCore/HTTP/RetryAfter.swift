import CCurl
import Foundation

/// Reads `Retry-After` (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date.
enum RetryAfter {
    static func seconds(from headers: HTTPHeaders, now: Date = Date()) -> TimeInterval? {
        headers["Retry-After"].flatMap { parse($0, now: now) }
    }

    static func parse(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            // A huge number is still a valid "later"; clamp instead of overflowing.
            return TimeInterval(trimmed).map { min($0, 365 * 86_400) }
        }
        // libcurl's parser knows all three date forms HTTP allows (IMF-fixdate, RFC 850, asctime).
        let epoch = shelf_curl_getdate(trimmed)
        guard epoch != -1 else { return nil }
        return max(0, TimeInterval(epoch) - now.timeIntervalSince1970)
    }
}
