import Foundation

/// A position in a publication, as Readium defines it: the shape every plugin writes and the
/// host stores (positions, bookmarks). Unknown keys are dropped, absent ones stay nil.
public struct Locator: Codable, Equatable, Sendable {
    public var href: String
    public var type: String
    public var title: String?
    public var locations: Locations
    public var text: Text?

    public struct Locations: Codable, Equatable, Sendable {
        public var position: Int?
        public var progression: Double?
        public var totalProgression: Double?
        public var fragments: [String]?

        public init(position: Int? = nil, progression: Double? = nil,
                    totalProgression: Double? = nil, fragments: [String]? = nil) {
            self.position = position
            self.progression = progression
            self.totalProgression = totalProgression
            self.fragments = fragments
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
    }

    public func jsonString() -> String { String(decoding: ReadiumJSON.wire(self), as: UTF8.self) }

    public static func parse(_ json: String) throws -> Locator {
        try ReadiumJSON.decode(Locator.self, from: Data(json.utf8))
    }
}
