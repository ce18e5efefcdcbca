import ShelfValues
import ConnectorShapes
import Foundation
import TextFolding

/// What the host adds to a reading-list entry (the shape itself is `ConnectorShapes.ReadingListEntry`; its ISBN is ShelfValues').
extension ReadingListEntry {
    /// Stable per service: the service's own id, else the ISBN, else folded title and first author.
    public func key(service: String) -> String {
        if let id = identifiers[service] ?? identifiers[ServiceIDs.key(for: service)] { return "id:\(id)" }
        if let isbn { return "isbn:\(isbn)" }
        return "t:\(Fold.text(title))|\(Fold.text(authors.first ?? ""))"
    }
}

enum ServiceIDs {
    /// The identifiers key a service's connector uses for its own ids.
    static func key(for service: String) -> String { service == "google-books" ? "google" : service }
}

public struct PullResult: Codable, Sendable {
    public var shelves: [ReadingListShelf]
    public var entries: [ReadingListEntry]

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // The shelves are a summary a connector may get wrong; the entries below are required.
        shelves = (try? c.decodeIfPresent([ReadingListShelf].self, forKey: .shelves)) ?? []
        entries = try c.decode([ReadingListEntry].self, forKey: .entries)
    }
}

public struct PushResult: Codable, Sendable {
    public struct Outcome: Codable, Sendable {
        public var index: Int
        public var status: String
        public var message: String?
    }
    public var results: [Outcome]
    public var file: String?
}

/// Title and author matching: case, punctuation, diacritics and width gone, one space between words (TextFolding).
public enum Fold {
    public static func text(_ s: String) -> String { FoldedText.words(s) }

    /// A title without its series note or subtitle: "Mort (Discworld, #4)" → "mort".
    public static func title(_ s: String) -> String {
        // "(" and ":" are ASCII: found in the UTF-8 bytes, cut there (a valid boundary), no Character walk.
        let utf8 = s.utf8
        if let cut = utf8.firstIndex(where: { $0 == 0x28 || $0 == 0x3A }) {
            // A leading "(" or ":" is kept and a later one still cuts: the Character walk handles that case.
            if cut == utf8.startIndex { return slowTitle(s) }
            return text(String(s[..<cut]))
        }
        return text(s)
    }

    private static func slowTitle(_ s: String) -> String {
        var t = s
        if let paren = t.firstIndex(of: "("), paren > t.startIndex { t = String(t[..<paren]) }
        if let colon = t.firstIndex(of: ":"), colon > t.startIndex { t = String(t[..<colon]) }
        return text(t)
    }

    /// An author's surname, folded: "Pratchett, Terry" and "Terry Pratchett" both give "pratchett".
    public static func surname(_ s: String) -> String {
        if let comma = s.firstIndex(of: ",") { return text(String(s[..<comma])) }
        return text(s).split(separator: " ").last.map(String.init) ?? ""
    }
}
