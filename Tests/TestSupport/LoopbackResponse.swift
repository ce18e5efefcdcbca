import Foundation

extension LoopbackHTTPServer {
    /// What the server answers, and how badly it behaves while doing so.
    public struct Response: Sendable {
        public var status: Int
        /// Sent as given. `Content-Length` is added unless present, so a test can also lie with it;
        /// with `Transfer-Encoding: chunked` the body is sent in chunks and no length is announced.
        public var headers: [(name: String, value: String)]
        public var body: Data
        /// Seconds of silence after reading the request and before the status line.
        public var delay: TimeInterval
        public var fault: Fault?

        public init(
            status: Int = 200, headers: [String: String] = [:], body: Data = Data(),
            delay: TimeInterval = 0, fault: Fault? = nil
        ) {
            self.status = status
            self.headers = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
            self.body = body
            self.delay = delay
            self.fault = fault
        }

        public static func text(
            _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8",
            headers: [String: String] = [:]
        ) -> Response {
            data(Data(text.utf8), status: status, contentType: contentType, headers: headers)
        }

        public static func data(
            _ data: Data, status: Int = 200, contentType: String = "application/octet-stream",
            headers: [String: String] = [:]
        ) -> Response {
            var all = headers
            all["Content-Type"] = all["Content-Type"] ?? contentType
            return Response(status: status, headers: all, body: data)
        }

        public static func status(_ status: Int, headers: [String: String] = [:]) -> Response {
            Response(status: status, headers: headers)
        }

        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: ["Location": location])
        }

        /// Reads the request, then closes the connection without a byte of answer.
        public static var dropConnection: Response { Response(fault: .dropConnection) }

        /// Returns a copy with one more header (for repeated names such as Link or Set-Cookie).
        public func adding(_ name: String, _ value: String) -> Response {
            var copy = self
            copy.headers.append((name: name, value: value))
            return copy
        }

        public func with(delay: TimeInterval) -> Response {
            var copy = self
            copy.delay = delay
            return copy
        }

        public func with(fault: Fault) -> Response {
            var copy = self
            copy.fault = fault
            return copy
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Ways to misbehave, as real servers do.
    public enum Fault: Sendable, Equatable {
        /// Close the connection without answering.
        case dropConnection
        /// Announce the whole body's length, send only the first `after` bytes, then close.
        case truncateBody(after: Int)
        /// Send the first `after` bytes, go silent for `seconds`, then send the rest.
        case stallBody(after: Int, seconds: TimeInterval)
        /// Send the body `chunk` bytes at a time with `interval` seconds between chunks.
        case throttle(chunk: Int, interval: TimeInterval)
    }
}
