import Foundation

/// Durations as the patron writes them for `--interval`: `30s`, `15m`, `2h`, `1d` (whole numbers).
public enum WatchInterval {
    public static let standard: TimeInterval = 15 * 60

    public static func parse(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, TimeInterval)] = [
            ("min", 60), ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)
        ]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let number = Int(trimmed.dropLast(suffix.count)), number > 0 else { return nil }
            let seconds = TimeInterval(number) * scale
            return seconds >= 0.1 ? seconds : nil
        }
        return nil
    }

    /// The duration the way systemd reads it, in whole seconds (at least one).
    public static func systemd(_ seconds: TimeInterval) -> String { "\(max(1, Int(seconds.rounded())))s" }

    /// "15 minutes", "1 hour", "30 seconds".
    public static func words(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole >= 86_400, whole % 86_400 == 0 { return Plural.count(whole / 86_400, "day") }
        if whole >= 3600, whole % 3600 == 0 { return Plural.count(whole / 3600, "hour") }
        if whole >= 60, whole % 60 == 0 { return Plural.count(whole / 60, "minute") }
        return Plural.count(max(whole, 0), "second")
    }
}
