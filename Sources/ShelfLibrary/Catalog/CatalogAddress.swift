import Foundation

/// Addresses found in feeds, checked before anything follows them.
public enum CatalogAddress {
    /// Resolves `href` against `base`. Only http(s) addresses are kept, plus file addresses when the
    /// document itself is a local file: a feed from the network never points shelf at local files.
    public static func resolve(_ href: String, against base: URL) -> String? {
        let trimmed = FastText.trimmed(href)
        if let plain = FastText.plainAbsoluteHTTP(trimmed) { return plain }
        return resolveInFull(trimmed, against: base)
    }

    /// `resolve` of UTF-8 text: a plain absolute address becomes a String once, without Foundation.
    static func resolve(_ href: UnsafeBufferPointer<UInt8>, against base: URL) -> String? {
        let inner = FastText.asciiTrimmed(href)
        if FastText.isPlainAbsoluteHTTP(inner) { return String(decoding: inner, as: UTF8.self) }
        return resolve(String(decoding: href, as: UTF8.self), against: base)
    }

    private static func resolveInFull(_ trimmed: String, against base: URL) -> String? {
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == " " }),
            let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased()
        else { return nil }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { return nil }
            return url.absoluteString
        case "file":
            return base.isFileURL ? url.absoluteString : nil
        default:
            return nil
        }
    }
}
