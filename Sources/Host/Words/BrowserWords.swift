// What the browser's own scripts say after a patron's action or a server's answer, written here once: the app and
// the reader load every line at start (`GET /api/words`) and show each by its key, as they are given it.

/// A set of notices the browser's scripts say: one case a sentence (with its browser hint), each with a key.
///
/// A notice carries no value: where the page has one (the page counter, the passage copied), it shows the notice's
/// line and then the value. A sentence made from the server's own values comes in that route's answer instead
/// (`ShareJSON.said`, the search's `said`, `FeedJSON.said`).
public protocol BrowserNotice: PatronOutcome, CaseIterable, Sendable, RawRepresentable where RawValue == String {
    /// The first part of each key: the page or the control the notices belong to.
    static var group: String { get }
    /// Every notice of the set by its key, as the browser shows it.
    static var browserLines: [String: String] { get }
}

extension BrowserNotice {
    /// "group.case": what the browser's scripts ask by (`notice('reader.lastPage')` in web/js/notices.js).
    public var key: String { "\(Self.group).\(rawValue)" }

    public static var browserLines: [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.key, $0.words(for: .browser).line) })
    }
}

/// Every notice the browser's scripts say, by key: what `GET /api/words` answers.
public enum BrowserWords: Sendable {
    /// The sets, one per page or control.
    public static let sets: [any BrowserNotice.Type] = [
        ConnectionNotice.self, ReaderPageNotice.self, ListeningPageNotice.self, NarrationNotice.self,
        PagesNotice.self
    ]

    /// Each key and its line (sentence, then the browser's hint).
    public static var lines: [String: String] {
        sets.reduce(into: [:]) { all, set in all.merge(set.browserLines) { first, _ in first } }
    }
}
