import Foundation

/// Paths inside the book: zip entry names are raw paths ("OEBPS/Text/ch 1.xhtml"); hrefs in the
/// OPF, nav and XHTML are percent-encoded relative references; manifest hrefs are percent-encoded
/// and relative to the publication root.
public enum Paths {
    /// The folder of an entry path, with a trailing slash ("" for the root).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// Splits "a/b.xhtml#frag" into the path part and the fragment (without '#'); drops a query.
    public static func splitFragment(_ href: String) -> (path: String, fragment: String?) {
        var path = href
        var fragment: String?
        if let hash = path.firstIndex(of: "#") {
            fragment = String(path[path.index(after: hash)...])
            path = String(path[..<hash])
        }
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        return (path, fragment)
    }

    public static func isExternal(_ href: String) -> Bool {
        guard let colon = href.firstIndex(of: ":") else { return href.hasPrefix("//") }
        let scheme = href[..<colon]
        return !scheme.isEmpty && !scheme.contains("/") && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// Resolves a (percent-encoded) relative href against the folder `base` (an entry path folder)
    /// into a normalised entry path. nil for external URLs or paths escaping the root.
    public static func resolve(_ href: String, against base: String) -> String? {
        let (raw, _) = splitFragment(href)
        if isExternal(raw) { return nil }
        let decoded = raw.removingPercentEncoding ?? raw
        let joined = decoded.hasPrefix("/") ? String(decoded.dropFirst()) : base + decoded
        return normalise(joined)
    }

    /// Removes "." and resolves ".." components; nil when ".." climbs above the root.
    public static func normalise(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: ":;")
        return set
    }()

    /// Percent-encodes an entry path into a manifest href.
    public static func href(forEntry path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
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
