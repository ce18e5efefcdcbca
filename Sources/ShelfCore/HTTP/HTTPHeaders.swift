import Foundation

/// An ordered list of header fields whose lookups ignore case, as HTTP field names do.
///
/// Order and repeated names are kept because some fields (Set-Cookie, Link, WWW-Authenticate)
/// legitimately appear more than once and their order can matter.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`, or nil. Setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            guard let newValue else { remove(name); return }
            guard let index = fields.firstIndex(where: { Self.same($0.name, name) }) else {
                fields.append((name, newValue))
                return
            }
            fields[index].value = newValue
            fields = fields.enumerated()
                .filter { $0.offset == index || !Self.same($0.element.name, name) }
                .map(\.element)
        }
    }

    /// Every value for `name`, in the order received.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// Adds a field without touching existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { Self.same($0.name, $1.name) && $0.value == $1.value }
    }

    /// Authorization values are masked so that printing headers in a log never leaks a credential.
    public var description: String {
        fields.map { field in
            let sensitive = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
            return "\(field.name): \(sensitive.contains(field.name.lowercased()) ? "***" : field.value)"
        }.joined(separator: "\n")
    }

    static func same(_ a: String, _ b: String) -> Bool {
        a.caseInsensitiveCompare(b) == .orderedSame
    }
}
