import Foundation
import PluginAPI
import PluginKit

/// Renders a content document as a standalone HTML5 page with the reader's settings applied.
/// Every resource the page refers to (images, styles, fonts, other chapters) is referenced by its
/// manifest href, relative to the publication root, so `shelf resource` or a server can serve it.
/// Scripts and event handlers are dropped: a book renders, it does not run.
public struct HTMLRenderer {
    public struct Settings {
        public var fontScale: Int = 100
        public var font: String = "serif"
        public var theme: String = "day"
        public init(fontScale: Int = 100, font: String = "serif", theme: String = "day") {
            self.fontScale = fontScale
            self.font = font
            self.theme = theme
        }
    }

    static let void: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr"
    ]

    let docPath: String
    let docDir: String
    var out = ""

    public static func css(_ s: Settings) -> String {
        let (bg, fg, link): (String, String, String)
        switch s.theme.lowercased() {
        case "night", "dark": (bg, fg, link) = ("#000000", "#ffffff", "#8ab4f8")
        case "sepia": (bg, fg, link) = ("#f4ecd8", "#5b4636", "#7a4b1c")
        default: (bg, fg, link) = ("#ffffff", "#000000", "#0645ad")
        }
        // The publisher's font (the default): the book's own families are left as they are; serif or sans replaces
        // them everywhere.
        let family: String? =
            s.font.lowercased() == "publisher"
            ? nil
            : s.font.lowercased().hasPrefix("sans")
                ? "Calibri, Avenir, \"Helvetica Neue\", Arial, sans-serif"
                : "\"Times New Roman\", Times, Georgia, serif"
        let bodyFamily = family.map { "font-family: \($0) !important; " } ?? ""
        let inheritedFamily = family == nil ? "" : " font-family: inherit;"
        let scale = min(max(s.fontScale, 25), 800)
        return """
            /* shelf reader settings: font scale \(scale)%, \(s.font), \(s.theme) */
            html { font-size: \(scale)% !important; background-color: \(bg) !important; color: \(fg) !important; }
            body { \(bodyFamily)font-size: 1rem !important; background-color: \(bg) !important; color: \(fg) !important;
                   column-count: 1 !important; columns: auto !important; max-width: 40em; margin: 0 auto !important; padding: 1em 1.5em !important; line-height: 1.5; }
            body * { color: inherit !important; background-color: transparent !important;\(inheritedFamily) }
            a, a * { color: \(link) !important; }
            img, svg, video { max-width: 100% !important; height: auto; }
            """
    }

    /// `pageProgression`: the spine's page-progression-direction ("rtl" for a Japanese vertical book), written on the
    /// page as `data-page-progression-direction` for the reader that turns its pages; the root element's own style
    /// (where such books set `writing-mode: vertical-rl`) is kept.
    public static func render(
        _ doc: XDocument, path: String, settings: Settings, title: String?, language: String?,
        pageProgression: String? = nil
    ) -> String {
        var r = HTMLRenderer(docPath: path, docDir: Paths.directory(of: path))
        let root = doc.root
        let head = root.child("head")
        let body = root.child("body")
        let lang = root.attr("lang", ns: "http://www.w3.org/XML/1998/namespace") ?? root.attr("lang") ?? language
        let dir = root.attr("dir")
        // XHTML (format.h): well-formed XML that an HTML parser reads the same way (polyglot markup).
        r.out = "<!DOCTYPE html>\n<html " + rootNamespaces
        if let lang { r.out += " lang=\"\(escapeAttr(lang))\" xml:lang=\"\(escapeAttr(lang))\"" }
        if let dir { r.out += " dir=\"\(escapeAttr(dir))\"" }
        if let style = root.attr("style") { r.out += " style=\"\(escapeAttr(r.rewriteCSSURLs(style)))\"" }
        if let progression = pageProgression, ["ltr", "rtl"].contains(progression) {
            r.out += " data-page-progression-direction=\"\(progression)\""
        }
        r.out +=
            ">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        let docTitle = head?.child("title")?.trimmedText.nilIfEmpty ?? title
        if let t = docTitle { r.out += "<title>\(escapeText(t))</title>\n" }
        if let head {
            for e in head.elements where ["link", "style", "meta"].contains(e.name.lowercased()) {
                if e.name == "meta", e.attr("charset") != nil || e.attr("http-equiv") != nil { continue }
                r.element(e, depth: 0)
                r.out += "\n"
            }
        }
        r.out += "<style id=\"shelf-settings\">\n\(css(settings))\n</style>\n</head>\n"
        if let body {
            r.element(body, depth: 0)
        } else if root.name == "svg" {
            r.out += "<body>"
            r.element(root, depth: 0)
            r.out += "</body>"
        } else {
            // DTBook and other XML: the text, as paragraphs.
            r.out += "<body>\n"
            let text = TextRenderer.render(root, width: 100_000, decorate: false)
            for p in text.split(separator: "\n") { r.out += "<p>\(escapeText(String(p)))</p>\n" }
            r.out += "</body>"
        }
        r.out += "\n</html>\n"
        return r.out
    }

    static let mathML = "http://www.w3.org/1998/Math/MathML"

    /// The namespaces of an XHTML root, with the prefixes the copied attributes may use.
    static let rootNamespaces = "xmlns=\"\(NS.xhtml)\" xmlns:epub=\"\(NS.epub)\" xmlns:xlink=\"\(NS.xlink)\""

    static func escapeText(_ s: String) -> String {
        var o = ""
        o.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            default: o.unicodeScalars.append(c)
            }
        }
        return o
    }

    static func escapeAttr(_ s: String) -> String {
        var o = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case "\"": o += "&quot;"
            default: o.unicodeScalars.append(c)
            }
        }
        return o
    }

    /// A URL attribute rewritten to a root-relative manifest href.
    func rewrite(_ value: String) -> String {
        let v = value.trimmedASCII
        if v.isEmpty || v.hasPrefix("#") || Paths.isExternal(v) { return v }
        guard let p = Paths.resolve(v, against: docDir) else { return v }
        let frag = Paths.splitFragment(v).fragment
        if p == docPath, let frag { return "#" + frag }
        return Paths.href(forEntry: p) + (frag.map { "#" + $0 } ?? "")
    }

    static let urlAttributes: Set<String> = ["src", "href", "poster", "data", "srcset-no", "background", "altimg"]

    mutating func element(_ e: XElement, depth: Int) {
        // Deeper nesting is written as text: no recursion a hostile document can drive.
        guard depth < TextRenderer.maxDepth + 20 else {
            out += HTMLRenderer.escapeText(e.text)
            return
        }
        let name = e.name
        let lower = name.lowercased()
        if lower == "script" { return }
        out += "<" + name
        for a in e.attributes {
            let an = a.name.lowercased()
            if an.hasPrefix("on") { continue }
            var qualified = a.name
            if a.ns == NS.xlink {
                qualified = "xlink:" + a.name
            } else if a.ns == "http://www.w3.org/XML/1998/namespace" {
                qualified = "xml:" + a.name
            } else if a.ns == NS.epub {
                qualified = "epub:" + a.name
            }
            var value = a.value
            if HTMLRenderer.urlAttributes.contains(an), a.ns == nil || a.ns == NS.xlink {
                if value.lowercased().hasPrefix("javascript:") { continue }
                value = rewrite(value)
            }
            if lower == "style" || an == "style" { value = rewriteCSSURLs(value) }
            out += " \(qualified)=\"\(HTMLRenderer.escapeAttr(value))\""
        }
        if e.ns == NS.svg && lower == "svg" && e.attr("xmlns") == nil {
            out += " xmlns=\"\(NS.svg)\" xmlns:xlink=\"\(NS.xlink)\""
        }
        if lower == "math" && e.ns == HTMLRenderer.mathML && e.attr("xmlns") == nil {
            out += " xmlns=\"\(HTMLRenderer.mathML)\""
        }
        if HTMLRenderer.void.contains(lower) && e.children.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        for c in e.children {
            switch c {
            case .text(let t):
                // Style text in a CDATA section behind CSS comments: XML reads it whole, HTML as plain CSS.
                out +=
                    lower == "style"
                    ? "/*<![CDATA[*/" + rewriteCSSURLs(t).replacingOccurrences(of: "]]>", with: "]] >") + "/*]]>*/"
                    : HTMLRenderer.escapeText(t)
            case .element(let child):
                element(child, depth: depth + 1)
            }
        }
        out += "</\(name)>"
    }

    /// Rewrites url(...) references in inline CSS to manifest hrefs.
    func rewriteCSSURLs(_ css: String) -> String {
        guard css.contains("url(") else { return css }
        var result = ""
        var rest = Substring(css)
        while let r = rest.range(of: "url(") {
            result += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            var inner = String(rest[..<close]).trimmedASCII
            var quote = ""
            if let f = inner.first, f == "\"" || f == "'" {
                quote = String(f); inner = String(inner.dropFirst().dropLast())
            }
            result += quote + rewrite(inner) + quote
            rest = rest[close...]
        }
        result += rest
        return result
    }
}
