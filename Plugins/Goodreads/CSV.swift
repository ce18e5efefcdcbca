import Foundation

/// RFC 4180 CSV as Goodreads writes it: quoted fields may hold commas, doubled quotes and line breaks;
/// lines end in LF or CRLF; a UTF-8 BOM is dropped.
enum CSV {
    static func parse(_ data: Data, maxRows: Int = 1_000_000) throws -> [[String]] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var i = 0
        let n = bytes.count
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < n {
            let b = bytes[i]
            if quoted {
                if b == 0x22 {
                    if i + 1 < n && bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                    quoted = false
                } else {
                    field.append(b)
                }
                i += 1
                continue
            }
            switch b {
            case 0x22 where field.isEmpty: quoted = true
            case 0x2C: endField()
            case 0x0D where i + 1 < n && bytes[i + 1] == 0x0A: break
            case 0x0A, 0x0D:
                endField()
                if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
                row.removeAll(keepingCapacity: true)
                if rows.count > maxRows { throw CSVError.tooManyRows(maxRows) }
            default: field.append(b)
            }
            i += 1
        }
        if quoted { throw CSVError.unterminatedQuote }
        if !field.isEmpty || !row.isEmpty {
            endField()
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
        }
        return rows
    }

    enum CSVError: Error, CustomStringConvertible {
        case unterminatedQuote, tooManyRows(Int)
        var description: String {
            switch self {
            case .unterminatedQuote: return "a quoted field is never closed (the file is cut short)"
            case .tooManyRows(let n): return "more than \(n) rows"
            }
        }
    }

    /// One field as CSV: quoted when it holds a comma, quote or line break.
    static func field(_ text: String) -> String {
        if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }

    static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }
}

enum Text {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation's work for the common field that starts
    /// and ends with a visible ASCII character (most of an export's 600,000 fields).
    static func trim(_ s: String) -> String {
        guard let first = s.utf8.first, let last = s.utf8.last else { return s }
        func plain(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }
        if plain(first) && plain(last) { return s }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Digits (and a final X) of an ISBN, unwrapping Excel's `="..."`; nil when not a plausible ISBN.
    static func isbn(_ raw: String) -> String? {
        var s = raw.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("=") { s.removeFirst() }
        s = s.replacingOccurrences(of: "\"", with: "")
        let cleaned = s.uppercased().filter { $0.isASCII && ($0.isNumber || $0 == "X") }
        guard cleaned.count == 10 || cleaned.count == 13 else { return nil }
        if cleaned.dropLast().contains("X") { return nil }
        return cleaned
    }

    /// "2020/12/13" → "2020-12-13"; RFC 822 and Goodreads' "Fri Feb 06 15:11:50 -0800 2009" → ISO date.
    static func date(_ raw: String) -> String? {
        let s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !s.isEmpty else { return nil }
        let parts = s.split(separator: "/")
        if parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), parts[0].count == 4 {
            return String(format: "%@-%02d-%02d", String(parts[0]), Int(parts[1]) ?? 1, Int(parts[2]) ?? 1)
        }
        if parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), parts[0].count == 4 {
            return String(format: "%@-%02d", String(parts[0]), Int(parts[1]) ?? 1)
        }
        if s.count >= 10, s.prefix(4).allSatisfy(\.isNumber), s.dropFirst(4).first == "-" {
            return String(s.prefix(10))
        }
        for format in [
            "EEE MMM dd HH:mm:ss Z yyyy", "EEE, dd MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss Z", "EEE, dd MMM yyyy"
        ] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = format
            if let d = f.date(from: s) {
                let out = DateFormatter()
                out.locale = Locale(identifier: "en_US_POSIX")
                out.timeZone = f.date(from: s).flatMap { _ in timeZone(of: s) } ?? TimeZone(identifier: "UTC")
                out.dateFormat = "yyyy-MM-dd"
                return out.string(from: d)
            }
        }
        return nil
    }

    /// The zone written in a date string ("-0800"), so the day is the one the patron saw.
    static func timeZone(of s: String) -> TimeZone? {
        for word in s.split(separator: " ") where (word.hasPrefix("-") || word.hasPrefix("+")) && word.count == 5 {
            if let v = Int(word.dropFirst()) {
                let seconds = (v / 100 * 3600 + v % 100 * 60) * (word.hasPrefix("-") ? -1 : 1)
                return TimeZone(secondsFromGMT: seconds)
            }
        }
        return nil
    }

    /// Goodreads shelf names → the normalised exclusive shelves of readinglist.h.
    static func shelf(_ name: String) -> String {
        let n = name.trimmingCharacters(in: .whitespaces).lowercased()
        switch n {
        case "read": return "read"
        case "to-read", "to read", "want-to-read": return "to-read"
        case "currently-reading", "currently reading": return "currently-reading"
        default: return name.trimmingCharacters(in: .whitespaces)
        }
    }

    /// "David   Epstein" → "David Epstein".
    static func collapse(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    static func parseForm(_ s: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in s.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let decode = { (x: String) in x.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? x }
            out[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return out
    }
}
