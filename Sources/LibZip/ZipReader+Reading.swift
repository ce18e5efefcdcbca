import CLibZip
import FoundationEssentials
#if canImport(Glibc)
    import Glibc
#endif

extension ZipReader {
    /// Inflates one entry, at most `limit` bytes (default: the entry limit). Refuses methods other
    /// than Stored and Deflate, zip-level encryption, entries that inflate past their declared size,
    /// and, when the whole entry is read, a size or CRC that is not what the directory says.
    public func read(_ entry: ZipEntry, limit: UInt64? = nil) throws -> Data {
        let cap = min(limit ?? limits.maxEntrySize, limits.maxEntrySize)
        // A caller asking for less than the entry gets that prefix, unchecked (the CRC covers the whole).
        let prefix = limit != nil && cap < limits.maxEntrySize && cap < entry.size
        let expected = Int(min(entry.size, cap))
        guard let memory = malloc(max(expected, 1)) else {
            throw ZipError(.noMemory, "out of memory reading '\(entry.name)'", at: entry.name)
        }
        // The declared size (already checked against the limits) is filled in place: no zeroed
        // buffer, no copy; an entry that would run past it fails before writing there.
        var filled = 0
        do {
            try withOpenEntry(entry) { file in
                while filled < expected {
                    let n = try Self.read(
                        file, into: memory + filled, count: expected - filled, entry, produced: filled)
                    if n == 0 { break }
                    filled += n
                }
                if prefix { return }
                // One read more: it must find the end, where libzip checks the CRC and the size.
                var extra: UInt8 = 0
                if try Self.read(file, into: &extra, count: 1, entry, produced: filled) > 0 {
                    throw cap < entry.size
                        ? ZipError(.limit, "entry '\(entry.name)' inflates past the size limit", at: entry.name)
                        : ZipError(.badData, "entry '\(entry.name)' inflates past its declared size", at: entry.name)
                }
                guard UInt64(filled) == entry.size else { throw Self.sizeMismatch(entry, produced: filled) }
            }
        } catch {
            free(memory)
            throw error
        }
        return Data(bytesNoCopy: memory, count: filled, deallocator: .free)
    }

    public func read(_ name: String) throws -> Data {
        guard let e = entry(named: name) else {
            throw ZipError(.notFound, "the archive has no entry '\(name)'", at: name)
        }
        return try read(e)
    }

    /// The whole entry in pieces of up to 64 KB, in order, checked as `read` checks it: for entries
    /// too large to hold in memory (audiobook tracks copied out to a cache). The archive's lock is
    /// held throughout (see `ZipReader`): `sink` must not read from this reader.
    public func stream(_ entry: ZipEntry, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        let chunk = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        try withOpenEntry(entry) { file in
            var total = 0
            while true {
                let n = try Self.read(file, into: buffer, count: chunk, entry, produced: total)
                if n == 0 { break }
                total += n
                guard UInt64(total) <= entry.size else {
                    throw ZipError(.badData, "entry '\(entry.name)' inflates past its declared size", at: entry.name)
                }
                try sink(UnsafeRawBufferPointer(start: buffer, count: n))
            }
            guard UInt64(total) == entry.size else { throw Self.sizeMismatch(entry, produced: total) }
        }
    }

    // MARK: libzip

    /// Runs `body` with the entry opened in libzip, under the archive's lock.
    private func withOpenEntry(_ entry: ZipEntry, _ body: (OpaquePointer) throws -> Void) throws {
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError(
                .unsupported,
                "entry '\(entry.name)' uses zip compression method \(entry.method); only Stored and Deflate are supported",
                at: entry.name)
        }
        if entry.encrypted {
            throw ZipError(.protected, "entry '\(entry.name)' is protected by zip encryption", at: entry.name)
        }
        guard entry.method != 0 || entry.compressedSize == entry.size else {
            throw ZipError(
                .badData, "entry '\(entry.name)' is damaged (a stored entry whose two sizes differ)", at: entry.name)
        }
        try archive.withLock { archive in
            var code: Int32 = 0
            guard let file = shelf_zip_file_open(archive.handle, entry.index, &code) else {
                switch Int(code) {
                case SHELF_ZIP_ER_MEMORY:
                    throw ZipError(.noMemory, "out of memory opening '\(entry.name)'", at: entry.name)
                case SHELF_ZIP_ER_COMPNOTSUPP:
                    throw ZipError(
                        .unsupported,
                        "entry '\(entry.name)' uses zip compression method \(entry.method); only Stored and Deflate are supported",
                        at: entry.name)
                case SHELF_ZIP_ER_ENCRNOTSUPP, SHELF_ZIP_ER_NOPASSWD:
                    throw ZipError(.protected, "entry '\(entry.name)' is protected by zip encryption", at: entry.name)
                default:
                    throw ZipError(
                        .badData,
                        "entry '\(entry.name)' cannot be opened: its local header is missing or out of place (truncated or damaged archive?)",
                        at: entry.name)
                }
            }
            defer { shelf_zip_file_close(file) }
            try body(file)
        }
    }

    /// Up to `count` bytes of an open entry; 0 at its end. A failure says what libzip found.
    private static func read(
        _ file: OpaquePointer, into buffer: UnsafeMutableRawPointer, count: Int,
        _ entry: ZipEntry, produced: Int
    ) throws -> Int {
        var code: Int32 = 0
        let n = shelf_zip_file_read(file, buffer, UInt64(count), &code)
        if n >= 0 { return Int(n) }
        switch Int(code) {
        case SHELF_ZIP_ER_CRC:
            throw ZipError(.badData, "entry '\(entry.name)' is damaged (CRC mismatch)", at: entry.name)
        case SHELF_ZIP_ER_INCONS where UInt64(produced) != entry.size: throw sizeMismatch(entry, produced: produced)
        case SHELF_ZIP_ER_MEMORY: throw ZipError(.noMemory, "out of memory inflating '\(entry.name)'", at: entry.name)
        case SHELF_ZIP_ER_EOF, SHELF_ZIP_ER_READ, SHELF_ZIP_ER_SEEK:
            throw ZipError(
                .badData,
                "entry '\(entry.name)' cannot be inflated: its data ends early (truncated or damaged archive?)",
                at: entry.name)
        default:
            throw ZipError(
                .badData,
                "entry '\(entry.name)' cannot be inflated: its compressed data is damaged (truncated or damaged archive?)",
                at: entry.name)
        }
    }

    private static func sizeMismatch(_ entry: ZipEntry, produced: Int) -> ZipError {
        ZipError(
            .badData,
            "entry '\(entry.name)' is damaged (it holds \(produced) bytes, not the \(entry.size) its directory says)",
            at: entry.name)
    }
}
