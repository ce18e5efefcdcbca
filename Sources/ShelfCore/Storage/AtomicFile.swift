import Glibc

/// Replaces a file in one step: the bytes go to a temporary file beside it, which is then renamed over
/// it, so a reader sees the old file or the new one, never half of one.
///
/// For shelf's caches, written on the path of a command: Foundation's `Data.write(options: .atomic)` took
/// close to a millisecond for a memo (attribute look-ups, a temporary folder dance). No fsync: a cache lost
/// in a crash is only recomputed.
public enum AtomicFile {
    @discardableResult
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) -> Bool {
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { return false }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
