import Foundation

/// The archive the last probe read, kept for the open that follows it: a host probes a file and
/// then opens it with the plugin that answered, and reading a central directory twice would cost
/// twice (a 600-chapter book's holds 600 names to check and index).
///
/// One slot per plugin, taken by the open of the same unchanged file (device, inode, size and
/// modification time) with the same limits; a later probe replaces it.
enum ProbedArchive {
    private static let lock = NSLock()
    // Read and written only under `lock`.
    nonisolated(unsafe) private static var kept: (path: String, identity: FileIdentity, archive: ZipArchive)?

    static func keep(_ archive: ZipArchive, path: String) {
        guard let identity = FileIdentity(path) else { return }
        lock.lock()
        kept = (path, identity, archive)
        lock.unlock()
    }

    /// The kept archive when it is this file as it was probed (and then no longer kept).
    static func take(path: String, limits: ZipLimits) -> ZipArchive? {
        lock.lock()
        guard let k = kept else { lock.unlock(); return nil }
        kept = nil
        lock.unlock()
        guard k.path == path, k.archive.limits == limits, FileIdentity(path) == k.identity else { return nil }
        return k.archive
    }
}

/// What tells one version of a file from another without reading it.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec

    init?(_ path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = st.st_mtim
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }
}
