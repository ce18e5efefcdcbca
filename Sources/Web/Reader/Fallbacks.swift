import Foundation
import Host

/// What a browser shows of a book's resources, and what it is given instead of those it cannot show (EPUB Reading
/// Systems 3.3, "Foreign resources"): a resource of another type is served as the first of its manifest fallback
/// chain (the manifest's `alternate` links) that a browser shows; a reading-order item that has none is served as a
/// page saying so, not printed as text or left blank.
enum Fallbacks {
    /// The core media types of EPUB 3.3 that a browser draws, and the video a browser plays.
    static let shown: Set<String> = [
        "image/gif", "image/jpeg", "image/png", "image/svg+xml", "image/webp",
        "audio/mpeg", "audio/mp4", "audio/ogg", "audio/opus", "video/mp4", "video/webm", "video/ogg",
        "text/css", "text/javascript", "application/javascript", "application/ecmascript",
        "font/ttf", "font/otf", "font/woff", "font/woff2", "application/font-sfnt", "application/font-woff",
        "application/vnd.ms-opentype", "application/x-font-ttf", "application/x-font-otf",
        "application/xhtml+xml", "text/html", "application/smil+xml", "application/pls+xml",
        "application/x-dtbncx+xml", "application/oebps-package+xml", "application/xml", "text/xml",
        "text/plain"
    ]

    /// The pages a browser shows as a page of the reading order.
    static let pages: Set<String> = ["application/xhtml+xml", "text/html", "image/svg+xml"]

    static func essence(_ type: String) -> String {
        String(type.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The href and type to serve for `link` (a manifest link): its own, or the first alternate a browser shows.
    static func choice(for link: Link, href: String) -> (href: String, type: String) {
        let type = link.type ?? "application/octet-stream"
        guard !shown.contains(essence(type)) else { return (href, type) }
        for alternate in link.extra["alternate"]?.array ?? [] {
            if let h = alternate["href"]?.string, let t = alternate["type"]?.string, shown.contains(essence(t)) {
                return (h, t)
            }
        }
        return (href, type)
    }

    /// A page of the reading order in place of an item of a type no browser shows, which has no fallback.
    static func foreignPage(title: String?, type: String) -> Data {
        let part = UnshownPart(title: title, type: type)
        let words = part.words(for: .browser)
        let (name, said) = (HTMLEscape.text(part.heading), HTMLEscape.text(words.sentence))
        let hint = words.hint.map { " " + HTMLEscape.text($0) } ?? ""
        return Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-8"/><title>\(name)</title></head>
            <body><section data-shelf-foreign="\(HTMLEscape.text(type))"><h1>\(name)</h1>
            <p>\(said)\(hint)</p></section></body></html>
            """.utf8)
    }
}
