import CLibZip
#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// A read-only zip archive read with libzip: its central directory read once and checked against
/// `ZipLimits`, each entry inflated on demand; the archive is never unpacked as a whole. Shared by the
/// host (to sniff a file's type) and the plugins (EPUB, audiobook and LPF packages).
///
/// libzip is opened on first use (see CLibZip.h). It finds the end record (also behind a comment
/// that holds false ones), reads zip64 directories, decodes code page 437 names, and checks each
/// entry's local header, CRC and size as it is read; what it leaves to its callers is checked here:
/// the limits, names that escape the book, two entries of one name, unsupported methods.
///
/// Threads: a libzip archive (`zip_t`) is not safe for concurrent use, and its entries share one
/// file position. So one `ZipReader` may be used from several threads at once, and each read holds
/// the archive's lock from opening an entry to closing it: reads of one book from several threads
/// take turns, entry by entry (a book's entries are small; an audiobook track being copied out holds
/// the lock for the copy). A `stream` sink must not read from the same reader.
public final class ZipReader: @unchecked Sendable {
    public let limits: ZipLimits
    public private(set) var entries: [ZipEntry] = []
    public private(set) var warnings: [String] = []
    private var byName: [String: Int] = [:]
    /// Lowercased names, for `entry(caseInsensitive:)`: scanning every name on each miss let a book with
    /// many mis-cased references cost its entries times its references.
    private let byLowercasedName = Mutex<[String: Int]?>(nil)
    let archive: Mutex<Archive>

    /// libzip's archive handle. Unchecked Sendable: only ever used under `archive`'s lock.
    struct Archive: @unchecked Sendable {
        let handle: OpaquePointer
    }

    public init(path: String, limits: ZipLimits = .default) throws {
        self.limits = limits
        let handle = try Self.open(path)
        archive = Mutex(Archive(handle: handle))
        // A failure from here on still runs deinit (every property is set), which discards the handle.
        try readDirectory(handle)
    }

    deinit { archive.withLock { shelf_zip_discard($0.handle) } }

    public func entry(named name: String) -> ZipEntry? {
        byName[name].map { entries[$0] }
    }

    public func contains(_ name: String) -> Bool { byName[name] != nil }

    /// Finds an entry ignoring case, for books whose hrefs disagree with their file names in case.
    public func entry(caseInsensitive name: String) -> ZipEntry? {
        if let e = entry(named: name) { return e }
        return byLowercasedName.withLock { index in
            // Made on the first miss, not on every open: most books never ask.
            if index == nil {
                var made: [String: Int] = [:]
                for (i, e) in entries.enumerated() where made[e.name.lowercased()] == nil {
                    made[e.name.lowercased()] = i
                }
                index = made
            }
            return index![name.lowercased()].map { entries[$0] }
        }
    }

    /// The first entry by position in the directory (for EPUB's `mimetype`-first check).
    public var firstEntryName: String? { entries.min(by: { $0.index < $1.index })?.name }

    // MARK: The directory

    private static func open(_ path: String) throws -> OpaquePointer {
        // Checked first for a message that names the cause: libzip says only that it could not open.
        var st = stat()
        guard stat(path, &st) == 0 else {
            let code = errno
            if code == ENOENT { throw ZipError(.notFound, "no file at \(path)") }
            throw ZipError(.io, "the file could not be read (\(String(cString: strerror(code))))", at: path)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw ZipError(.io, "is not a regular file", at: path) }
        var code: Int32 = 0
        if let handle = shelf_zip_open(path, &code) { return handle }
        switch Int(code) {
        case -1: throw ZipError(.unsupported, String(cString: shelf_zip_load()!), at: path)
        case SHELF_ZIP_ER_NOZIP:
            throw ZipError(.badData, "this is not a zip archive, or it is truncated (no central directory was found)")
        case SHELF_ZIP_ER_MULTIDISK:
            throw ZipError(.badData, "this is a split (multi-part) zip archive; join the parts into one file first")
        case SHELF_ZIP_ER_INCONS: throw ZipError.damaged("its directory is inconsistent")
        case SHELF_ZIP_ER_MEMORY: throw ZipError(.noMemory, "out of memory reading the archive's directory", at: path)
        case SHELF_ZIP_ER_NOENT: throw ZipError(.notFound, "no file at \(path)")
        case SHELF_ZIP_ER_OPEN, SHELF_ZIP_ER_READ, SHELF_ZIP_ER_SEEK:
            throw ZipError(.io, "the file could not be read (\(String(cString: shelf_zip_error_text(code))))", at: path)
        default: throw ZipError.damaged(String(cString: shelf_zip_error_text(code)))
        }
    }

    private func readDirectory(_ handle: OpaquePointer) throws {
        let count = shelf_zip_entry_count(handle)
        guard count >= 0 else { throw ZipError.damaged("its directory is inconsistent") }
        guard count <= limits.maxEntries else {
            throw ZipError(.limit, "the archive has \(count) entries, more than the limit of \(limits.maxEntries)")
        }
        entries.reserveCapacity(Int(count))
        byName.reserveCapacity(Int(count))
        var total: UInt64 = 0
        var info = shelf_zip_entry_info()
        for index in 0..<UInt64(count) {
            let code = shelf_zip_entry(handle, index, &info)
            guard code == 0 else { throw ZipError.damaged(String(cString: shelf_zip_error_text(code))) }
            let name = String(cString: info.name)
            if let reason = ZipNames.unsafeReason(name) {
                warnings.append("zip entry '\(name)' refused: \(reason)")
                continue
            }
            if name.utf8.last == UInt8(ascii: "/") { continue }  // a directory
            guard byName[name] == nil || !limits.refusesDuplicateNames else {
                throw ZipError(
                    .badData, "the archive holds two entries named '\(name)'; it may have been tampered with", at: name)
            }
            let size = info.size, compressed = info.compressed_size
            guard size <= limits.maxEntrySize else {
                throw ZipError(
                    .limit,
                    "entry '\(name)' would inflate to \(size) bytes, more than the limit of \(limits.maxEntrySize)",
                    at: name)
            }
            if size > limits.ratioFloor {
                let ratio = compressed == 0 ? UInt64.max : size / compressed
                if ratio > limits.maxRatio {
                    throw ZipError(
                        .limit,
                        "entry '\(name)' has a compression ratio of \(ratio == UInt64.max ? "∞" : String(ratio)):1, above the limit of \(limits.maxRatio):1 (a zip bomb?)",
                        at: name)
                }
            }
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow, sum <= limits.maxTotalSize else {
                throw ZipError(
                    .limit, "the archive would inflate to more than \(limits.maxTotalSize) bytes in all (a zip bomb?)")
            }
            total = sum
            if byName[name] == nil { byName[name] = entries.count }  // the first of a name wins
            entries.append(
                ZipEntry(
                    index: index, name: name, size: size, compressedSize: compressed,
                    method: Int32(info.method), encrypted: info.encryption != 0))
        }
    }
}
