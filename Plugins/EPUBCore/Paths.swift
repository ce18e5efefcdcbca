import Foundation

/// Paths inside the book: zip entry names are raw paths ("OEBPS/Text/ch 1.xhtml"); hrefs in the
/// OPF, nav and XHTML are percent-encoded relative references; manifest hrefs are percent-encoded
/// and relative to the publication root.
public enum Paths {
    /// The folder of an entry path, with a trailing slash ("" for the root).
    public static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[...slash])
    }

    /// Splits "a/b.xhtml#frag" into the path part and the fragment (without '#'); drops a query.
    public static func splitFragment(_ href: String) -> (path: String, fragment: String?) {
        let u = href.utf8
        guard let cut = u.firstIndex(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") }) else {
            return (href, nil)
        }
        let path = String(href[..<cut])
        guard let hash = u.firstIndex(of: UInt8(ascii: "#")) else { return (path, nil) }
        return (path, String(href[href.utf8.index(after: hash)...]))
    }

    /// The path part of `splitFragment`, without making Strings of the parts.
    public static func pathPart(_ href: String) -> Substring {
        let u = href.utf8
        func cut(_ b: UInt8) -> Bool { b == UInt8(ascii: "#") || b == UInt8(ascii: "?") }
        // Over the contiguous bytes (a native string's): the generic search cost more than the look-up it serves.
        if let end = u.withContiguousStorageIfAvailable({ bytes in bytes.firstIndex(where: cut) ?? bytes.count }) {
            return href[..<u.index(u.startIndex, offsetBy: end)]
        }
        return href[..<(u.firstIndex(where: cut) ?? u.endIndex)]
    }

    /// Percent-decoding of UTF-8 (malformed escapes are kept as they are; invalid UTF-8 repaired).
    public static func percentDecode(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "%")) else { return s }
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2])
            {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func isExternal(_ href: String) -> Bool {
        // A scheme: letters, digits, '+', '-', '.' before the first ':' (and no '/' before it).
        var sawAny = false
        for b in href.utf8 {
            switch b {
            case UInt8(ascii: ":"): return sawAny
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                sawAny = true
            case UInt8(ascii: "/"): return !sawAny && href.utf8.starts(with: "//".utf8)
            default: return false
            }
        }
        return false
    }

    /// Resolves a (percent-encoded) relative href against the folder `base` (an entry path folder)
    /// into a normalised entry path. nil for external URLs or paths escaping the root.
    public static func resolve(_ href: String, against base: String) -> String? {
        let (raw, _) = splitFragment(href)
        if isExternal(raw) { return nil }
        let decoded = percentDecode(raw)
        let joined = decoded.hasPrefix("/") ? String(decoded.dropFirst()) : base + decoded
        return normalise(joined)
    }

    /// Removes "." and resolves ".." components; nil when ".." climbs above the root.
    public static func normalise(_ path: String) -> String? {
        let u = Array(path.utf8)
        // Fast path: no empty, "." or ".." segment.
        var clean = !u.isEmpty && u[0] != UInt8(ascii: "/") && u[u.count - 1] != UInt8(ascii: "/")
        if clean {
            var segmentStart = 0
            for i in 0...u.count {
                if i == u.count || u[i] == UInt8(ascii: "/") {
                    let len = i - segmentStart
                    if len == 0
                        || (u[segmentStart] == UInt8(ascii: ".")
                            && (len == 1 || (len == 2 && u[segmentStart + 1] == UInt8(ascii: "."))))
                    {
                        clean = false
                        break
                    }
                    segmentStart = i + 1
                }
            }
        }
        if clean { return path }
        var parts: [ArraySlice<UInt8>] = []
        for part in u.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if part.count == 1 && part.first == UInt8(ascii: ".") { continue }
            if part.count == 2 && part.allSatisfy({ $0 == UInt8(ascii: ".") }) {
                if parts.isEmpty { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return String(decoding: Array(parts.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)
    }

    /// A byte a manifest href carries as it is (see `href(forEntry:)`).
    static func allowed(_ b: UInt8) -> Bool {
        switch b {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "@"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "="):
            return true
        default: return false
        }
    }

    /// A plain relative reference, the kind nearly every href in a package or table of contents
    /// is: its path (before the first '#') is not empty, has no empty, "." or ".." segment, holds
    /// only bytes a manifest href carries as they are and percent escapes of ASCII, and nothing is
    /// trimmed from either end. Against a clean folder (an entry path's) such a path resolves by
    /// concatenation: the general rules (`resolve`, `href(forEntry:)`) give the same, more slowly.
    public struct PlainRelative {
        /// The path, decoded: an entry path relative to the folder.
        public let path: String
        /// The path as a manifest href writes it (escapes only where `href(forEntry:)` puts them).
        public let href: String
        /// The fragment with its '#', or empty.
        public let rest: Substring

        public var fragment: String? { rest.isEmpty ? nil : String(rest.dropFirst()) }

        public init?(_ reference: String) {
            guard let (end, escaped) = reference.utf8.withContiguousStorageIfAvailable(PlainRelative.scan) ?? nil else {
                return nil
            }
            let cut = reference.utf8.index(reference.utf8.startIndex, offsetBy: end)
            rest = reference[cut...]
            guard escaped else {
                path = String(reference[..<cut])
                href = path
                return
            }
            path = Paths.percentDecode(String(reference[..<cut]))
            href = Paths.href(forEntry: path)
        }

        /// Where the path ends and whether it has escapes, or nil when the reference is not plain.
        private static func scan(_ u: UnsafeBufferPointer<UInt8>) -> (end: Int, escaped: Bool)? {
            guard let last = u.last, last > 0x20 else { return nil }
            let end = u.firstIndex(of: UInt8(ascii: "#")) ?? u.count
            var escaped = false
            var segmentLength = 0
            var onlyDots = true
            var i = 0
            // The segments are those of the decoded path.
            while i < end {
                var b = u[i]
                if b == UInt8(ascii: "%") {
                    guard i + 2 < end, let hi = hex(u[i + 1]), let lo = hex(u[i + 2]), hi < 8 else { return nil }
                    b = hi << 4 | lo
                    escaped = true
                    i += 3
                } else {
                    guard Paths.allowed(b) else { return nil }
                    i += 1
                }
                if b == UInt8(ascii: "/") {
                    if segmentLength == 0 || (onlyDots && segmentLength <= 2) { return nil }
                    segmentLength = 0
                    onlyDots = true
                } else {
                    segmentLength += 1
                    if b != UInt8(ascii: ".") { onlyDots = false }
                }
            }
            guard segmentLength > 0, !(onlyDots && segmentLength <= 2) else { return nil }
            return (end, escaped)
        }
    }

    /// Percent-encodes an entry path into a manifest href: everything but unreserved characters,
    /// sub-delimiters (less ':' and ';'), '@' and '/' is escaped, non-ASCII as UTF-8 bytes.
    public static func href(forEntry path: String) -> String {
        if path.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(allowed) }) ?? path.utf8.allSatisfy(allowed) {
            return path
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count + 16)
        for b in path.utf8 {
            if allowed(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%")); out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A relative reference from the folder `fromDir` to the entry `path` (for HTML output that
    /// refers to resources by manifest href, we use root-relative hrefs instead; see Content).
    public static func relative(_ path: String, from fromDir: String) -> String {
        let from = fromDir.split(separator: "/")
        let to = path.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...].map(String.init)).joined(separator: "/")
    }
}

/// The value of one hexadecimal digit of a percent escape, or nil.
private func hex(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
}
