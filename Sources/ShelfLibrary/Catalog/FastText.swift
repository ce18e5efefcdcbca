import Foundation

/// The catalog parser's hot path without Foundation's bridging: ASCII white-space trimming, RFC 3339 dates and
/// plain absolute http(s) addresses are read from UTF-8 directly; anything unusual falls back to Foundation.
enum FastText {
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// `text` without leading and trailing white space (space, tab, CR, LF, and other Unicode spaces through
    /// Foundation when the text starts or ends with a non-ASCII character).
    static func trimmed(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { bytes in
            // Nothing to trim: the same String, not a copy.
            if let first = bytes.first, let last = bytes.last, first < 0x80, last < 0x80, !isSpace(first),
                !isSpace(last)
            {
                return text
            }
            return trimmed(bytes)
        }
    }

    /// `trimmed` of UTF-8 text, making one String.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let first = bytes.first, let last = bytes.last else { return "" }
        // Unicode white space (NBSP, ideographic space...) at either end: Foundation's rules. Text that starts or
        // ends with any other non-ASCII character (an accent, a closing guillemet) has nothing to trim there.
        if first >= 0x80 || last >= 0x80 {
            if !(first < 0x80 ? isSpace(first) : isUnicodeSpace(firstScalar(bytes))),
                !(last < 0x80 ? isSpace(last) : isUnicodeSpace(lastScalar(bytes)))
            {
                return String(decoding: bytes, as: UTF8.self)
            }
            return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard isSpace(first) || isSpace(last) else { return String(decoding: bytes, as: UTF8.self) }
        let inner = asciiTrimmed(bytes)
        if let first = inner.first, let last = inner.last, first >= 0x80 || last >= 0x80 {
            return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return String(decoding: inner, as: UTF8.self)
    }

    private static let unicodeSpaces = CharacterSet.whitespacesAndNewlines

    /// Whether `trimmingCharacters(in: .whitespacesAndNewlines)` would take this scalar off an end (nil: invalid UTF-8,
    /// left to Foundation).
    private static func isUnicodeSpace(_ scalar: Unicode.Scalar?) -> Bool {
        scalar.map(unicodeSpaces.contains) ?? true
    }

    private static func firstScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var utf8 = UTF8()
        if case .scalarValue(let scalar) = utf8.decode(&iterator) { return scalar }
        return nil
    }

    private static func lastScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var start = bytes.count - 1
        while start > 0, bytes.count - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return firstScalar(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    @inline(__always)
    static func asciiTrimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `Int(text)` read from UTF-8: an optional sign and decimal digits, nothing else, nil on overflow.
    static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = b.first else { return nil }
        let negative = first == 0x2D
        var i = first == 0x2B || negative ? 1 : 0
        guard i < b.count else { return nil }
        var value = 0
        while i < b.count {
            let d = Int(b[i]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(d) : times.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// An RFC 3339 date-time (`2026-01-31T10:00:00Z`, `...T10:00:00.123+02:00`), or nil when it is anything else.
    static func rfc3339(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(rfc3339)
    }

    static func rfc3339(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        let n = b.count
        guard n >= 20 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for i in at..<(at + count) {
                let d = Int(b[i]) - 48
                guard d >= 0 && d <= 9 else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74, b[13] == 0x3A, b[16] == 0x3A,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var i = 19
        var fraction = 0.0
        if b[i] == 0x2E {
            i += 1
            var scale = 0.1
            let start = i
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < n else { return nil }
        var offset = 0
        if b[i] == 0x5A || b[i] == 0x7A {
            i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D {
            guard i + 6 == n, b[i + 3] == 0x3A, let h = digits(i + 1, 2), let m = digits(i + 4, 2), h <= 23, m <= 59
            else { return nil }
            offset = (h * 3600 + m * 60) * (b[i] == 0x2D ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == n else { return nil }
        let daysInMonth = [
            31, (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
            31
        ]
        guard day <= daysInMonth[month - 1] else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), proleptic Gregorian, UTC.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `href` as it is when it is already a plain absolute http(s) address (ASCII, no spaces, no user part, a
    /// host): what `URL(string:relativeTo:)` would give back unchanged. nil: take the general path.
    static func plainAbsoluteHTTP(_ href: String) -> String? {
        var copy = href
        return copy.withUTF8(isPlainAbsoluteHTTP) ? href : nil
    }

    static func isPlainAbsoluteHTTP(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: Int
        if b.count > 8, b[0] == 0x68, b[1] == 0x74, b[2] == 0x74, b[3] == 0x70 {
            if b[4] == 0x3A, b[5] == 0x2F, b[6] == 0x2F {
                prefix = 7
            } else if b[4] == 0x73, b[5] == 0x3A, b[6] == 0x2F, b[7] == 0x2F {
                prefix = 8
            } else {
                return false
            }
        } else {
            return false
        }
        var i = prefix
        var hostLength = 0
        // The authority: a host name or IPv4 address, an optional port; no user part, no IPv6 literal.
        while i < b.count, b[i] != 0x2F, b[i] != 0x3F, b[i] != 0x23 {
            let c = b[i]
            let ok =
                (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2E
                || c == 0x2D || c == 0x3A
            guard ok else { return false }
            if c == 0x3A { break }
            hostLength += 1
            i += 1
        }
        guard hostLength > 0 else { return false }
        // A port must be digits.
        if i < b.count, b[i] == 0x3A {
            var j = i + 1
            while j < b.count, b[j] != 0x2F, b[j] != 0x3F, b[j] != 0x23 {
                guard b[j] >= 0x30, b[j] <= 0x39 else { return false }
                j += 1
            }
        }
        var fragments = 0
        while i < b.count {
            let c = b[i]
            // RFC 3986 unreserved, reserved and '%': what a URL keeps as it is.
            let ok =
                (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                || c == 0x2D || c == 0x2E || c == 0x5F || c == 0x7E || c == 0x25
                || c == 0x3A || c == 0x2F || c == 0x3F || c == 0x23 || c == 0x40
                || c == 0x21 || c == 0x24 || c == 0x26 || c == 0x27 || c == 0x28 || c == 0x29 || c == 0x2A
                || c == 0x2B || c == 0x2C || c == 0x3B || c == 0x3D
            guard ok else { return false }
            if c == 0x23 { fragments += 1 }
            i += 1
        }
        // More than one '#' is something URL would escape.
        return fragments <= 1
    }
}
