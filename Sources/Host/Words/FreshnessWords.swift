internal import ShelfLibrary
import Foundation

// How old what shelf shows of a library is, when it is not the library's word of now: the wish list and `shelf book`
// never pass an old sighting off as "available now" (issue 32, item 3).

/// When shelf last heard the library say something, in words.
public enum Sighting: Sendable {
    /// "seen just now", "seen 5 minutes ago", "seen 3 hours ago", "seen 3 days ago".
    public static func ago(_ date: Date, now: Date = Date()) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        if seconds < 60 { return "seen just now" }
        if seconds < 3_600 { return "seen \(Plural.count(Int(seconds / 60), "minute")) ago" }
        if seconds < 86_400 { return "seen \(Plural.count(Int(seconds / 3_600), "hour")) ago" }
        return "seen \(Plural.count(Int(seconds / 86_400), "day")) ago"
    }

    /// Availability words from a sighting `seenAt` (nil or recent: the library's word of now, as they are).
    public static func availability(_ words: String, seenAt: Date?, now: Date = Date()) -> String {
        guard let seenAt, now.timeIntervalSince(seenAt) > WishList.freshFor else { return words }
        return "\(ago(seenAt, now: now)): \(words)"
    }

    /// `shelf book`'s and the browser's note when the library said it no longer has the title.
    public static func gone(_ title: String) -> String {
        "The library no longer has “\(title)” in its catalog: it cannot be borrowed or reserved."
    }

    /// `shelf book`'s and the browser's note when the library did not answer about a title just now.
    public static func notAnswered(seenAt: Date?, now: Date = Date()) -> String {
        "The library did not answer just now: this is what shelf saw of this title before"
            + (seenAt.map { " (\(ago($0, now: now)))" } ?? "") + "."
    }
}
