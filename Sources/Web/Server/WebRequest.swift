import Foundation
import Host

/// One HTTP request as the routes see it: method, decoded path, query, headers (names in lower case), body.
public struct WebRequest: Sendable {
    public let method: String
    /// The path without its query, percent-decoded.
    public let path: String
    public let query: [String: String]
    public let headers: [String: String]
    public let body: Data
    /// What the route's `{name}` segments matched (set by the router).
    public internal(set) var parameters: [String: String] = [:]

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: Data = Data()
    ) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Cookies by name; the first of a repeated name wins.
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for part in (header("cookie") ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, result[pair[0]] == nil { result[pair[0]] = pair[1] }
        }
        return result
    }

    /// The body as a JSON object; a body that is not one is the client's mistake (400).
    public func json() throws -> JSONBody {
        if body.isEmpty { return JSONBody([:]) }
        guard let object = (try? JSONDecoder().decode(JSONValue.self, from: body))?.object else {
            throw WebError(400, RequestProblem.bodyNotJSON)
        }
        return JSONBody(object)
    }

    /// The body as the route's own `Decodable` shape; a body that is not one is the client's mistake (400).
    public func decode<T: Decodable>(_ type: T.Type, refusal: @autoclosure () -> WebError) throws -> T {
        do { return try JSONDecoder().decode(type, from: body.isEmpty ? Data("{}".utf8) : body) } catch {
            throw refusal()
        }
    }

    /// A string member of the JSON body that must be there.
    public func required(_ name: String) throws -> String {
        guard let value = try json().word(name) else {
            throw WebError(400, RequestProblem.missingMember(name: name))
        }
        return value
    }

    /// A query value that must be a whole number in `range` when present.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw WebError(400, RequestProblem.notANumber(name: name, given: text, range: range))
        }
        return value
    }
}
