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
        // Strings and an integer only: JSONSerialization cannot refuse them.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return WebResponse(status: status, contentType: "application/problem+json", body: data)
    }
}

extension WebError {
    /// The answer for what the host refused, by its sysexits code: the patron's mistake, something missing, the
    /// library's refusal, try later. The hint keeps only the sentences a browser user can act on (not the ones
    /// that name a command to type: the page offers its own way).
    init(hostExitCode code: Int32, message: String, hint: String?) {
        let hint = hint.flatMap(Self.browserHint)
        let message = Self.browserWords(message)
        // A message that already says to try again needs no second "Try again in a moment."
        let tryAgain = message.range(of: "try again", options: .caseInsensitive) == nil ? "Try again in a moment." : nil
        switch code {
        case 64: self.init(400, message, hint: hint, kind: "bad-request")
        case 65: self.init(422, message, hint: hint, kind: "bad-data")
        case 66: self.init(404, message, hint: hint, kind: "not-found")
        case 69: self.init(409, message, hint: hint, kind: "unavailable")
        case 75: self.init(503, message, hint: hint ?? tryAgain, kind: "try-again")
        case 77: self.init(403, message, hint: hint, kind: "sign-in-refused")
        default: self.init(500, message.isEmpty ? "shelf stopped with status \(code)" : message, hint: hint, kind: "host-failure")
        }
    }

    /// The host's words without what only a terminal user acts on: an environment variable a command reads
    /// ("shelf waits at most 20 s for a command's answers (SHELF_DEADLINE changes it)").
    static func browserWords(_ message: String) -> String {
        message.replacingOccurrences(of: #"\s*\(SHELF_[A-Z_]+ [^)]*\)"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "for a command's answers", with: "for the library's answers")
    }

    static func browserHint(_ hint: String) -> String? {
        let kept = hint.components(separatedBy: ". ").filter { !$0.contains("`shelf ") }
            .joined(separator: ". ").trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }
}
