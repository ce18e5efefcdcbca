import Foundation
import Host

/// One HTTP response: a status, headers and either bytes or a stream of server-sent events.
public struct WebResponse: Sendable {
    public enum Body: Sendable {
        case bytes(Data)
        /// Server-sent events: the connection stays open and the subscription's events are written as they come.
        case events(EventSubscription)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    public init(status: Int = 200, contentType: String? = nil, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        if let contentType { self.headers.append(("Content-Type", contentType)) }
        self.body = .bytes(body)
    }

    public static func json(_ data: Data, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "application/json", body: data)
    }

    /// One of the host's documents (docs/json.md), encoded as the command line prints it.
    public static func json<T: Encodable>(document: T, status: Int = 200) -> WebResponse {
        .json(Data(ReadiumJSON.encode(document).utf8), status: status)
    }

    public static func redirect(to location: String, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: 303, headers: [("Location", location)] + headers)
    }

    public static func html(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "text/html; charset=utf-8", body: Data(text.utf8))
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    public var bytes: Data? {
        if case .bytes(let data) = body { return data }
        return nil
    }
}
