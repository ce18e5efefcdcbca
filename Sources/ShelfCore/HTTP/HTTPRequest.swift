import Foundation

public enum HTTPMethod: String, Sendable {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", delete = "DELETE"

    /// Whether repeating the request cannot do more than doing it once (RFC 9110 §9.2.2).
    /// POST is not, so the client only retries it when the server cannot have acted on it.
    public var isIdempotent: Bool { self != .post }
}

/// What to send. A value type: build it, adjust it, hand it to `HTTPClient`.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// Overrides the client's total timeout for this request, in seconds.
    public var timeout: TimeInterval?
    /// True for a request that changes something at the server although its method says it may be repeated (a
    /// library's borrow and revoke links are GETs): it is never sent again once the server may have acted on it.
    public var changesState = false

    /// Whether sending it twice does no more than sending it once.
    public var isRepeatable: Bool { method.isIdempotent && !changesState }

    public init(
        _ method: HTTPMethod = .get, _ url: URL, headers: HTTPHeaders = [:],
        body: Data? = nil, timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Sets `Authorization: Basic …`. libcurl drops this header when a redirect leaves the host,
    /// so the credential never reaches a third party.
    public mutating func setBasicAuth(user: String, password: String) {
        let token = Data("\(user):\(password)".utf8).base64EncodedString()
        headers["Authorization"] = "Basic \(token)"
    }

    /// Sets `Authorization: Bearer …` (OAuth 2 access tokens, RFC 6750).
    public mutating func setBearerToken(_ token: String) {
        headers["Authorization"] = "Bearer \(token)"
    }

    /// Makes the request conditional on what an earlier response said, so an unchanged
    /// resource costs a 304 instead of a full body.
    public mutating func setConditional(_ validators: HTTPValidators) {
        if let etag = validators.etag { headers["If-None-Match"] = etag }
        if let lastModified = validators.lastModified { headers["If-Modified-Since"] = lastModified }
    }
}

/// The validators of a response, kept by a caller to make the next request conditional.
/// Both are stored verbatim: servers compare them as opaque strings.
public struct HTTPValidators: Sendable, Equatable, Codable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
