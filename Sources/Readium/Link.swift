import Foundation

/// A Readium link: reading-order items, resources and table-of-contents entries. Read and written as JSON by
/// ShapesJSON.swift.
public struct Link: Equatable, Sendable {
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

    static let known: Set<String> = ["href", "type", "title", "rel", "properties", "duration", "children"]

    public init(
        href: String, type: String? = nil, title: String? = nil, rel: [String]? = nil,
        properties: [String: JSONValue]? = nil, duration: Double? = nil, children: [Link]? = nil
    ) {
        self.init(
            href: href, type: type, title: title, rel: rel, properties: properties, duration: duration,
            children: children, extra: [:])
    }

    init(
        href: String, type: String?, title: String?, rel: [String]?, properties: [String: JSONValue]?,
        duration: Double?, children: [Link]?, extra: [String: JSONValue]
    ) {
        self.href = href
        self.type = type
        self.title = title
        self.rel = rel
        self.properties = properties
        self.duration = duration
        self.children = children
        self.extra = extra
    }
}
