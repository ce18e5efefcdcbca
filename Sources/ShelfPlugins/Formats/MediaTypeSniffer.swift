import Foundation
import LibZip

/// Tells a file's media type from its content first (zip `mimetype` entry and container layout,
/// JSON manifest profile, magic bytes), and from its extension only when content cannot tell or
/// says something generic (plain text that is Markdown, a zip that is nothing more specific).
public enum MediaTypeSniffer {
    public static let headSize = 64 * 1024

    public static func sniff(head: [UInt8], path: String, fileExtension: String) -> String? {
        // An empty file is nothing, whatever its name says.
        guard !head.isEmpty else { return nil }
        let content = sniffContent(head, path: path)
        switch content {
        case nil, "application/octet-stream", "application/zip", "application/json", "text/plain":
            return byExtension[fileExtension] ?? content
        default:
            return content
        }
    }

    static let byExtension: [String: String] = [
        "epub": "application/epub+zip", "md": "text/markdown", "markdown": "text/markdown",
        "txt": "text/plain", "text": "text/plain", "audiobook": "application/audiobook+zip",
        "lpf": "application/lpf+zip", "m4b": "audio/mp4", "m4a": "audio/mp4", "mp3": "audio/mpeg",
        "pdf": "application/pdf", "opds": "application/atom+xml", "json": "application/json"
    ]

    static func sniffContent(_ head: [UInt8], path: String) -> String? {
        guard !head.isEmpty else { return nil }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return sniffZip(head, path: path) }
        if head.starts(with: Array("%PDF-".utf8)) { return "application/pdf" }
        if head.starts(with: Array("ID3".utf8)) { return "audio/mpeg" }
        if head.count > 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            return brand.hasPrefix("M4B") || brand.hasPrefix("M4A") || brand.hasPrefix("mp4") || brand.hasPrefix("isom")
                ? "audio/mp4" : "video/mp4"
        }
        if head.starts(with: Array("OggS".utf8)) { return "audio/ogg" }
        if head.starts(with: Array("fLaC".utf8)) { return "audio/flac" }
        if head.count > 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WAVE".utf8) {
            return "audio/wav"
        }
        if head.count > 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 { return "audio/mpeg" }
        if head.contains(0) { return "application/octet-stream" }
        let text = String(decoding: head, as: UTF8.self).drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if text.hasPrefix("{") { return sniffJSON(path: path) }
        if text.hasPrefix("<") { return sniffXML(String(text.prefix(4096))) }
        // Valid UTF-8 (allowing a character cut at the end of the head) with no NUL is text.
        let valid =
            String(validating: head, as: UTF8.self) != nil
            || (head.count == headSize && String(validating: head.dropLast(3), as: UTF8.self) != nil)
        return valid ? "text/plain" : "application/octet-stream"
    }

    /// OCF says the first entry is an uncompressed `mimetype`; when a packager broke that rule,
    /// the container layout still tells.
    static func sniffZip(_ head: [UInt8], path: String) -> String {
        if head.count > 38 {
            let nameLength = Int(head[26]) | Int(head[27]) << 8
            let extraLength = Int(head[28]) | Int(head[29]) << 8
            let method = Int(head[8]) | Int(head[9]) << 8
            let size = Int(head[18]) | Int(head[19]) << 8 | Int(head[20]) << 16 | Int(head[21]) << 24
            let nameEnd = 30 + nameLength
            if method == 0, nameEnd <= head.count, String(decoding: head[30..<nameEnd], as: UTF8.self) == "mimetype",
                size > 0, size < 256, nameEnd + extraLength + size <= head.count
            {
                // Trimmed as bytes: Foundation's character sets cost a short command more than the sniff.
                var bytes = head[(nameEnd + extraLength)..<(nameEnd + extraLength + size)]
                while let first = bytes.first, first <= 0x20 { bytes = bytes.dropFirst() }
                while let last = bytes.last, last <= 0x20 { bytes = bytes.dropLast() }
                let value = String(decoding: bytes, as: UTF8.self)
                if value.contains("/"), value.count < 128 { return value }
            }
        }
        // A sniff: a ZIP libzip cannot list is still a ZIP; the plugin that opens it says what is wrong.
        guard let archive = try? ZipReader(path: path, limits: .namesOnly) else { return "application/zip" }
        func has(_ name: String) -> Bool { archive.contains(name) }
        if has("META-INF/container.xml") { return "application/epub+zip" }
        if has("publication.json") { return "application/lpf+zip" }
        if has("manifest.json") { return "application/audiobook+zip" }
        return "application/zip"
    }

    static func sniffJSON(path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count < 32 << 20,
            // A sniff: JSON that does not parse is still JSON by its name; the plugin says what is wrong.
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            return "application/json"
        }
        let metadata = object["metadata"] as? [String: Any]
        let conformsTo = [metadata?["conformsTo"], object["conformsTo"]].flatMap { value -> [String] in
            if let s = value as? String { return [s] }
            return value as? [String] ?? []
        }
        let types = [metadata?["@type"], object["type"]].compactMap { $0 as? String }
        if conformsTo.contains(where: { $0.contains("audiobook") })
            || types.contains(where: { $0.hasSuffix("Audiobook") })
        {
            return "application/audiobook+json"
        }
        if object["publications"] != nil || object["navigation"] != nil || object["groups"] != nil {
            return "application/opds+json"
        }
        if object["authentication"] != nil { return "application/opds-authentication+json" }
        if object["readingOrder"] != nil || object["spine"] != nil { return "application/webpub+json" }
        return "application/json"
    }

    static func sniffXML(_ text: String) -> String {
        switch rootElement(text) {
        case "feed"?: return "application/atom+xml"
        case "entry"?: return "application/atom+xml"
        case "html"?: return "application/xhtml+xml"
        case "OpenSearchDescription"?: return "application/opensearchdescription+xml"
        default: return "application/xml"
        }
    }

    /// The local name (without namespace prefix) of an XML document's root element: the first element that is
    /// not a declaration, comment or doctype. Nil when the text starts no element.
    static func rootElement(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                guard let close = after.firstIndex(of: ">") else { break }
                rest = after[after.index(after: close)...]
                continue
            }
            let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            let local = name.split(separator: ":").last.map(String.init) ?? ""
            return local.isEmpty ? nil : local
        }
        return nil
    }
}
