import Foundation

/// A position in a publication, as Readium defines it: the shape every plugin writes and the
/// host stores (positions, bookmarks). Absent keys stay nil; members this model does not name (a
/// locator's or its locations' `cssSelector`, `domRange`, `partialCfi`, ...) are kept as they are,
/// as `Link` keeps them, so a bookmark a plugin made precise survives being stored and read back.
public struct Locator: Codable, Equatable, Sendable {
    public var href: String
    public var type: String
    public var title: String?
    public var locations: Locations
    public var text: Text?
    /// Members this model does not name, kept as they are.
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey { case href, type, title, locations, text }
    static let known: Set<String> = ["href", "type", "title", "locations", "text"]

    public struct Locations: Codable, Equatable, Sendable {
        public var position: Int?
        public var progression: Double?
        public var totalProgression: Double?
        public var fragments: [String]?
        /// Members this model does not name (`cssSelector`, `domRange`, `partialCfi`, ...), kept as they are.
        public var extra: [String: JSONValue] = [:]

        enum CodingKeys: String, CodingKey { case position, progression, totalProgression, fragments }
        static let known: Set<String> = ["position", "progression", "totalProgression", "fragments"]

        public init(position: Int? = nil, progression: Double? = nil,
                    totalProgression: Double? = nil, fragments: [String]? = nil) {
            self.position = position
            self.progression = progression
            self.totalProgression = totalProgression
            self.fragments = fragments
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            position = try c.decodeIfPresent(Int.self, forKey: .position)
            progression = try c.decodeIfPresent(Double.self, forKey: .progression)
            totalProgression = try c.decodeIfPresent(Double.self, forKey: .totalProgression)
            fragments = try c.decodeIfPresent([String].self, forKey: .fragments)
            extra = try decoder.container(keyedBy: DynamicKey.self).remaining(except: Self.known)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(position, forKey: .position)
            try c.encodeIfPresent(progression, forKey: .progression)
            try c.encodeIfPresent(totalProgression, forKey: .totalProgression)
            try c.encodeIfPresent(fragments, forKey: .fragments)
            var more = encoder.container(keyedBy: DynamicKey.self)
            try more.encode(remaining: extra, except: Self.known)
        }
    }

    public struct Text: Codable, Equatable, Sendable {
        public var before: String?
        public var highlight: String?
        public var after: String?

        public init(before: String? = nil, highlight: String? = nil, after: String? = nil) {
            self.before = before
            self.highlight = highlight
            self.after = after
        }
    }

    public init(href: String, type: String, title: String? = nil,
                locations: Locations = Locations(), text: Text? = nil) {
        self.href = href
        self.type = type
        self.title = title
        self.locations = locations
        self.text = text
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        href = try c.decode(String.self, forKey: .href)
        // Readium requires a type, but a locator typed by hand ("--locator") often lacks one.
        type = try c.decodeIfPresent(String.self, forKey: .type) ?? ""
        title = try c.decodeIfPresent(String.self, forKey: .title)
        locations = try c.decodeIfPresent(Locations.self, forKey: .locations) ?? Locations()
        text = try c.decodeIfPresent(Text.self, forKey: .text)
        extra = try decoder.container(keyedBy: DynamicKey.self).remaining(except: Self.known)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(href, forKey: .href)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encode(locations, forKey: .locations)
        try c.encodeIfPresent(text, forKey: .text)
        var more = encoder.container(keyedBy: DynamicKey.self)
        try more.encode(remaining: extra, except: Self.known)
    }

    public func jsonString() -> String { String(decoding: ReadiumJSON.wire(self), as: UTF8.self) }

    public static func parse(_ json: String) throws -> Locator {
        try ReadiumJSON.decode(Locator.self, from: Data(json.utf8))
    }
}
