import CCurl
import Foundation

extension HTTPClient {
    /// Downloads `request` (a GET) to `destination`, through `<destination>.part`.
    ///
    /// - A `.part` left by an earlier attempt is resumed with `Range`; a server that answers 200
    ///   instead of 206 gets a fresh start.
    /// - The length the server announced is checked; a short file is an error and its `.part`
    ///   stays for the next attempt (or the next run) to resume.
    /// - Only a complete file is renamed onto `destination`, atomically; on any failure an
    ///   earlier `destination` is untouched and a missing one stays missing.
    /// - A conditional request (`setConditional`) answered 304 leaves `destination` as it was.
    ///
    /// `progress` runs on the calling thread after each write; it may go back once, to zero,
    /// when a server refuses to resume. `isCancelled` is polled at least once a second; a
    /// cancelled download keeps its `.part`.
    public func download(
        _ request: HTTPRequest, to destination: URL,
        progress: ((DownloadProgress) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil
    ) throws -> DownloadResult {
        try validate(request)
        guard request.method == .get else {
            throw HTTPError(.invalidRequest("only GET can be downloaded to a file"), url: request.url)
        }
        let partPath = destination.path + ".part"
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(),
                withIntermediateDirectories: true)
        } catch {
            throw HTTPError(
                .file(
                    path: destination.deletingLastPathComponent().path,
                    reason: "the folder cannot be created"), url: request.url)
        }

        // Ctrl-C (the host's cancel flag) ends a download at once; its `.part` stays for the next attempt.
        let isCancelled = isCancelled ?? { Interrupt.requested }
        var schedule = RetrySchedule(configuration.retry)
        var freshStarts = 0
        while true {
            schedule.startAttempt()
            let existing = Self.fileSize(partPath) ?? 0
            var attempt = request
            if existing > 0 {
                attempt.headers["Range"] = "bytes=\(existing)-"
                if !attempt.headers.contains("If-Range"), let validator = PartFileValidator.load(path: partPath) {
                    attempt.headers["If-Range"] = validator
                }
            }
            let sink = PartFileSink(
                path: partPath, resumeFrom: existing,
                limit: configuration.maxDownloadSize, progress: progress)
            let options = CurlTransfer.Options(
                totalTimeout: request.timeout ?? configuration.downloadTimeout,
                maxBodySize: configuration.maxDownloadSize,
                acceptCompression: false)
            let outcome = CurlTransfer(
                attempt, configuration: configuration, options: options,
                sink: sink, isCancelled: isCancelled
            ).perform()

            func result(notModified: Bool, bytes: Int64) -> DownloadResult {
                DownloadResult(
                    destination: destination, bytes: bytes, resumedFrom: notModified ? 0 : sink.base,
                    notModified: notModified, status: outcome.status, headers: outcome.headers,
                    url: outcome.effectiveURL ?? request.url, attempts: schedule.attempts)
            }
            func startOver() throws {
                // A resume the server will not honour: drop the partial file, once, and fetch it all.
                sink.discard()
                unlink(partPath)
                freshStarts += 1
                if freshStarts > 1 {
                    throw error(.network, request, schedule, detail: "the server keeps refusing to resume")
                }
            }

            if let failure = sink.failure {
                sink.discard()
                throw error(failure, request, schedule)
            }
            if outcome.cancelled {
                sink.discard()
                throw error(.cancelled, request, schedule)
            }
            if sink.rangeMismatch {
                try startOver()
                continue
            }

            var failure: HTTPError
            var serverDelay: TimeInterval?
            if outcome.code == CURLE_OK || sink.refusedStatus != nil {
                let status = outcome.status
                if status == 304 {
                    sink.discard()
                    unlink(partPath)
                    return result(notModified: true, bytes: Self.fileSize(destination.path) ?? 0)
                }
                if status == 416, existing > 0 {
                    // Either the partial file is already whole, or it is longer than the resource now.
                    if ContentRange(outcome.headers["Content-Range"])?.total == existing {
                        try publish(partPath, to: destination, request, schedule)
                        return result(notModified: false, bytes: existing)
                    }
                    try startOver()
                    continue
                }
                if (200..<300).contains(status) {
                    guard sink.ensureOpened(status: status, headers: outcome.headers) else {
                        if sink.rangeMismatch { try startOver(); continue }
                        throw error(sink.failure ?? .network, request, schedule)
                    }
                    if let expected = sink.expectedTotal, sink.fileSize != expected {
                        failure = error(.truncated(expected: expected, received: sink.fileSize), request, schedule)
                        sink.discard()
                    } else {
                        guard sink.finish() else { throw error(sink.failure ?? .network, request, schedule) }
                        try publish(partPath, to: destination, request, schedule)
                        return result(notModified: false, bytes: sink.fileSize)
                    }
                } else {
                    serverDelay = RetryAfter.seconds(from: outcome.headers)
                    failure = error(.status(status, retryAfter: serverDelay), request, schedule)
                    sink.discard()
                }
            } else {
                let kind: HTTPError.Kind =
                    outcome.code == CURLE_PARTIAL_FILE
                    ? .truncated(expected: sink.expectedTotal, received: sink.fileSize)
                    : kind(of: outcome, received: sink.fileSize, sizeLimit: configuration.maxDownloadSize)
                failure = error(kind, request, schedule, detail: outcome.message)
                // The bytes that did arrive stay in the .part; the next attempt resumes after them.
                _ = sink.finish()
            }
            guard RetrySchedule.isRetryable(failure.kind, repeatable: request.isRepeatable),
                let delay = schedule.nextDelay(serverDelay: serverDelay)
            else { throw failure }
            try pause(delay, request, schedule, isCancelled)
        }
    }

    /// rename(2) replaces the destination in one step: readers see the old file or the new one.
    private func publish(
        _ partPath: String, to destination: URL, _ request: HTTPRequest,
        _ schedule: RetrySchedule
    ) throws {
        guard rename(partPath, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw error(.file(path: destination.path, reason: reason), request, schedule)
        }
        // Make the rename itself durable, not only the file's bytes.
        let directory = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
