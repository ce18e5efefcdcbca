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

    public init(href: String, type: String? = nil, title: String? = nil, rel: [String]? = nil,
                properties: [String: JSONValue]? = nil, duration: Double? = nil, children: [Link]? = nil) {
        self.href = href
        self.type = type
        self.title = title
        self.rel = rel
        self.properties = properties
        self.duration = duration
        self.children = children
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
    }
}
