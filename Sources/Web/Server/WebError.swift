import Foundation

/// An answer that is not a success, written as an RFC 9457 problem document: what went wrong and what to do.
public struct WebError: Error, Sendable {
    public let status: Int
    public let title: String
    public let hint: String?
    /// A short machine-readable kind (`refused-host`, `no-session`, `unavailable`, …), for the front end.
    public let kind: String

    public init(_ status: Int, _ title: String, hint: String? = nil, kind: String? = nil) {
        self.status = status
        self.title = title
        self.hint = hint
        self.kind = kind ?? WebError.defaultKind(status)
    }

    static func defaultKind(_ status: Int) -> String {
        switch status {
        case 400: return "bad-request"
        case 401: return "no-session"
        case 403: return "forbidden"
        case 404: return "not-found"
        case 405: return "method-not-allowed"
        case 409: return "unavailable"
        case 413: return "too-large"
        case 503: return "try-again"
        default: return status >= 500 ? "server-error" : "error"
        }
    }

    public var response: WebResponse {
        var object: [String: Any] = ["type": "https://shelf.invalid/problems/\(kind)", "title": title, "status": status]
        if let hint { object["detail"] = hint }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return WebResponse(status: status, contentType: "application/problem+json", body: data)
    }
}
