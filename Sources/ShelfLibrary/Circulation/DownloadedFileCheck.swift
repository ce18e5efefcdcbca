import Foundation
import ShelfValues

/// Whether the file a library sent is the kind it said it would send. A library under maintenance, a proxy or a
/// captive portal answers 200 with a web page; a fulfilment that went wrong answers with a document of another
/// kind. Either, taken as the book, would be stored as a book that never opens: shelf looks at the first bytes.
enum DownloadedFileCheck {
    /// What is wrong with the file at `path`, in words ("a web page (text/html)"), or nil when its first bytes agree
    /// with `expected` (a media type) as far as they can tell.
    static func problem(at path: String, expected: String, served: String?) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "nothing readable" }
        // Only read: closing cannot lose anything.
        defer { try? handle.close() }
        // Unreadable bytes are no book either: said as "an empty file" below, and the download is refused.
        let head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        let servedBase = served.map(MediaTypes.base)
        guard !head.isEmpty else { return "an empty file" + (servedBase.map { " (\($0))" } ?? "") }
        let text = String(decoding: head.prefix(256), as: UTF8.self).drop { $0 == "\u{FEFF}" || $0.isWhitespace }
            .lowercased()
        let isWebPage = servedBase == "text/html" || text.hasPrefix("<!doctype html") || text.hasPrefix("<html")
        let wanted = MediaTypes.base(expected)
        if wanted == "text/html" || wanted == "application/xhtml+xml" { return nil }
        if isWebPage { return "a web page (\(servedBase ?? "text/html"))" }
        let agrees: Bool
        switch wanted {
        case _ where wanted.hasSuffix("+zip") || wanted == "application/zip":
            agrees = head.starts(with: [0x50, 0x4B, 0x03, 0x04])
        case "application/pdf":
            agrees = head.starts(with: Array("%PDF-".utf8))
        case _ where wanted.hasSuffix("+json") || wanted == "application/json":
            agrees = text.hasPrefix("{")
        case _ where wanted.hasSuffix("+xml"):
            agrees = text.hasPrefix("<")
        default:
            // Audio and other kinds: only a page of markup or a problem document is surely wrong.
            agrees = servedBase != MediaTypes.problem
        }
        return agrees
            ? nil
            : "a file that is not \(MediaTypes.described(wanted))" + (servedBase.map { " (served as \($0))" } ?? "")
    }
}

extension MediaTypes {
    /// A media type as a patron reads it: "an EPUB", "a PDF", else the type itself.
    static func described(_ type: String) -> String {
        switch base(type) {
        case "application/epub+zip": return "an EPUB"
        case "application/pdf": return "a PDF"
        case "application/audiobook+json": return "an audiobook manifest"
        case "application/audiobook+zip": return "a packaged audiobook"
        case _ where adobeACSM.contains(base(type)): return "an Adobe ACSM file"
        case lcpLicense: return "a Readium LCP licence"
        default: return base(type)
        }
    }
}
