import Glibc

/// Tells whether a file is still the file a cache entry was made from: same size, modification and
/// change times, and inode. The change time cannot be set back by a user, so a file replaced in place
/// with its old modification time restored still counts as new.
public struct FileIdentity: Codable, Equatable {
    public var size: Int64
    public var modified: Int64  // nanoseconds
    public var changed: Int64  // nanoseconds
    public var inode: UInt64

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
    }

    public init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
        (self.size, self.modified, self.changed, self.inode) = (size, modified, changed, inode)
    }
}
