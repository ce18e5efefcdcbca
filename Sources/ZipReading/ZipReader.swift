#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A read-only zip archive: its central directory read once, each entry inflated on demand with
/// zlib; the archive is never unpacked as a whole. Shared by the host (to sniff a file's type) and
/// the plugins (EPUB, audiobook packages).
///
/// Written on zlib rather than over libzip because every process that linked libzip also loaded
/// libcrypto, libbz2 and libzstd (about 2 ms before `main`, for a feature set that EPUB
/// forbids), and libzip asked for the local time zone once per entry. Every offset and size read
/// from the file is checked against the file and against `ZipLimits` before it is used.
///
/// Reading is by `pread` on one descriptor, so entries may be read from several threads at once.
public final class ZipReader: @unchecked Sendable {
    public let limits: ZipLimits
    public private(set) var entries: [ZipEntry] = []
    public private(set) var warnings: [String] = []
    private var byName: [String: Int] = [:]
    /// Lowercased names, for `entry(caseInsensitive:)`: scanning every name on each miss let a book with
    /// many mis-cased references cost its entries times its references.
    private let byLowercasedName = Mutex<[String: Int]?>(nil)
    let file: ZipFileDescriptor
    /// Where the central directory starts: an entry's data must end before it.
    private(set) var dataEnd: UInt64 = 0

    public init(path: String, limits: ZipLimits = .default) throws {
        self.limits = limits
        file = try ZipFileDescriptor(path: path)
        try readDirectory()
    }

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
                for (i, e) in entries.enumerated() where made[e.name.lowercased()] == nil { made[e.name.lowercased()] = i }
                index = made
            }
            return index![name.lowercased()].map { entries[$0] }
        }
    }

    /// The first entry by position in the directory (for EPUB's `mimetype`-first check).
    public var firstEntryName: String? { entries.min(by: { $0.index < $1.index })?.name }

    // MARK: The directory

    private static let endOfDirectorySize = 22
    private static let maxDirectoryReads = 4
    private var directoryReads = 0
    private static let zip64LocatorSize = 20

    private func readDirectory() throws {
        let size = file.size
        guard size >= UInt64(Self.endOfDirectorySize) else { throw Self.noDirectory }
        // The end record sits in the last 22 bytes plus a comment of up to 64 KB; the zip64
        // locator, when there is one, right before it.
        let tailCount = Int(min(size, UInt64(Self.endOfDirectorySize + 0xFFFF + Self.zip64LocatorSize)))
        let tailStart = size - UInt64(tailCount)
        let tail = try file.bytes(at: tailStart, count: tailCount)
        // A comment may itself hold the signature: each candidate, last first, until one
        // describes a directory that fits the file. Most false ones fail on a few bytes; a few at
        // most may read a whole directory, so that a tail made of signatures cannot read a large
        // one thousands of times.
        var firstFailure: ZipError?
        var i = tailCount - Self.endOfDirectorySize
        while i >= 0, directoryReads < Self.maxDirectoryReads {
            if tail.u32(i) == 0x0605_4b50, i + Self.endOfDirectorySize + Int(tail.u16(i + 20)) <= tailCount {
                do {
                    try readDirectory(endRecord: i, in: tail, at: tailStart)
                    return
                } catch let failure as ZipError {
                    entries.removeAll(); byName.removeAll(); warnings.removeAll()
                    if firstFailure == nil { firstFailure = failure }
                }
            }
            i -= 1
        }
        throw firstFailure ?? Self.noDirectory
    }

    private static let noDirectory = ZipError(.badData, "this is not a zip archive, or it is truncated (no central directory was found)")
    private static let split = ZipError(.badData, "this is a split (multi-part) zip archive; join the parts into one file first")

    private func readDirectory(endRecord e: Int, in tail: [UInt8], at tailStart: UInt64) throws {
        var disk = UInt32(tail.u16(e + 4)), directoryDisk = UInt32(tail.u16(e + 6))
        var onThisDisk = UInt64(tail.u16(e + 8)), count = UInt64(tail.u16(e + 10))
        var directorySize = UInt64(tail.u32(e + 12)), directoryOffset = UInt64(tail.u32(e + 16))
        var directoryEnd = tailStart + UInt64(e)
        let saturated = count == 0xFFFF || onThisDisk == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF
        let l = e - Self.zip64LocatorSize
        if saturated, l >= 0, tail.u32(l) == 0x0706_4b50 {
            // Zip64: the real numbers are in a record the locator points to.
            guard tail.u32(l + 16) <= 1 else { throw Self.split }
            let recordOffset = tail.u64(l + 8)
            guard recordOffset <= directoryEnd - UInt64(Self.zip64LocatorSize), directoryEnd - UInt64(Self.zip64LocatorSize) - recordOffset >= 56 else {
                throw ZipError.damaged("its zip64 directory record is out of place")
            }
            let record = try file.bytes(at: recordOffset, count: 56)
            guard record.u32(0) == 0x0606_4b50 else { throw ZipError.damaged("its zip64 directory record is missing") }
            disk = record.u32(16); directoryDisk = record.u32(20)
            onThisDisk = record.u64(24); count = record.u64(32)
            directorySize = record.u64(40); directoryOffset = record.u64(48)
            directoryEnd = recordOffset
        }
        guard disk == 0, directoryDisk == 0, onThisDisk == count else { throw Self.split }
        guard count <= UInt64(limits.maxEntries) else {
            throw ZipError(.limit, "the archive has \(count) entries, more than the limit of \(limits.maxEntries)")
        }
        guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset,
              directorySize >= count * 46 else {
            throw ZipError.damaged("its directory is inconsistent")
        }
        guard directorySize <= limits.maxDirectorySize else {
            throw ZipError(.limit, "the archive's directory is \(directorySize) bytes, more than the limit of \(limits.maxDirectorySize)")
        }
        dataEnd = directoryOffset
        // A false end record rarely points at a directory: four bytes tell before the whole is read.
        if count > 0, try file.bytes(at: directoryOffset, count: 4).u32(0) != 0x0201_4b50 {
            throw ZipError.damaged("its directory is not where its end record says")
        }
        directoryReads += 1
        let directory = try file.bytes(at: directoryOffset, count: Int(directorySize))
        try directory.withUnsafeBytes { try readEntries(Int(count), from: $0) }
    }

    private func readEntries(_ count: Int, from d: UnsafeRawBufferPointer) throws {
        entries.reserveCapacity(count)
        byName.reserveCapacity(count)
        var total: UInt64 = 0
        var p = 0
        for index in 0..<count {
            guard p + 46 <= d.count, d.u32(p) == 0x0201_4b50 else {
                throw ZipError.damaged("its directory is inconsistent")
            }
            let flags = d.u16(p + 8)
            let method = d.u16(p + 10)
            var compressed = UInt64(d.u32(p + 20)), size = UInt64(d.u32(p + 24))
            let nameLength = Int(d.u16(p + 28)), extraLength = Int(d.u16(p + 30)), commentLength = Int(d.u16(p + 32))
            var startDisk = UInt32(d.u16(p + 34))
            var offset = UInt64(d.u32(p + 42))
            let nameStart = p + 46, extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= d.count else { throw ZipError.damaged("its directory is inconsistent") }
            if size == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || offset == 0xFFFF_FFFF || startDisk == 0xFFFF {
                try Self.readZip64Extra(UnsafeRawBufferPointer(rebasing: d[extraStart..<(extraStart + extraLength)]),
                                        size: &size, compressed: &compressed, offset: &offset, disk: &startDisk)
            }
            let crc = d.u32(p + 16)
            p = next
            guard startDisk == 0 else { throw Self.split }

            let raw = UnsafeRawBufferPointer(rebasing: d[nameStart..<extraStart])
            let name = ZipNames.decode(raw, utf8Flag: flags & 0x0800 != 0)
            if let reason = ZipNames.unsafeReason(name) {
                warnings.append("zip entry '\(name)' refused: \(reason)")
                continue
            }
            if name.utf8.last == UInt8(ascii: "/") { continue }  // a directory
            guard byName[name] == nil || !limits.refusesDuplicateNames else {
                throw ZipError(.badData, "the archive holds two entries named '\(name)'; it may have been tampered with", at: name)
            }
            guard size <= limits.maxEntrySize else {
                throw ZipError(.limit, "entry '\(name)' would inflate to \(size) bytes, more than the limit of \(limits.maxEntrySize)", at: name)
            }
            if size > limits.ratioFloor {
                let ratio = compressed == 0 ? UInt64.max : size / compressed
                if ratio > limits.maxRatio {
                    throw ZipError(.limit, "entry '\(name)' has a compression ratio of \(ratio == UInt64.max ? "∞" : String(ratio)):1, above the limit of \(limits.maxRatio):1 (a zip bomb?)", at: name)
                }
            }
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow, sum <= limits.maxTotalSize else {
                throw ZipError(.limit, "the archive would inflate to more than \(limits.maxTotalSize) bytes in all (a zip bomb?)")
            }
            total = sum
            if byName[name] == nil { byName[name] = entries.count }  // the first of a name wins
            // Bit 0: traditional encryption; method 99: WinZip AES.
            entries.append(ZipEntry(index: UInt64(index), name: name, size: size, compressedSize: compressed,
                                    method: Int32(method), encrypted: flags & 1 != 0 || method == 99,
                                    crc: crc, localHeaderOffset: offset))
        }
    }

    /// The zip64 extra field holds, in this order, each of the four numbers that is saturated in
    /// the directory entry.
    private static func readZip64Extra(_ extra: UnsafeRawBufferPointer, size: inout UInt64, compressed: inout UInt64,
                                       offset: inout UInt64, disk: inout UInt32) throws {
        var p = 0
        while p + 4 <= extra.count {
            let id = extra.u16(p), length = Int(extra.u16(p + 2))
            let body = p + 4
            guard body + length <= extra.count else { break }
            if id == 0x0001 {
                var q = body
                func next64() throws -> UInt64 {
                    guard q + 8 <= body + length else { throw ZipError.damaged("an entry's zip64 field is short") }
                    defer { q += 8 }
                    return extra.u64(q)
                }
                if size == 0xFFFF_FFFF { size = try next64() }
                if compressed == 0xFFFF_FFFF { compressed = try next64() }
                if offset == 0xFFFF_FFFF { offset = try next64() }
                if disk == 0xFFFF {
                    guard q + 4 <= body + length else { throw ZipError.damaged("an entry's zip64 field is short") }
                    disk = extra.u32(q)
                }
                return
            }
            p = body + length
        }
        throw ZipError.damaged("an entry's zip64 field is missing")
    }
}

/// The archive's file, read by offset. Closed when the last reader lets go of it.
final class ZipFileDescriptor: @unchecked Sendable {
    let fd: Int32
    let size: UInt64

    init(path: String) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw ZipError(.notFound, "no file at \(path)") }
            throw ZipError(.io, "the file could not be read (\(String(cString: strerror(code))))", at: path)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ZipError(.io, "is not a regular file", at: path)
        }
        size = UInt64(st.st_size)
    }

    deinit { close(fd) }

    /// Fills `count` bytes from `offset`, or fails when the file ends first or cannot be read.
    func read(at offset: UInt64, count: Int, into buffer: UnsafeMutableRawPointer) throws {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ZipError(.io, "the file could not be read (\(String(cString: strerror(errno))))")
            }
            if n == 0 { throw ZipError.damaged("the file ends early") }
            done += n
        }
    }

    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset <= size, UInt64(count) <= size - offset else { throw ZipError.damaged("the file ends early") }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { try read(at: offset, count: count, into: buffer.baseAddress!) }
            initialized = count
        }
    }
}

/// Little-endian numbers at a byte offset; callers check the bounds first.
extension UnsafeRawBufferPointer {
    @inline(__always) func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    @inline(__always) func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    @inline(__always) func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}

extension Array where Element == UInt8 {
    @inline(__always) func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    @inline(__always) func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    @inline(__always) func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}
