import Foundation

// The compact little-endian form of shelf's caches (publication memos, the plugin registry): faster to
// read in a short-lived process than JSON, and as safe, since every read is bounds-checked.

public struct ByteWriter {
    public var bytes: [UInt8] = []
    public init() {}

    public mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    public mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    public mutating func string(_ value: String) {
        u32(UInt32(value.utf8.count))
        bytes += value.utf8
    }
    public mutating func optionalString(_ value: String?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { string(value) }
    }
    public mutating func strings(_ values: [String]) {
        u32(UInt32(values.count))
        for value in values { string(value) }
    }
    public mutating func identity(_ value: FileIdentity) {
        u64(UInt64(bitPattern: value.size))
        u64(UInt64(bitPattern: value.modified))
        u64(UInt64(bitPattern: value.changed))
        u64(value.inode)
    }
}

/// Reads what `ByteWriter` wrote; every read is bounds-checked, so a damaged file is `Malformed`.
public struct ByteReader {
    public struct Malformed: Error { public init() {} }
    private let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ data: Data) {
        bytes = [UInt8](data)
        offset = 0
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Malformed() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    public mutating func u32() throws -> UInt32 {
        guard remaining >= 4 else { throw Malformed() }
        defer { offset += 4 }
        return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    public mutating func u64() throws -> UInt64 {
        guard remaining >= 8 else { throw Malformed() }
        defer { offset += 8 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }

    /// A count of items that each take at least `minimumBytesEach`: larger than what is left is damage.
    public mutating func count(minimumBytesEach: Int) throws -> Int {
        let n = Int(try u32())
        guard n <= remaining / max(1, minimumBytesEach) else { throw Malformed() }
        return n
    }

    public mutating func string() throws -> String {
        let length = Int(try u32())
        return String(decoding: try take(length), as: UTF8.self)
    }

    public mutating func optionalString() throws -> String? {
        try take(1).first == 0 ? nil : try string()
    }

    public mutating func strings() throws -> [String] {
        try (0..<count(minimumBytesEach: 4)).map { _ in try string() }
    }

    public mutating func identity() throws -> FileIdentity {
        FileIdentity(
            size: Int64(bitPattern: try u64()), modified: Int64(bitPattern: try u64()),
            changed: Int64(bitPattern: try u64()), inode: try u64())
    }
}
