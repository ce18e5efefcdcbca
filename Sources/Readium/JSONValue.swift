import Foundation

/// Any JSON value, for the open-ended parts of Readium documents (metadata, properties).
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var object: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    public subscript(key: String) -> JSONValue? { object?[key] }
}

extension JSONValue {
    /// Links as compact link objects, the shape of a subcollection such as "landmarks": "href", and "type",
    /// "title", "rel" (a string when there is one), "properties" and "children" (when not empty) where the link
    /// has them; a duration and unnamed members are left out.
    public init(linkObjects links: [Link]) {
        self = .array(links.map { l in
            // Sized for every member up front: growing a dictionary rehashes it.
            var o = [String: JSONValue](minimumCapacity: 6)
            o["href"] = .string(l.href)
            if let t = l.type { o["type"] = .string(t) }
            if let t = l.title { o["title"] = .string(t) }
            if let r = l.rel { o["rel"] = r.count == 1 ? .string(r[0]) : .array(r.map { .string($0) }) }
            if let p = l.properties { o["properties"] = .object(p) }
            if let c = l.children, !c.isEmpty { o["children"] = JSONValue(linkObjects: c) }
            return .object(o)
        })
    }
}

public enum ReadiumJSON {
    /// For documents that cross the plugin boundary: no sorting, no indentation; the cheapest
    /// encoding Foundation offers, since every ABI call that carries JSON pays for it twice.
    /// The Readium shapes (Locator, Link, Manifest, JSONValue and arrays of them) go through the hand-written
    /// writer in FastJSON.swift; anything else through JSONEncoder. A value JSONEncoder refuses (a non-finite
    /// number) is refused by both, and written as `null`.
    public static func wire<T: Encodable>(_ value: T) -> Data {
        do {
            if let data = try fastWire(value) { return data }
        } catch {
            return Data("null".utf8)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    /// Sorted keys and unescaped slashes: stable output that diffs and reads well.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own Codable values cannot fail (no non-finite doubles are produced).
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
