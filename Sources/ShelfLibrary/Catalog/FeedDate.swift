import Foundation

/// Dates as feeds write them: RFC 3339 with or without fractions, or a bare day.
enum FeedDate {
    static func parse(_ text: String?) -> Date? {
        guard var text else { return nil }
        return text.withUTF8(parse)
    }

    /// `parse` of UTF-8 text: the common RFC 3339 form without making a String.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let trimmed = FastText.asciiTrimmed(bytes)
        if let date = FastText.rfc3339(trimmed) { return date }
        let text = FastText.trimmed(bytes)
        guard !text.isEmpty else { return nil }
        if let date = FastText.rfc3339(text) { return date }
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ssZZZZZ", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd", "yyyy-MM", "yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
