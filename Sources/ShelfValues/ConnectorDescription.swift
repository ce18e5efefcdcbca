import Foundation

// The connector ABI's values a front end shows (`shelf lists`, `shelf plugins --inspect`): decoded from a
// connector's JSON by the plugins subsystem, carrying no behaviour.

/// One of a service's shelves, as a pull summarises it.
public struct ReadingListShelf: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var count: Int?
}

/// A connector's `describe` answer: what the service can do and the settings it asks for.
public struct ConnectorDescription: Codable, Equatable, Sendable {
    public struct Setting: Codable, Equatable, Sendable {
        public var key: String
        public var label: String
        public var required: Bool?
        public var secret: Bool?
        /// "text" (the default), "file" (the host checks that it exists) or "url".
        public var type: String?
    }
    public var service: String
    public var name: String?
    public var pull: Bool?
    public var pushRead: Bool?
    public var pushToRead: Bool?
    public var pushWrites: String?
    public var authorization: String?
    public var settings: [Setting]?
    /// Where the patron uploads the file a "file" push writes.
    public var uploadURL: String?
}
