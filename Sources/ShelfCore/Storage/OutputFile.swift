import Foundation
import Glibc

/// A file the patron names for shelf to write (`shelf play --out book.wav`, `shelf cover BOOK --out cover.jpg`).
///
/// It is written the way a shell's `>` writes: through a symbolic link to the file it names, never by replacing
/// the link; and only a regular file: a path that names a folder, a device, a pipe or a socket is refused before a
/// byte is written. Replacing the path with a renamed temporary file (Foundation's atomic write, which shelf used)
/// turned a link into a copy and, run as root, `/dev/full` into a regular file.
public enum OutputFile {
    /// The regular file `path` stands for: itself, or what its links lead to (which need not exist yet).
    public static func target(_ path: String) throws -> String {
        var resolved = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(resolved, &info) == 0 else {
                guard errno == ENOENT else { throw failure("cannot look at", resolved, errno) }
                return resolved
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return resolved
            case S_IFLNK:
                let link = try FileManager.default.destinationOfSymbolicLink(atPath: resolved)
                resolved =
                    link.hasPrefix("/")
                    ? link : ((resolved as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
            case S_IFDIR:
                throw ShelfError(
                    .ioError, "cannot write a file where a folder is", subject: resolved,
                    hint: "Name a file inside it, e.g. \((resolved as NSString).appendingPathComponent("out")).")
            default:
                throw ShelfError(
                    .ioError, "is not a regular file (a device, pipe or socket): shelf writes only regular files",
                    subject: resolved,
                    hint:
                        "Name a new file; to send the bytes elsewhere, write to - (standard output) where the command allows it."
                )
            }
        }
        throw ShelfError(.ioError, "has too many symbolic links in a row", subject: path, hint: "Name the file itself.")
    }

    /// Opens the file for writing from its start, made with mode 0644 when missing, and gives its descriptor
    /// (the caller closes it); streaming writers use it, and `write(_:at:to:)` says why a write failed.
    public static func open(_ path: String) throws -> Int32 {
        let target = try target(path)
        let descriptor = Glibc.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create", target, errno) }
        return descriptor
    }

    /// Writes all of `bytes` at `offset` of an opened output file, or says why not (a full disk, a size limit).
    public static func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, to descriptor: Int32, path: String)
        throws
    {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw failure("cannot write", path, n < 0 ? errno : ENOSPC) }
            done += n
        }
    }

    /// Writes `data` as the whole file: to a temporary file beside the target, renamed over it, so a reader sees
    /// the old file or the new one.
    public static func write(_ data: Data, to path: String) throws {
        let target = try target(path)
        guard AtomicFile.replace(target, with: [UInt8](data), mode: 0o644) else {
            throw failure("cannot write", target, errno)
        }
    }

    /// "cannot write the file (No space left on device)", with what to do.
    public static func failure(_ verb: String, _ path: String, _ code: Int32) -> ShelfError {
        let cause = String(cString: strerror(code))
        let hint: String
        switch code {
        case ENOENT: hint = "Check that the folder exists."
        case EACCES, EPERM, EROFS: hint = "Name a file in a folder you may write to."
        case ENOSPC, EDQUOT, EFBIG: hint = "Free some space, or name a file on another disk."
        default: hint = "Check the path and the disk."
        }
        return ShelfError(.ioError, "\(verb) the file (\(cause))", subject: path, hint: hint)
    }
}
