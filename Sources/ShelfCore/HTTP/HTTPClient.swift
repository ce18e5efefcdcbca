import CCurl
import Foundation

/// The host's one HTTP client, over libcurl.
///
/// Every call runs on the calling thread with its own libcurl handle, so one client may be
/// used from many threads at once. Calls block; run them off any thread that must stay responsive.
public final class HTTPClient: Sendable {
    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Sends the request, following redirects and retrying transient failures, and returns the
    /// final answer whatever its status (see `HTTPResponse.requireSuccess()`).
    ///
    /// Throws `HTTPError` when no usable answer arrived: network failure after the retries,
    /// timeout, too many or refused redirects, a body above `maxBodySize`, or cancellation.
    public func send(_ request: HTTPRequest, isCancelled: (() -> Bool)? = nil) throws -> HTTPResponse {
        try validate(request)
        let deadline = configuration.commandDeadline.map(CommandDeadline.current(orNew:))
        // Ctrl-C (the host's cancel flag) ends a request at once, whoever sent it.
        let cancelled = isCancelled ?? { Interrupt.requested }
        let waiting = WaitReporter(url: request.url, limit: deadline?.seconds)
        defer { waiting.finish() }
        var schedule = RetrySchedule(configuration.retry)
        while true {
            if let deadline, deadline.remaining <= 0 {
                throw error(.timedOut, request, schedule, detail: Self.deadlineWords(deadline))
            }
            schedule.startAttempt()
            let sink = MemorySink(limit: configuration.maxBodySize)
            let allowed = min(request.timeout ?? configuration.requestTimeout, deadline?.remaining ?? .infinity)
            let options = CurlTransfer.Options(
                totalTimeout: allowed,
                maxBodySize: configuration.maxBodySize, acceptCompression: true)
            let outcome = CurlTransfer(
                request, configuration: configuration, options: options,
                sink: sink, isCancelled: cancelled, tick: waiting.tick
            ).perform()

            let failure: HTTPError
            if sink.exceeded || outcome.code == CURLE_FILESIZE_EXCEEDED {
                throw error(.bodyTooLarge(limit: configuration.maxBodySize), request, schedule)
            } else if outcome.cancelled {
                throw error(.cancelled, request, schedule)
            } else if outcome.code != CURLE_OK {
                let ranOut = outcome.code == CURLE_OPERATION_TIMEDOUT && (deadline?.remaining ?? 1) <= 0.05
                failure = error(
                    kind(of: outcome, received: Int64(sink.data.count), sizeLimit: configuration.maxBodySize),
                    request, schedule,
                    detail: ranOut ? deadline.map(Self.deadlineWords) : outcome.message)
            } else {
                let response = HTTPResponse(
                    status: outcome.status, headers: outcome.headers, body: sink.data,
                    url: outcome.effectiveURL ?? request.url, attempts: schedule.attempts)
                let kind = HTTPError.Kind.status(
                    response.status, retryAfter: RetryAfter.seconds(from: response.headers))
                guard !response.isSuccess, RetrySchedule.isRetryable(kind, repeatable: request.isRepeatable),
                    let delay = schedule.nextDelay(serverDelay: RetryAfter.seconds(from: response.headers)),
                    delay < deadline?.remaining ?? .infinity
                else { return response }
                try pause(delay, request, schedule, cancelled, tick: waiting.tick)
                continue
            }
            guard RetrySchedule.isRetryable(failure.kind, repeatable: request.isRepeatable),
                let delay = schedule.nextDelay(serverDelay: nil), delay < deadline?.remaining ?? .infinity
            else { throw failure }
            try pause(delay, request, schedule, cancelled, tick: waiting.tick)
        }
    }

    /// Said to the patron of either face: the environment variable that changes the wait is the terminal's hint
    /// (CatalogClient.shelfError), since only a command reads it.
    static func deadlineWords(_ deadline: CommandDeadline) -> String {
        "shelf waits at most \(HTTPError.duration(deadline.seconds)) for an answer"
    }

    /// Refuses what must never reach libcurl: other schemes, and header text that could smuggle
    /// a second header or request (CR, LF, NUL).
    func validate(_ request: HTTPRequest) throws {
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw HTTPError(
                .unsupportedScheme(scheme.isEmpty ? "an address without a scheme" : scheme + ":"),
                url: request.url)
        }
        guard request.url.host?.isEmpty == false else {
            throw HTTPError(.invalidRequest("the address has no host"), url: request.url)
        }
        // Scalars, not Characters: "\r\n" is a single Character and would slip past a Character test.
        let forbidden: (Unicode.Scalar) -> Bool = { $0 == "\r" || $0 == "\n" || $0 == "\0" }
        for field in request.headers
        where field.name.isEmpty || field.name.unicodeScalars.contains(where: forbidden)
            || field.name.contains(":") || field.value.unicodeScalars.contains(where: forbidden)
        {
            let shown = String(String.UnicodeScalarView(field.name.unicodeScalars.filter { !forbidden($0) }))
            throw HTTPError(
                .invalidRequest("the header \"\(shown)\" is malformed"),
                url: request.url)
        }
    }

    /// Waits between attempts in short slices so that cancellation is noticed promptly.
    func pause(
        _ delay: TimeInterval, _ request: HTTPRequest, _ schedule: RetrySchedule,
        _ isCancelled: (() -> Bool)?, tick: (() -> Void)? = nil
    ) throws {
        let end = Date().addingTimeInterval(delay)
        while Date() < end {
            if isCancelled?() == true { throw error(.cancelled, request, schedule) }
            tick?()
            Thread.sleep(forTimeInterval: min(0.05, max(0, end.timeIntervalSinceNow)))
        }
    }

    func error(
        _ kind: HTTPError.Kind, _ request: HTTPRequest, _ schedule: RetrySchedule,
        detail: String? = nil
    ) -> HTTPError {
        HTTPError(
            kind, url: request.url, detail: detail, attempts: schedule.attempts,
            secrets: Redaction.secrets(in: request.headers))
    }

    /// Sorts libcurl's many codes into the few a patron can act on differently.
    func kind(of outcome: CurlTransfer.Outcome, received: Int64, sizeLimit: Int64) -> HTTPError.Kind {
        switch outcome.code {
        case CURLE_UNSUPPORTED_PROTOCOL: return .redirectRefused
        case CURLE_URL_MALFORMAT: return .invalidRequest("the address is malformed")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotResolveHost
        case CURLE_COULDNT_CONNECT: return .cannotConnect
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(limit: configuration.maxRedirects)
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_FILESIZE_EXCEEDED: return .bodyTooLarge(limit: sizeLimit)
        case CURLE_PARTIAL_FILE:
            let expected = outcome.headers["Content-Length"].flatMap { Int64($0) }
            return .truncated(expected: expected, received: received)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND:
            return .tls
        default: return .network
        }
    }
}
