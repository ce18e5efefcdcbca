import Foundation

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    /// Where the answer came from after redirects.
    public var url: URL
    /// How many times the request was sent, retries included.
    public var attempts: Int

    public init(status: Int, headers: HTTPHeaders, body: Data, url: URL, attempts: Int = 1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.attempts = attempts
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
    public var isNotModified: Bool { status == 304 }

    public var validators: HTTPValidators {
        HTTPValidators(etag: headers["ETag"], lastModified: headers["Last-Modified"])
    }

    public var text: String? { String(data: body, encoding: .utf8) }

    /// `send` returns every answer, because callers need to read a 401's challenge or a 404's body.
    /// Call this when anything but 2xx or 304 means failure, to get an error a patron can act on.
    @discardableResult
    public func requireSuccess() throws -> HTTPResponse {
        if isSuccess || isNotModified { return self }
        throw HTTPError(
            .status(status, retryAfter: RetryAfter.seconds(from: headers)),
            url: url, attempts: attempts)
    }
}
