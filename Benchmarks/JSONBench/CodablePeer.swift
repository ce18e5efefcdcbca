import Foundation
import Readium

// The peer: the Readium shapes as Codable types that JSONDecoder and JSONEncoder read and write member by
// member, as Readium's own Link, Locator and Manifest did until issue 14 (same members, the same optional
// and open-ended parts, unknown members kept through a dynamic coding key). Readium's shapes are Codable
// only through their reader and writer now, so these stand where their conformances stood.

struct PeerKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == PeerKey {
    func remaining(except known: Set<String>) throws -> [String: JSONValue] {
        var extra: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            extra[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return extra
    }
}

extension KeyedEncodingContainer where Key == PeerKey {
    mutating func encode(remaining extra: [String: JSONValue]) throws {
        for (key, value) in extra { try encode(value, forKey: PeerKey(key)) }
    }
}

struct PeerLink: Codable {
    var href: String
    var type: String?, title: String?, rel: [String]?
    var properties: [String: JSONValue]?, duration: Double?, children: [PeerLink]?
    var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey { case href, type, title, rel, properties, duration, children }
    static let known: Set<String> = ["href", "type", "title", "rel", "properties", "duration", "children"]

    init(_ l: Link) {
        href = l.href; type = l.type; title = l.title; rel = l.rel; properties = l.properties
        duration = l.duration; children = l.children?.map(PeerLink.init); extra = l.extra
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        href = try c.decode(String.self, forKey: .href)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        // A string or an array of strings: the error of the first try only says it is the second.
        if let one = try? c.decodeIfPresent(String.self, forKey: .rel) { rel = [one] } else {
            rel = try c.decodeIfPresent([String].self, forKey: .rel)
        }
        properties = try c.decodeIfPresent([String: JSONValue].self, forKey: .properties)
        duration = try? c.decodeIfPresent(Double.self, forKey: .duration)  // as the reader: no number, no duration
        children = try c.decodeIfPresent([PeerLink].self, forKey: .children)
        extra = try decoder.container(keyedBy: PeerKey.self).remaining(except: Self.known)
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(href, forKey: .href)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(rel, forKey: .rel)
        try c.encodeIfPresent(properties, forKey: .properties)
        try c.encodeIfPresent(duration, forKey: .duration)
        try c.encodeIfPresent(children, forKey: .children)
        var more = encoder.container(keyedBy: PeerKey.self)
        try more.encode(remaining: extra)
    }
}

struct PeerLocator: Codable {
    struct Locations: Codable {
        var position: Int?, progression: Double?, totalProgression: Double?, fragments: [String]?
        var extra: [String: JSONValue] = [:]
        enum CodingKeys: String, CodingKey { case position, progression, totalProgression, fragments }
        static let known: Set<String> = ["position", "progression", "totalProgression", "fragments"]

        init(_ l: Locator.Locations) {
            position = l.position; progression = l.progression; totalProgression = l.totalProgression
            fragments = l.fragments; extra = l.extra
        }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            position = try c.decodeIfPresent(Int.self, forKey: .position)
            progression = try c.decodeIfPresent(Double.self, forKey: .progression)
            totalProgression = try c.decodeIfPresent(Double.self, forKey: .totalProgression)
            fragments = try c.decodeIfPresent([String].self, forKey: .fragments)
            extra = try decoder.container(keyedBy: PeerKey.self).remaining(except: Self.known)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(position, forKey: .position)
            try c.encodeIfPresent(progression, forKey: .progression)
            try c.encodeIfPresent(totalProgression, forKey: .totalProgression)
            try c.encodeIfPresent(fragments, forKey: .fragments)
            var more = encoder.container(keyedBy: PeerKey.self)
            try more.encode(remaining: extra)
        }
    }

    struct Text: Codable { var before: String?, highlight: String?, after: String? }

    var href: String, type: String, title: String?
    var locations: Locations
    var text: Text?
    var extra: [String: JSONValue] = [:]
    enum CodingKeys: String, CodingKey { case href, type, title, locations, text }
    static let known: Set<String> = ["href", "type", "title", "locations", "text"]

    init(_ l: Locator) {
        href = l.href; type = l.type; title = l.title; locations = Locations(l.locations)
        text = l.text.map { Text(before: $0.before, highlight: $0.highlight, after: $0.after) }; extra = l.extra
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        href = try c.decode(String.self, forKey: .href)
        type = try c.decodeIfPresent(String.self, forKey: .type) ?? ""
        title = try c.decodeIfPresent(String.self, forKey: .title)
        locations = try c.decodeIfPresent(Locations.self, forKey: .locations) ?? Locations(Locator.Locations())
        text = try c.decodeIfPresent(Text.self, forKey: .text)
        extra = try decoder.container(keyedBy: PeerKey.self).remaining(except: Self.known)
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(href, forKey: .href)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encode(locations, forKey: .locations)
        try c.encodeIfPresent(text, forKey: .text)
        var more = encoder.container(keyedBy: PeerKey.self)
        try more.encode(remaining: extra)
    }
}

struct PeerManifest: Codable {
    var context: JSONValue?
    var metadata: [String: JSONValue]
    var links: [PeerLink], readingOrder: [PeerLink], resources: [PeerLink]?, toc: [PeerLink]?
    var subcollections: [String: JSONValue]
    enum CodingKeys: String, CodingKey { case context = "@context", metadata, links, readingOrder, resources, toc }
    static let known: Set<String> = ["@context", "metadata", "links", "readingOrder", "resources", "toc"]

    init(_ m: Manifest) {
        context = m.context; metadata = m.metadata; links = m.links.map(PeerLink.init)
        readingOrder = m.readingOrder.map(PeerLink.init); resources = m.resources?.map(PeerLink.init)
        toc = m.toc?.map(PeerLink.init); subcollections = m.subcollections
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        context = try c.decodeIfPresent(JSONValue.self, forKey: .context)
        metadata = try c.decode([String: JSONValue].self, forKey: .metadata)
        links = try c.decodeIfPresent([PeerLink].self, forKey: .links) ?? []
        readingOrder = try c.decode([PeerLink].self, forKey: .readingOrder)
        resources = try c.decodeIfPresent([PeerLink].self, forKey: .resources)
        toc = try c.decodeIfPresent([PeerLink].self, forKey: .toc)
        subcollections = try decoder.container(keyedBy: PeerKey.self).remaining(except: Self.known)
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(context, forKey: .context)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(links, forKey: .links)
        try c.encode(readingOrder, forKey: .readingOrder)
        try c.encodeIfPresent(resources, forKey: .resources)
        try c.encodeIfPresent(toc, forKey: .toc)
        var more = encoder.container(keyedBy: PeerKey.self)
        try more.encode(remaining: subcollections)
    }
}
