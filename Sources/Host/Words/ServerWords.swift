// What the browser app's server (`shelf serve`) says about itself: why it cannot start (the address, the port, the
// HTTP library, its own files), and, as it runs, the requests it refused (on its standard error, one line each).
// Starting is done from a terminal, so those hints name its options; a browser never sees a server that did not start.

/// Why the browser app's server cannot start or serve its own files.
public enum ServerProblem: Sendable, Equatable {
    /// Another program holds the port, or the address is not this computer's.
    case cannotListen(address: String, port: UInt16)
    /// `--listen` was given something that is not an IPv4 or IPv6 literal.
    case notAnIPAddress(String)
    /// libmicrohttpd could not be loaded; `detail` is the loader's own account (what, and the package to install).
    case noHTTPServer(detail: String)
    /// The browser app's files (index.html and the rest) are not where shelf looks for them.
    case webFilesMissing
    /// The web folder has no OpenAPI files (an incomplete install).
    case openAPIMissing(folder: String)
    /// One of the web folder's OpenAPI files is not a JSON object.
    case openAPINotJSON(path: String)

    /// The error the command and the server throw: a terminal prints it after "shelf: ", the browser gets its
    /// sentence (`ShelfError.words(for:)`).
    public var error: ShelfError {
        switch self {
        case .cannotListen(let address, let port):
            return ShelfError(
                .unavailable, "cannot listen on \(address) port \(port)",
                next: NextStep(
                    terminal: "Is another program using that port? Choose another with --port N.", browser: nil))
        case .notAnIPAddress(let address):
            return ShelfError(
                .usage, "\(address) is not an IP address",
                next: NextStep(terminal: "Give --listen an IPv4 or IPv6 address, such as 192.168.1.20.", browser: nil))
        case .noHTTPServer(let detail):
            return ShelfError(.unavailable, detail)
        case .webFilesMissing:
            return ShelfError(
                .unavailable, "the browser app’s files are missing",
                next: NextStep(
                    terminal: "Reinstall shelf (`make install`), or set SHELF_WEB_ROOT to its web folder.", browser: nil
                ))
        case .openAPIMissing(let folder):
            return ShelfError(
                .software, "no OpenAPI files are in \(folder)",
                next: NextStep(terminal: "Reinstall shelf (`make install`).", browser: "Reinstall shelf."))
        case .openAPINotJSON(let path):
            return ShelfError(
                .software, "\(path) is not a JSON object",
                next: NextStep(terminal: "Reinstall shelf (`make install`).", browser: "Reinstall shelf."))
        }
    }
}

/// The same words as a sentence, for the server to answer a request with (`WebError`) when its own files fail it.
extension ServerProblem: PatronOutcome {
    public var sentence: String { ShelfError.sentence(error.message) }
    public var next: NextStep? { error.next }
}

/// What `shelf serve` says on its standard error as it runs.
public enum ServerNotice: Sendable, Equatable {
    /// A request the server refused (a page or a book that tried what it may not): the request as it came, cut
    /// short and made safe to print by the server, and the refusal's sentence.
    case refused(method: String, path: String, from: String, reason: String)
}

extension ServerNotice: PatronOutcome {
    public var sentence: String {
        switch self {
        case .refused(let method, let path, let from, let reason):
            return "The server refused \(method) \(path) from \(from). \(reason)"
        }
    }
}
