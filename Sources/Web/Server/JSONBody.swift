import Foundation
import Host

/// A request's JSON object, read once (JSONDecoder, into Readium's `JSONValue`), its members read by type: a member of
/// another type reads as absent, which each route refuses or ignores as it says.
public struct JSONBody: Sendable {
    public let members: [String: JSONValue]

    public init(_ members: [String: JSONValue]) { self.members = members }

    public subscript(name: String) -> JSONValue? { members[name] }

    public func string(_ name: String) -> String? { members[name]?.string }

    public func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = members[name] { return value }
        return nil
    }

    public func number(_ name: String) -> Double? { members[name]?.number }

    /// A whole number (3, not 3.5) that fits an Int.
    public func int(_ name: String) -> Int? {
        guard let number = members[name]?.number, number.rounded() == number, abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// A string member that is there and not empty.
    public func word(_ name: String) -> String? { string(name).flatMap { $0.isEmpty ? nil : $0 } }
}
