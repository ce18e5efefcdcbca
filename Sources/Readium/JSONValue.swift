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
        // Each `try?` asks whether the value is of one JSON type; an error only says it is another, tried next.
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
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

public enum ReadiumJSON {
    /// For documents that cross the plugin boundary: compact, no sorting. The Readium shapes (Locator, Link,
    /// Manifest, JSONValue and arrays of them) go through their writer (ShapesJSON.swift); anything else
    /// through JSONEncoder. A value with a non-finite number is refused by both, and written as `null`.
    public static func wire<T: Encodable>(_ value: T) -> Data {
        do {
            if let data = try written(value) { return data }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            return try encoder.encode(value)
        } catch {
            // Only a non-finite number cannot be written, and JSON has no way to say it.
            return Data("null".utf8)
        }
    }

    /// Sorted keys and unescaped slashes: stable output that diffs and reads well.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            : [.sortedKeys, .withoutEscapingSlashes]
        // `try?`: encoding our own Codable values fails only for a non-finite number, which none of them holds;
        // JSON has no way to say one, so `null` stands for it.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
