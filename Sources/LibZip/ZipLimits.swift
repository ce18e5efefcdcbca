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
    /// Two entries of one name make an archive ambiguous (which one is the book?): refused unless
    /// a caller only asks which names exist.
    public var refusesDuplicateNames = true

    public init() {}
    public static let `default` = ZipLimits()

    /// For a caller that only asks which names an archive holds (the host's media-type sniffing):
    /// sizes, ratios and duplicates are the opening plugin's to judge and report.
    public static let namesOnly: ZipLimits = {
        var l = ZipLimits()
        l.maxEntries = 1_000_000
        l.maxEntrySize = .max
        l.maxTotalSize = .max
        l.maxRatio = .max
        l.refusesDuplicateNames = false
        return l
    }()
}

/// One entry of the central directory, as read (never trusted beyond the limits).
public struct ZipEntry: Sendable {
    /// Position in the central directory.
    public var index: UInt64
    public var name: String
    public var size: UInt64
    public var compressedSize: UInt64
    public var method: Int32
    public var encrypted: Bool
}

/// Why an archive or an entry cannot be read: a kind a caller maps to its own status, and a
/// sentence for the patron.
public struct ZipError: Error, CustomStringConvertible {
    public enum Kind: Sendable { case notFound, io, badData, limit, unsupported, protected, noMemory }
    public var kind: Kind
    public var message: String
    public var location: String?

    init(_ kind: Kind, _ message: String, at location: String? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    public var description: String { location.map { "\(message) (at \($0))" } ?? message }

    static func damaged(_ why: String) -> ZipError {
        ZipError(.badData, "the zip archive is damaged or truncated (\(why))")
    }
}
