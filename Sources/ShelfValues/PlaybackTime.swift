import Foundation

/// Times as people type and read them. One rounding rule for every time said: the nearest whole second (a stop
/// and the resume after it name the same frame, so they say the same time).
public enum PlaybackTime {
    /// "90", "90s", "1:30", "1:02:03.5", "2m", "1h5m": seconds, or nil.
    public static func parse(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty else { return nil }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count <= 3, parts.allSatisfy({ ($0 ?? -1) >= 0 && $0!.isFinite }) else { return nil }
            return parts.reduce(0.0) { $0 * 60 + $1! }
        }
        if let s = Double(t), s.isFinite, s >= 0 { return s }
        var total = 0.0, digits = "", any = false
        for ch in t {
            if ch.isNumber || ch == "." { digits.append(ch); continue }
            guard let v = Double(digits) else { return nil }
            switch ch {
            case "h": total += v * 3600
            case "m": total += v * 60
            case "s": total += v
            default: return nil
            }
            digits = ""
            any = true
        }
        if !digits.isEmpty { return nil }
        return any ? total : nil
    }

    /// Whole seconds by the one rule.
    static func whole(_ seconds: Double) -> Int { Int(max(0, seconds.isFinite ? seconds : 0).rounded()) }

    /// "1:02:03" or "2:03" (clock style, for tables).
    public static func clock(_ seconds: Double) -> String {
        let s = whole(seconds)
        let h = s / 3600, m = (s % 3600) / 60, sec = s % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, sec) : String(format: "%d:%02d", m, sec)
    }

    /// "1 hour 2 minutes", "3 minutes 5 seconds", "40 seconds": for a screen reader, by the rule the browser's
    /// player is given too (`ListeningRules.timeWordsUnits`).
    public static func words(_ seconds: Double) -> String {
        let s = whole(seconds)
        let units = [(s / 3600, "hour"), ((s % 3600) / 60, "minute"), (s % 60, "second")]
        let first = units.firstIndex { $0.0 > 0 } ?? units.count - 1
        return units[first..<min(units.count, first + ListeningRules.timeWordsUnits)].enumerated()
            .filter { $0.offset == 0 || $0.element.0 > 0 }
            .map { Plural.count($0.element.0, $0.element.1) }.joined(separator: " ")
    }
}
