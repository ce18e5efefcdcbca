import ShelfPlugins
import ShelfValues
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// What a book on the shelf is, recorded when it is added, to notice when its file no longer is that book (a linked
/// file replaced by another, a copy swapped or damaged): the publication's identifier and a fingerprint of the
/// file's content.
public struct BookIdentity: Equatable, Sendable {
    /// The publication's own identifier, when it has one.
    public var identifier: String?
    /// The file's size and a hash of its first and last 64 KiB: a zip ends with its central directory, which holds
    /// every entry's CRC and size, so a change anywhere in a book changes it; and it costs two small reads per open.
    public var fingerprint: String

    public init(identifier: String?, fingerprint: String) {
        self.identifier = identifier
        self.fingerprint = fingerprint
    }

    static let span = 64 * 1024

    /// The fingerprint of the file at `path`, or nil when it cannot be read.
    public static func fingerprint(path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var hash: UInt64 = 0xcbf29ce484222325
        var buffer = [UInt8](repeating: 0, count: span)
        for offset in Set([0, max(0, size - span)]).sorted() {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, span, off_t(offset)) }
            guard count >= 0 else { return nil }
            for byte in buffer[0..<count] { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        }
        return "\(size):" + String(hash, radix: 16)
    }

    /// The identity of `publication`, opened from `path`.
    static func of(_ publication: Publication, path: String) -> BookIdentity? {
        guard let fingerprint = fingerprint(path: path) else { return nil }
        return BookIdentity(identifier: identifier(publication), fingerprint: fingerprint)
    }

    static func identifier(_ publication: Publication) -> String? {
        guard
            let id = publication.manifest.metadata["identifier"]?.string?.trimmingCharacters(
                in: .whitespacesAndNewlines),
            !id.isEmpty
        else { return nil }
        return id
    }

    /// What to tell the patron when the file of `book` is no longer what was added, or nil when it still is.
    static func change(of book: ShelfBook, from recorded: BookIdentity, to now: BookIdentity, title nowTitle: String?)
        -> String?
    {
        guard recorded.fingerprint != now.fingerprint else { return nil }
        let title = book.book.title
        if recorded.identifier != now.identifier {
            let other = nowTitle.map { "“\($0)”" } ?? "another book"
            return
                "The file of “\(title)” now holds \(other), not the book you added: your place in “\(title)” is not saved while it does."
        }
        return
            "The file of “\(title)” has changed since it was added (another edition, or a damaged copy): your place is not saved. "
            + "Add the file again (`shelf add FILE`) to read this edition from here on."
    }
}
