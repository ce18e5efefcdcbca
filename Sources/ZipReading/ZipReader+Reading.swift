import CZlib
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
            try decode(entry, stopAt: prefix ? cap : nil) { piece in
                guard filled + piece.count <= expected else {
                    throw cap < entry.size && !prefix
                        ? ZipError(.limit, "entry '\(entry.name)' inflates past the size limit", at: entry.name)
                        : ZipError(.badData, "entry '\(entry.name)' inflates past its declared size", at: entry.name)
                }
                (memory + filled).copyMemory(from: piece.baseAddress!, byteCount: piece.count)
                filled += piece.count
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
    /// too large to hold in memory (audiobook tracks copied out to a cache).
    public func stream(_ entry: ZipEntry, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var total: UInt64 = 0
        try decode(entry, stopAt: nil) { piece in
            total += UInt64(piece.count)
            guard total <= entry.size else {
                throw ZipError(.badData, "entry '\(entry.name)' inflates past its declared size", at: entry.name)
            }
            try sink(piece)
        }
    }

    // MARK: Decoding

    private static let chunk = 64 * 1024

    /// Hands the entry's bytes to `sink` in order. With `stopAt`, stops after that many bytes
    /// (unchecked prefix); otherwise reads to the end and checks the size and CRC.
    private func decode(_ entry: ZipEntry, stopAt: UInt64?, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError(.unsupported, "entry '\(entry.name)' uses zip compression method \(entry.method); only Stored and Deflate are supported", at: entry.name)
        }
        if entry.encrypted {
            throw ZipError(.protected, "entry '\(entry.name)' is protected by zip encryption", at: entry.name)
        }
        let start = try dataStart(of: entry)
        var produced: UInt64 = 0
        var crc = crc32(0, nil, 0)
        // Every piece goes through here: counted, summed, and cut at the prefix a caller asked for.
        func emit(_ piece: UnsafeRawBufferPointer) throws -> Bool {
            var piece = piece
            if let stopAt, produced + UInt64(piece.count) >= stopAt {
                piece = UnsafeRawBufferPointer(rebasing: piece[0..<Int(stopAt - produced)])
                try sink(piece)
                return false
            }
            produced += UInt64(piece.count)
            if stopAt == nil { crc = crc32(crc, piece.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(piece.count)) }
            try sink(piece)
            return true
        }
        let input = UnsafeMutableRawPointer.allocate(byteCount: Self.chunk, alignment: 16)
        defer { input.deallocate() }
        if entry.method == 0 {
            guard entry.compressedSize == entry.size else {
                throw ZipError(.badData, "entry '\(entry.name)' is damaged (a stored entry whose two sizes differ)", at: entry.name)
            }
            var offset: UInt64 = 0
            while offset < entry.size {
                let n = Int(min(UInt64(Self.chunk), entry.size - offset))
                try file.read(at: start + offset, count: n, into: input)
                offset += UInt64(n)
                if try !emit(UnsafeRawBufferPointer(start: input, count: n)) { return }
            }
        } else {
            if try !inflate(entry, from: start, buffer: input, emit) { return }
        }
        guard produced == entry.size else {
            throw ZipError(.badData, "entry '\(entry.name)' is damaged (it holds \(produced) bytes, not the \(entry.size) its directory says)", at: entry.name)
        }
        guard crc == uLong(entry.crc) else {
            throw ZipError(.badData, "entry '\(entry.name)' is damaged (CRC mismatch)", at: entry.name)
        }
    }

    /// Raw deflate from the entry's compressed bytes; false when `emit` asked to stop.
    private func inflate(_ entry: ZipEntry, from start: UInt64, buffer input: UnsafeMutableRawPointer,
                         _ emit: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        var stream = z_stream()
        guard shelf_inflate_init_raw(&stream) == Z_OK else {
            throw ZipError(.noMemory, "out of memory inflating '\(entry.name)'", at: entry.name)
        }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutableRawPointer.allocate(byteCount: Self.chunk, alignment: 16)
        defer { output.deallocate() }
        var consumed: UInt64 = 0
        while true {
            if stream.avail_in == 0 {
                guard consumed < entry.compressedSize else {
                    throw ZipError(.badData, "entry '\(entry.name)' cannot be inflated: its data ends early (truncated or damaged archive?)", at: entry.name)
                }
                let n = Int(min(UInt64(Self.chunk), entry.compressedSize - consumed))
                try file.read(at: start + consumed, count: n, into: input)
                consumed += UInt64(n)
                stream.next_in = input.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(n)
            }
            stream.next_out = output.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(Self.chunk)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let made = Self.chunk - Int(stream.avail_out)
            if made > 0, try !emit(UnsafeRawBufferPointer(start: output, count: made)) { return false }
            switch status {
            case Z_STREAM_END: return true
            case Z_OK: continue
            case Z_BUF_ERROR where stream.avail_in == 0: continue  // more input wanted
            case Z_MEM_ERROR: throw ZipError(.noMemory, "out of memory inflating '\(entry.name)'", at: entry.name)
            default:
                throw ZipError(.badData, "entry '\(entry.name)' cannot be inflated: its compressed data is damaged (truncated or damaged archive?)", at: entry.name)
            }
        }
    }

    /// Where an entry's data begins: after its local header, whose name and extra field may differ
    /// in length from the directory's. The data must lie before the directory.
    private func dataStart(of entry: ZipEntry) throws -> UInt64 {
        let bad = ZipError(.badData, "entry '\(entry.name)' cannot be opened: its local header is missing or out of place (truncated or damaged archive?)", at: entry.name)
        guard entry.localHeaderOffset <= dataEnd, dataEnd - entry.localHeaderOffset >= 30 else { throw bad }
        var header = [UInt8](repeating: 0, count: 30)
        try header.withUnsafeMutableBytes { try file.read(at: entry.localHeaderOffset, count: 30, into: $0.baseAddress!) }
        guard header.u32(0) == 0x0403_4b50 else { throw bad }
        let start = entry.localHeaderOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard start <= dataEnd, entry.compressedSize <= dataEnd - start else { throw bad }
        return start
    }
}
