import ShelfCore
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The watcher's lock: `watch.lock` in shelf's data folder, held with `flock` for as long as the watcher runs.
/// The kernel drops it when the process ends, however it ends, so a crash never leaves a stale lock.
public final class WatchLock {
    public static let fileName = "watch.lock"
    private var descriptor: Int32

    /// Takes the lock, or throws `.temporary` when another watcher holds it.
    public init(directories: ShelfDirectories) throws {
        let folder = try directories.createData()
        let path = folder.appendingPathComponent(Self.fileName).path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ShelfError(
                .ioError, "cannot open the watcher's lock file (\(String(cString: strerror(errno))))", subject: path)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, buffer.count)
            let holder =
                count > 0
                ? String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            Glibc.close(descriptor)
            descriptor = -1
            throw ShelfError(
                .temporary, "another shelf watch is already running" + (holder.isEmpty ? "" : " (process \(holder))"),
                subject: path, hint: "Only one watcher runs at a time; this one stops here.")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit { release() }

    public func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        Glibc.close(descriptor)
        descriptor = -1
    }
}
