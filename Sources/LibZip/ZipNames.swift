/// Entry names: a safe relative path or nothing to shelf. (libzip gives them as UTF-8, decoding
/// code page 437, the zip format's default, for names that are neither UTF-8 nor flagged as such.)
public enum ZipNames {
    /// Why a name is refused, or nil when it is a safe relative path.
    public static func unsafeReason(_ name: String) -> String? {
        name.utf8.withContiguousStorageIfAvailable(unsafeReason(bytes:)) ?? unsafeReason(bytes: Array(name.utf8))
    }

    static func unsafeReason<C: RandomAccessCollection>(bytes u: C) -> String?
    where C.Element == UInt8, C.Index == Int {
        if u.isEmpty { return "empty name" }
        if u[u.startIndex] == UInt8(ascii: "/") { return "absolute path" }
        if u.count >= 2, u[u.startIndex + 1] == UInt8(ascii: ":") { return "drive letter" }
        var segmentStart = u.startIndex
        for i in u.startIndex...u.endIndex {
            if i < u.endIndex {
                if u[i] == UInt8(ascii: "\\") { return "backslash in name" }
                if u[i] == 0 { return "NUL in name" }
                if u[i] != UInt8(ascii: "/") { continue }
            }
            if i - segmentStart == 2 && u[segmentStart] == UInt8(ascii: ".") && u[segmentStart + 1] == UInt8(ascii: ".")
            {
                return "'..' component"
            }
            segmentStart = i + 1
        }
        return nil
    }
}
