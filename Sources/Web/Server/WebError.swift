import Foundation
import Host

/// An answer that is not a success, written as an RFC 9457 problem document: what went wrong and what to do.
public struct WebError: Error, Sendable {
    public let status: Int
    public let title: String
    public let hint: String?
    /// A short machine-readable kind (`refused-host`, `no-session`, `unavailable`, …), for the front end.
    public let kind: String

    /// Only from the host's words (the initialisers below): the server writes no sentence of its own.
    private init(_ status: Int, _ title: String, hint: String? = nil, kind: String? = nil) {
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

    /// The problem document (RFC 9457): `detail` is the hint.
    struct Problem: Encodable {
        let type: String
        let title: String
        let status: Int
        let detail: String?
    }

    public var response: WebResponse {
        let problem = Problem(
            type: "https://shelf.invalid/problems/\(kind)", title: title, status: status, detail: hint)
        return WebResponse(
            status: status, contentType: "application/problem+json", body: Data(ReadiumJSON.encode(problem).utf8))
    }
}

extension WebError {
    /// The answer for a refusal the host words (`RequestProblem` and the other outcomes in `Sources/Host/Words`): its
    /// sentence and its browser hint, as they are. The server writes no sentence of its own.
    public init(_ status: Int, _ outcome: some PatronOutcome, kind: String? = nil) {
        let words = outcome.words(for: .browser)
        self.init(status, words.sentence, hint: words.hint, kind: kind)
    }

    /// The answer for what the host refused, by its sysexits code (the patron's mistake, something missing, the
    /// library's refusal, try later), in the host's words for the browser (`ShelfError.words(for: .browser)`).
    /// A host refusal answered with its own status and kind where its sysexits code does not say it (a loan not
    /// downloaded is something to do first, 409, though the host finds no file).
    init(_ status: Int, _ error: ShelfError, kind: String) {
        let words = error.words(for: .browser)
        self.init(status, words.sentence, hint: words.hint, kind: kind)
    }

    init(_ error: ShelfError) {
        let words = error.words(for: .browser)
        let (message, hint) = (words.sentence, words.hint)
        switch error.kind {
        case .usage: self.init(400, message, hint: hint, kind: "bad-request")
        case .badData: self.init(422, message, hint: hint, kind: "bad-data")
        case .noInput: self.init(404, message, hint: hint, kind: "not-found")
        case .unavailable: self.init(409, message, hint: hint, kind: "unavailable")
        case .temporary: self.init(503, message, hint: hint, kind: "try-again")
        case .permission: self.init(403, message, hint: hint, kind: "sign-in-refused")
        default: self.init(500, message, hint: hint, kind: "host-failure")
        }
    }
}
