import CZip
import Foundation
import PluginAPI
import PluginKit

/// Safety limits for reading a zip archive. Every number read from the archive is checked
/// against these before it decides an allocation.
public struct ZipLimits: Sendable, Equatable {
    public var maxEntries: Int = 20_000
    /// Largest uncompressed size of one entry.
    public var maxEntrySize: UInt64 = 256 << 20
    /// Largest sum of uncompressed sizes over the archive.
    public var maxTotalSize: UInt64 = 2 << 30
    /// Largest uncompressed/compressed ratio, checked for entries above `ratioFloor` bytes.
    public var maxRatio: UInt64 = 200
    public var ratioFloor: UInt64 = 1 << 20

    public init() {}
    public static let `default` = ZipLimits()
}

/// One entry of the central directory, as read (never trusted beyond the limits).
public struct ZipEntry: Sendable {
    public var index: UInt64
    public var name: String
    public var size: UInt64
    public var compressedSize: UInt64
    public var method: Int32
    public var encrypted: Bool
}

/// A read-only zip archive over libzip. Entries are inflated one at a time, on demand; the
/// archive is never unpacked as a whole.
///
/// Not thread-safe: one archive is used by one thread at a time (the ABI's handle rule).
public final class ZipArchive {
    private var handle: OpaquePointer?
    public let limits: ZipLimits
    public private(set) var entries: [ZipEntry] = []
    private var byName: [String: Int] = [:]
    public private(set) var warnings: [String] = []

    public init(path: String, limits: ZipLimits = .default) throws {
        self.limits = limits
        var code: Int32 = 0
        guard let za = zip_open(path, ZIP_RDONLY, &code) else {
            throw ZipArchive.openFailure(code, path: path)
        }
        handle = za
        do {
            try readDirectory()
        } catch {
            zip_discard(za)
            handle = nil
            throw error
        }
    }

    deinit {
        if let handle { zip_discard(handle) }
    }

    static func openFailure(_ code: Int32, path: String) -> PluginFailure {
        switch code {
        case ZIP_ER_NOENT:
            return .notFound("no file at \(path)")
        case ZIP_ER_OPEN, ZIP_ER_READ, ZIP_ER_SEEK:
            return .io("the file could not be read (\(zipErrorText(code)))", at: path)
        case ZIP_ER_MULTIDISK:
            return .badData("this is a split (multi-part) zip archive; join the parts into one file first")
        case ZIP_ER_NOZIP:
            return .badData("this is not a zip archive, or it is truncated (no central directory was found)")
        case ZIP_ER_INCONS:
            return .badData("the zip archive is damaged or truncated (its directory is inconsistent)")
        case ZIP_ER_MEMORY:
            return .init(SHELF_E_NO_MEMORY, "out of memory while reading the zip directory")
        default:
            return .badData("the zip archive cannot be read: \(zipErrorText(code))")
        }
    }

    static func zipErrorText(_ code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        guard let text = zip_error_strerror(&error) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Why a name is refused, or nil when it is a safe relative path.
    public static func unsafeReason(_ name: String) -> String? {
        name.utf8.withContiguousStorageIfAvailable(unsafeReason(bytes:)) ?? unsafeReason(bytes: Array(name.utf8))
    }

    private static func unsafeReason<C: RandomAccessCollection>(bytes u: C) -> String? where C.Element == UInt8, C.Index == Int {
        if u.isEmpty { return "empty name" }
        if u[0] == UInt8(ascii: "/") { return "absolute path" }
        if u.count >= 2, u[1] == UInt8(ascii: ":") { return "drive letter" }
        var segmentStart = 0
        for i in 0...u.count {
            if i < u.count {
                if u[i] == UInt8(ascii: "\\") { return "backslash in name" }
                if u[i] == 0 { return "NUL in name" }
                if u[i] != UInt8(ascii: "/") { continue }
            }
            if i - segmentStart == 2 && u[segmentStart] == UInt8(ascii: ".") && u[segmentStart + 1] == UInt8(ascii: ".") {
                return "'..' component"
            }
            segmentStart = i + 1
        }
        return nil
    }

    private func readDirectory() throws {
        guard let za = handle else { return }
        let count = zip_get_num_entries(za, 0)
        guard count >= 0 else { throw PluginFailure.badData("the zip directory cannot be read") }
        guard count <= Int64(limits.maxEntries) else {
            throw PluginFailure.limit("the archive has \(count) entries, more than the limit of \(limits.maxEntries)")
        }
        var total: UInt64 = 0
        entries.reserveCapacity(Int(count))
        byName.reserveCapacity(Int(count))
        for i in 0..<UInt64(count) {
            var st = zip_stat_t()
            zip_stat_init(&st)
            guard zip_stat_index(za, i, 0, &st) == 0, let cname = st.name else {
                warnings.append("zip entry \(i) cannot be read and was skipped")
                continue
            }
            // Names are bytes; invalid UTF-8 is repaired for display and lookups.
            let name = String(decoding: UnsafeRawBufferPointer(start: cname, count: strlen(cname)), as: UTF8.self)
            if let reason = ZipArchive.unsafeReason(name) {
                warnings.append("zip entry '\(name)' refused: \(reason)")
                continue
            }
            if name.utf8.last == UInt8(ascii: "/") { continue }  // directory
            // Claimed now (one hash); any later refusal fails the whole archive anyway.
            if byName.updateValue(entries.count, forKey: name) != nil {
                throw PluginFailure.badData("the archive holds two entries named '\(name)'; it may have been tampered with", at: name)
            }
            let size = (st.valid & UInt64(ZIP_STAT_SIZE)) != 0 ? st.size : 0
            let comp = (st.valid & UInt64(ZIP_STAT_COMP_SIZE)) != 0 ? st.comp_size : 0
            guard size <= limits.maxEntrySize else {
                throw PluginFailure.limit("entry '\(name)' would inflate to \(size) bytes, more than the limit of \(limits.maxEntrySize)", at: name)
            }
            if size > limits.ratioFloor {
                let ratio = comp == 0 ? UInt64.max : size / comp
                if ratio > limits.maxRatio {
                    throw PluginFailure.limit("entry '\(name)' has a compression ratio of \(ratio == UInt64.max ? "∞" : String(ratio)):1, above the limit of \(limits.maxRatio):1 (a zip bomb?)", at: name)
                }
            }
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow, sum <= limits.maxTotalSize else {
                throw PluginFailure.limit("the archive would inflate to more than \(limits.maxTotalSize) bytes in all (a zip bomb?)")
            }
            total = sum
            let method = (st.valid & UInt64(ZIP_STAT_COMP_METHOD)) != 0 ? Int32(st.comp_method) : 0
            let enc = (st.valid & UInt64(ZIP_STAT_ENCRYPTION_METHOD)) != 0 ? st.encryption_method : 0
            entries.append(ZipEntry(index: i, name: name, size: size, compressedSize: comp,
                                    method: method, encrypted: enc != 0))
        }
    }

    public func entry(named name: String) -> ZipEntry? {
        byName[name].flatMap { $0 < entries.count ? entries[$0] : nil }
    }

    public func contains(_ name: String) -> Bool { byName[name] != nil }

    /// Finds an entry ignoring case, for books whose hrefs disagree with their file names in case.
    public func entry(caseInsensitive name: String) -> ZipEntry? {
        if let e = entry(named: name) { return e }
        let lower = name.lowercased()
        return entries.first { $0.name.lowercased() == lower }
    }

    /// Inflates one entry, at most `limit` bytes (default: the entry limit). Refuses methods other
    /// than Stored and Deflate, zip-level encryption, and entries that inflate past their size.
    public func read(_ entry: ZipEntry, limit: UInt64? = nil) throws -> Data {
        guard let za = handle else { throw PluginFailure.io("the archive is closed") }
        guard entry.method == ZIP_CM_STORE || entry.method == ZIP_CM_DEFLATE else {
            throw PluginFailure.unsupported("entry '\(entry.name)' uses zip compression method \(entry.method); only Stored and Deflate are supported in EPUB")
        }
        if entry.encrypted {
            throw PluginFailure.protected("entry '\(entry.name)' is protected by zip encryption", at: entry.name)
        }
        let cap = min(limit ?? limits.maxEntrySize, limits.maxEntrySize)
        guard let file = zip_fopen_index(za, entry.index, 0) else {
            let code = zip_error_code_zip(zip_get_error(za))
            throw PluginFailure.badData("entry '\(entry.name)' cannot be opened: \(ZipArchive.zipErrorText(code))", at: entry.name)
        }
        defer { zip_fclose(file) }
        func failure() -> PluginFailure {
            let code = zip_error_code_zip(zip_file_get_error(file))
            if code == ZIP_ER_CRC {
                return PluginFailure.badData("entry '\(entry.name)' is damaged (CRC mismatch)", at: entry.name)
            }
            return PluginFailure.badData("entry '\(entry.name)' cannot be inflated: \(ZipArchive.zipErrorText(code)) (truncated or damaged archive?)", at: entry.name)
        }
        // The declared size (already checked against the limits) is inflated straight into the
        // result: no zeroed buffer, no copy.
        let expected = Int(min(entry.size, cap))
        guard let memory = malloc(max(expected, 1)) else { throw PluginFailure(SHELF_E_NO_MEMORY, "out of memory reading '\(entry.name)'") }
        var total = 0
        while total < expected {
            let n = zip_fread(file, memory + total, UInt64(expected - total))
            if n < 0 { free(memory); throw failure() }
            if n == 0 { break }
            total += Int(n)
        }
        // Wrapped only once filled: Data copies a small buffer into itself (and frees it) at once.
        var data = Data(bytesNoCopy: memory, count: total, deallocator: .free)
        // Short of the declared size, or a prefix (all a caller asked for): nothing more to read.
        if total < expected || (limit != nil && cap < entry.size) { return data }
        // Past the declared size: the end of the entry (where libzip checks the CRC), or more
        // bytes than the directory said.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64 * 1024) { buffer in
            var sum = UInt64(total)
            while true {
                let n = zip_fread(file, buffer.baseAddress, UInt64(buffer.count))
                if n < 0 { throw failure() }
                if n == 0 { return data }
                let count = Int(n)
                sum += UInt64(count)
                if sum > cap {
                    if limit != nil && cap < limits.maxEntrySize {
                        // A caller asked for a prefix only.
                        data.append(contentsOf: buffer[0..<(count - Int(sum - cap))])
                        return data
                    }
                    throw PluginFailure.limit("entry '\(entry.name)' inflates past the size limit", at: entry.name)
                }
                if sum > entry.size {
                    throw PluginFailure.badData("entry '\(entry.name)' inflates past its declared size", at: entry.name)
                }
                data.append(contentsOf: buffer[0..<count])
            }
        }
    }

    public func read(_ name: String) throws -> Data {
        guard let e = entry(named: name) else {
            throw PluginFailure.notFound("the book has no entry '\(name)'", at: name)
        }
        return try read(e)
    }

    /// The first entry by position in the archive (for the `mimetype`-first check).
    public var firstEntryName: String? { entries.min(by: { $0.index < $1.index })?.name }
}
