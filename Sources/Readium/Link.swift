import Foundation

/// A Readium link: reading-order items, resources and table-of-contents entries.
public struct Link: Codable, Equatable, Sendable {
    public var href: String
    public var type: String?
    public var title: String?
    public var rel: [String]?
    public var properties: [String: JSONValue]?
    public var duration: Double?
    public var children: [Link]?
    /// Members this model does not name (height, width, bitrate, language, alternate, ...),
    /// kept as they are.
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey {
        case href, type, title, rel, properties, duration, children
    }

    static let known: Set<String> = ["href", "type", "title", "rel", "properties", "duration", "children"]

    public init(href: String, type: String? = nil, title: String? = nil, rel: [String]? = nil,
                properties: [String: JSONValue]? = nil, duration: Double? = nil, children: [Link]? = nil) {
        self.init(href: href, type: type, title: title, rel: rel, properties: properties, duration: duration,
                  children: children, extra: [:])
    }

    init(href: String, type: String?, title: String?, rel: [String]?, properties: [String: JSONValue]?,
         duration: Double?, children: [Link]?, extra: [String: JSONValue]) {
        self.href = href
        self.type = type
        self.title = title
        self.rel = rel
        self.properties = properties
        self.duration = duration
        self.children = children
        self.extra = extra
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        href = try c.decode(String.self, forKey: .href)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        // "rel" is a string or an array of strings in the wild.
        if let one = try? c.decodeIfPresent(String.self, forKey: .rel) {
            rel = [one]
        } else {
            rel = try c.decodeIfPresent([String].self, forKey: .rel)
        }
        properties = try c.decodeIfPresent([String: JSONValue].self, forKey: .properties)
        duration = try? c.decodeIfPresent(Double.self, forKey: .duration)
        children = try c.decodeIfPresent([Link].self, forKey: .children)
        extra = try decoder.container(keyedBy: DynamicKey.self).remaining(except: Self.known)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(href, forKey: .href)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(rel, forKey: .rel)
        try c.encodeIfPresent(properties, forKey: .properties)
        try c.encodeIfPresent(duration, forKey: .duration)
        try c.encodeIfPresent(children, forKey: .children)
        var more = encoder.container(keyedBy: DynamicKey.self)
        try more.encode(remaining: extra, except: Self.known)
    }
}
