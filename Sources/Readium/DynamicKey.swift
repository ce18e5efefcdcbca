/// A coding key for JSON objects whose keys are not all known in advance, so that Readium
/// documents keep what this model does not name (extensions, subcollections) on a round trip.
struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == DynamicKey {
    /// Every key but the named ones, as JSON values.
    func remaining(except known: Set<String>) throws -> [String: JSONValue] {
        var extra: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            extra[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return extra
    }
}

extension KeyedEncodingContainer where Key == DynamicKey {
    mutating func encode(remaining extra: [String: JSONValue], except known: Set<String>) throws {
        for (key, value) in extra where !known.contains(key) {
            try encode(value, forKey: DynamicKey(key))
        }
    }
}
