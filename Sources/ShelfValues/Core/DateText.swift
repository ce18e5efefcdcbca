import Foundation
import Glibc

/// A date as every --json document writes it: "2026-11-29T18:32:49Z" (UTC, whole seconds). Written by hand:
/// creating an ISO8601DateFormatter (ICU) per date cost 0.7 s on a shelf of 10,000 books. Years outside 0...9999 go
/// through one shared formatter, under a lock (formatters are not safe to share between threads).
package func isoDate(_ date: Date) -> String {
    var seconds = time_t(floor(date.timeIntervalSince1970))
    var t = tm()
    guard gmtime_r(&seconds, &t) != nil, (0...9999).contains(t.tm_year + 1900) else {
        return isoFormatterLock.withLock { isoFormatter.string(from: date) }
    }
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let year = String(t.tm_year + 1900)
    return String(repeating: "0", count: 4 - year.count) + year + "-" + two(t.tm_mon + 1) + "-" + two(t.tm_mday) + "T"
        + two(t.tm_hour) + ":" + two(t.tm_min) + ":" + two(t.tm_sec) + "Z"
}

nonisolated(unsafe) private let isoFormatter = ISO8601DateFormatter()
private let isoFormatterLock = NSLock()

/// A date as shelf writes it for a person: one style everywhere (due dates, "last synced", the shelf's books), in
/// the patron's time zone and the date style of their LC_TIME locale ("22 Dec 2026" for en_GB, "22.12.2026" for
/// de_DE, "Dec 22, 2026" for C/POSIX). --json documents write `isoDate` instead.
package func localDay(_ date: Date) -> String {
    PatronDates.lock.withLock { PatronDates.day.string(from: date) }
}

/// `localDay` with the time of day, in the same locale's short style ("22 Dec 2026, 14:05").
package func localDayAndTime(_ date: Date) -> String {
    PatronDates.lock.withLock { PatronDates.dayAndTime.string(from: date) }
}

/// The formatters, made once: Foundation's Locale.current on Linux ignores LC_TIME, so the locale is read here as
/// POSIX orders the variables (LC_ALL, then LC_TIME, then LANG). Shared under a lock (serve's threads use them).
/// The process's environment, not a Shelf's: the dates are for the person at this process's terminal, and free
/// functions any layer calls (Availability's words too) have no Shelf to ask.
enum PatronDates {
    static let lock = NSLock()
    static let day = formatter(time: .none)
    static let dayAndTime = formatter(time: .short)

    private static func formatter(time: DateFormatter.Style) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale(ProcessEnvironment.shared)
        formatter.timeZone = TimeZone.current
        formatter.dateStyle = .medium
        formatter.timeStyle = time
        return formatter
    }

    /// "de_DE.UTF-8@euro" → de_DE; C, POSIX or nothing → en_US_POSIX.
    static func locale(_ environment: [String: String]) -> Locale {
        let name = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let language = String(name.prefix { $0 != "." && $0 != "@" })
        return Locale(identifier: ["", "C", "POSIX"].contains(language) ? "en_US_POSIX" : language)
    }
}
