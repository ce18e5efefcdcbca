import Foundation

/// The library server's clock: the `Date` header of its answer to the sync. A loan ends when the library says it
/// does, so the rules after a sync read the time there; this machine's clock stands in when no date came.
public enum ServerClock {
    /// The rules' clock after a sync: the server's date when it gave one.
    public static func clock(serverDate: Date?) -> NotificationClock {
        serverDate.map(NotificationClock.fixed) ?? .system
    }

    /// An HTTP date (RFC 9110: IMF-fixdate, and the obsolete RFC 850 and asctime forms); nil for anything else.
    public static func parseHTTPDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// `date` as an IMF-fixdate.
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
