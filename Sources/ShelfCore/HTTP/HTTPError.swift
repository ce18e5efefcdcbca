import Foundation

/// A failed HTTP exchange, described for the patron: what failed, where, and what to do next.
///
/// `url` and `detail` are scrubbed of credentials (user info, tokens in the query, header
/// values) before they are stored, so printing or logging an `HTTPError` is always safe.
public struct HTTPError: Error, LocalizedError, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        case invalidRequest(String)
        case unsupportedScheme(String)
        case cannotResolveHost
        case cannotConnect
        case timedOut
        case tls
        case tooManyRedirects(limit: Int)
        /// A redirect pointed somewhere other than http or https (file:, ftp:, …).
        case redirectRefused
        case bodyTooLarge(limit: Int64)
        /// The connection ended before the announced length arrived.
        case truncated(expected: Int64?, received: Int64)
        /// The server answered with a status that means failure.
        case status(Int, retryAfter: TimeInterval?)
        case cancelled
        case file(path: String, reason: String)
        /// Another shelf (a second command, the browser app) is downloading into the same file right now.
        case busy(path: String)
        /// Any other transport failure (reset, empty reply, protocol error).
        case network
    }

    public let kind: Kind
    /// The request's address without credentials.
    public let url: String
    /// libcurl's own words, scrubbed; nil when there is nothing to add.
    public let detail: String?
    public let attempts: Int

    public init(_ kind: Kind, url: URL, detail: String? = nil, attempts: Int = 1, secrets: [String] = []) {
        self.kind = kind
        self.url = Redaction.string(for: url)
        self.detail = detail.map { Redaction.scrub($0, secrets: secrets + Redaction.secrets(in: url)) }
            .flatMap { $0.isEmpty ? nil : $0 }
        self.attempts = attempts
    }

    /// The HTTP status when the server answered, nil for transport failures.
    public var status: Int? {
        if case .status(let code, _) = kind { return code }
        return nil
    }

    public var errorDescription: String? { description }

    public var description: String {
        var text = summary
        if attempts > 1 { text += " (gave up after \(attempts) attempts)" }
        return text
    }

    private var because: String { detail.map { ": \($0)" } ?? "" }

    private var summary: String {
        switch kind {
        case .invalidRequest(let reason):
            return "Cannot send a request to \(url): \(reason)."
        case .unsupportedScheme(let scheme):
            return "Cannot open \(url): shelf only fetches http and https addresses, not \(scheme)."
        case .cannotResolveHost:
            return "Could not find the server of \(url)\(because). Check the address and your internet connection."
        case .cannotConnect:
            return "Could not connect to \(url)\(because). Check your internet connection; "
                + "if it works, the server may be down, so try again later."
        case .timedOut:
            return "The server at \(url) took too long to answer\(because). "
                + "Check your internet connection, or try again later if the server is busy."
        case .tls:
            return "Could not make a secure connection to \(url)\(because). shelf never connects without a "
                + "verified certificate; check this computer's date and time, or tell the library."
        case .tooManyRedirects(let limit):
            return "\(url) redirected more than \(limit) times, so shelf stopped following it. "
                + "The address may be outdated; check it or tell the library."
        case .redirectRefused:
            return "\(url) redirected to an address that is not http or https\(because); shelf refused to follow it."
        case .bodyTooLarge(let limit):
            return
                "The answer from \(url) is larger than the \(Self.size(limit)) shelf accepts, so it stopped reading. "
                + "The server may be misbehaving; tell the library if this persists."
        case .truncated(let expected, let received):
            let of = expected.map { " of \(Self.size($0))" } ?? ""
            return "The transfer from \(url) stopped after \(Self.size(received))\(of). "
                + "Check your internet connection and run the same command again: a download resumes where it stopped."
        case .status(let code, let retryAfter):
            return "The server at \(url) said \(code) (\(Self.reason(code)))\(because). \(advice(code, retryAfter))"
        case .cancelled:
            return "The transfer from \(url) was cancelled."
        case .file(let path, let reason):
            return
                "Could not save the download from \(url) to \(path): \(reason). Check free disk space and permissions."
        case .busy(let path):
            return "Another shelf command is downloading \(url) into \(path) right now, so this one left it alone. "
                + "Wait for that one to finish, or run this command again when it has."
        case .network:
            return "The connection to \(url) failed\(because). Check your internet connection and try again."
        }
    }

    private func advice(_ code: Int, _ retryAfter: TimeInterval?) -> String {
        switch code {
        case 401: return "Check your library card number or password."
        case 403: return "Your account may not have access to this; check it with the library."
        case 404, 410: return "It is not there any more; refresh the catalog or check the address."
        case 429:
            return "Too many requests: "
                + (retryAfter.map { "wait \(Self.duration($0)) and try again." } ?? "wait a little and try again.")
        case 500...599:
            return "The server has a problem; try again later"
                + (retryAfter.map { " (it asked to wait \(Self.duration($0)))." } ?? ".")
        default: return "The request was refused; check the address, or tell the library if this persists."
        }
    }

    static func reason(_ code: Int) -> String {
        switch code {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return code < 500 ? "Client Error" : "Server Error"
        }
    }

    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        if bytes < 1 << 30 { return String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        return String(format: "%.1f GiB", Double(bytes) / 1_073_741_824)
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 120 { return "\(whole) s" }
        if whole < 7200 { return "\(whole / 60) min" }
        return "\(whole / 3600) h"
    }
}
