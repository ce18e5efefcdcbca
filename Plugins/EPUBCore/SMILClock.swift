/// SMIL 3.0 clock values, as media overlays write `clipBegin`, `clipEnd` and `media:duration`:
///
///     Full-clock-value    ::= Hours ":" Minutes ":" Seconds ("." Fraction)?      0:01:23.5   01:02:03
///     Partial-clock-value ::= Minutes ":" Seconds ("." Fraction)?                 02:33       2:33.25
///     Timecount-value     ::= Timecount ("." Fraction)? ("h" | "min" | "s" | "ms")?   12.5s 300ms 1.5min 2h 7
///
/// with the `npt=` prefix SMIL allows on clip values, and white space around. Minutes and seconds take one or two
/// digits (books write both) and must be below 60. Anything else (signs, exponents, "inf", three fields of which one
/// is empty) is no clock value: nil, as is a value too large to be finite.
public enum SMILClock {
    public static func seconds(_ text: String) -> Double? {
        var t = Substring(text.trimmedASCII)
        if t.hasPrefix("npt=") { t = t.dropFirst(4) }
        guard !t.isEmpty, t.utf8.count <= 64 else { return nil }
        let value: Double?
        if t.contains(":") {
            value = clock(t)
        } else {
            value = timecount(t)
        }
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }

    private static func timecount(_ t: Substring) -> Double? {
        let metrics: [(String, Double)] = [("ms", 0.001), ("min", 60), ("h", 3600), ("s", 1)]
        var number = t
        var scale = 1.0
        for (suffix, factor) in metrics where t.hasSuffix(suffix) {
            number = t.dropLast(suffix.count)
            scale = factor
            break
        }
        return decimal(number).map { $0 * scale }
    }

    private static func clock(_ t: Substring) -> Double? {
        let fields = t.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        // Only the seconds may have a fraction; minutes and seconds are below 60.
        guard let seconds = decimal(fields[fields.count - 1]), seconds < 60,
            fields[fields.count - 1].prefix(while: { $0 != "." }).count <= 2
        else { return nil }
        guard let minutes = whole(fields[fields.count - 2]), minutes < 60, fields[fields.count - 2].count <= 2 else {
            return nil
        }
        let hours = fields.count == 3 ? whole(fields[0]) : 0
        guard let hours else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// Digits, optionally a dot and more digits: nothing Swift's `Double(_:)` would also take ("+1", "1e3", "nan").
    private static func decimal(_ s: Substring) -> Double? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, parts.allSatisfy(isDigits) else { return nil }
        return Double(s)
    }

    private static func whole(_ s: Substring) -> Double? { isDigits(s) ? Double(s) : nil }

    private static func isDigits(_ s: Substring) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
