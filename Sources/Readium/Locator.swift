import Foundation

/// A position in a publication, as Readium defines it: the shape every plugin writes and the
/// host stores (positions, bookmarks). Absent keys stay nil; members this model does not name (a
/// locator's or its locations' `cssSelector`, `domRange`, `partialCfi`, ...) are kept as they are,
/// as `Link` keeps them, so a bookmark a plugin made precise survives being stored and read back. Read and
/// written as JSON by ShapesJSON.swift.
public struct Locator: Equatable, Sendable {
    public var href: String
    public var type: String
    public var title: String?
    public var locations: Locations
    public var text: Text?
    /// Members this model does not name, kept as they are.
    public var extra: [String: JSONValue] = [:]

    static let known: Set<String> = ["href", "type", "title", "locations", "text"]

    public struct Locations: Equatable, Sendable {
        public var position: Int?
        public var progression: Double?
        public var totalProgression: Double?
        public var fragments: [String]?
        /// Members this model does not name (`cssSelector`, `domRange`, `partialCfi`, ...), kept as they are.
        public var extra: [String: JSONValue] = [:]

        static let known: Set<String> = ["position", "progression", "totalProgression", "fragments"]

        public init(
            position: Int? = nil, progression: Double? = nil,
            totalProgression: Double? = nil, fragments: [String]? = nil
        ) {
            self.position = position
            self.progression = progression
            self.totalProgression = totalProgression
            self.fragments = fragments
        }
    }

    public struct Text: Equatable, Sendable {
        public var before: String?
        public var highlight: String?
        public var after: String?

        public init(before: String? = nil, highlight: String? = nil, after: String? = nil) {
            self.before = before
            self.highlight = highlight
            self.after = after
        }
    }

    public init(
        href: String, type: String, title: String? = nil,
        locations: Locations = Locations(), text: Text? = nil
    ) {
        self.href = href
        self.type = type
        self.title = title
        self.locations = locations
        self.text = text
    }

    public func jsonString() -> String { String(decoding: ReadiumJSON.wire(self), as: UTF8.self) }

    public static func parse(_ json: String) throws -> Locator {
        try ReadiumJSON.decode(Locator.self, from: Data(json.utf8))
    }
}
