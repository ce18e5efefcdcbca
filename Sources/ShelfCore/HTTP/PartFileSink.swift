import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Writes a download into `<destination>.part`, deciding from the first bytes of the final
/// response whether they continue the partial file (206) or replace it (200).
///
/// The destination itself is never written here: only a complete, verified `.part` is renamed
/// onto it, so a reader of the destination never sees half a book.
final class PartFileSink: BodySink {
    let path: String
    let resumeFrom: Int64
    let limit: Int64
    let progress: ((DownloadProgress) -> Void)?

    private var fd: Int32 = -1
    /// Where this response's body starts in the file.
    private(set) var base: Int64 = 0
    private(set) var received: Int64 = 0
    /// The size the whole file should have, when the server said.
    private(set) var expectedTotal: Int64?
    /// Why writing stopped, when it was this sink's doing.
    private(set) var failure: HTTPError.Kind?
    /// A response that was not a body to keep (error, 304, 416); nothing was written.
    private(set) var refusedStatus: Int?
    /// A 206 that does not start where the partial file ends.
    private(set) var rangeMismatch = false

    var fileSize: Int64 { base + received }

    init(path: String, resumeFrom: Int64, limit: Int64, progress: ((DownloadProgress) -> Void)?) {
        self.path = path
        self.resumeFrom = resumeFrom
        self.limit = limit
        self.progress = progress
        self.base = resumeFrom
    }

    deinit { if fd >= 0 { close(fd) } }

    func receive(_ bytes: UnsafeRawBufferPointer, status: Int, headers: HTTPHeaders) -> Bool {
        if fd < 0, !begin(status: status, headers: headers) { return false }
        guard fileSize + Int64(bytes.count) <= limit else {
            failure = .bodyTooLarge(limit: limit)
            return false
        }
        guard let start = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, start + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return fail(errno)
            }
            offset += written
        }
        received += Int64(bytes.count)
        progress?(DownloadProgress(bytesWritten: fileSize, totalBytes: expectedTotal))
        return true
    }

    /// For a 200 without a body: the file is empty, and must exist to be renamed.
    func ensureOpened(status: Int, headers: HTTPHeaders) -> Bool {
        fd >= 0 || begin(status: status, headers: headers)
    }

    /// Flushes to disk, so the rename that follows cannot publish a file whose bytes are lost
    /// by a crash.
    func finish() -> Bool {
        guard fd >= 0 else { return true }
        defer { close(fd); fd = -1 }
        return fsync(fd) == 0 || fail(errno)
    }

    func discard() {
        if fd >= 0 { close(fd); fd = -1 }
    }

    private func begin(status: Int, headers: HTTPHeaders) -> Bool {
        let length = headers["Content-Length"].flatMap { Int64($0) }
        switch status {
        case 206:
            guard let range = ContentRange(headers["Content-Range"]), range.first == resumeFrom else {
                rangeMismatch = true
                return false
            }
            base = resumeFrom
            expectedTotal = range.total ?? length.map { resumeFrom + $0 }
        case 200..<300:
            // 200, or another success that still carries the whole resource (203, 204).
            base = 0
            expectedTotal = length
        default:
            refusedStatus = status
            return false
        }
        if let expectedTotal, expectedTotal > limit {
            failure = .bodyTooLarge(limit: limit)
            return false
        }
        // Opened without O_TRUNC and locked first: a second shelf downloading the same file
        // must be refused before it can wipe what the first one wrote.
        fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return fail(errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            failure = .busy(path: path)
            return false
        }
        guard ftruncate(fd, off_t(base)) == 0, lseek(fd, off_t(base), SEEK_SET) >= 0 else { return fail(errno) }
        PartFileValidator.store(PartFileValidator.value(from: headers), fd: fd)
        return true
    }

    private func fail(_ code: Int32) -> Bool {
        failure = .file(path: path, reason: String(cString: strerror(code)))
        return false
    }
}

/// `Content-Range: bytes first-last/total` (total may be `*`), or `bytes */total` on a 416.
struct ContentRange {
    var first: Int64?
    var last: Int64?
    var total: Int64?

    init?(_ value: String?) {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard halves.count == 2 else { return nil }
        total = Int64(halves[1])
        if halves[0] != "*" {
            let bounds = halves[0].split(separator: "-", maxSplits: 1)
            guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
                return nil
            }
            self.first = first
            self.last = last
        }
    }
}
