import Foundation

extension LoopbackHTTPServer {
    /// A request as the server received it, kept for assertions.
    public struct Request: Sendable {
        public let method: String
        /// The request target as sent, e.g. `/feed?page=2`.
        public let target: String
        /// The target without its query, still percent-encoded.
        public let path: String
        /// The raw query, without `?`; nil when there was none.
        public let query: String?
        public let headers: [(name: String, value: String)]
        public let body: Data

        /// The first value of a header, whatever the case of its name.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// Query parameters, decoded; the first value wins when a name repeats.
        public var queryItems: [String: String] {
            var components = URLComponents()
            components.percentEncodedQuery = query
            var items: [String: String] = [:]
            for item in components.queryItems ?? [] where items[item.name] == nil {
                items[item.name] = item.value ?? ""
            }
            return items
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }
}
