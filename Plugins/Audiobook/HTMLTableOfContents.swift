import Foundation

/// The HTML table of contents of a W3C audiobook (a `resources` entry with `rel: contents`): the
/// `nav` whose role is `doc-toc` (else `epub:type="toc"`, else the first `nav`), its nested lists
/// of links into the tracks (`track.mp3#t=90`). Read with a small tolerant scanner: tags,
/// attributes and text, no DOM; headings without a link keep their children.
enum HTMLTableOfContents {
    /// TOC items as the manifest's JSON `toc` would give them: `href`, `title`, `children`. Hrefs are
    /// made relative to the manifest from `htmlPath`, the HTML's own href in the manifest.
    static func items(_ data: Data, htmlPath: String) -> [Any] {
        let html = String(decoding: data, as: UTF8.self)
        let nav = navigation(html)
        let root = Node()
        var stack: [Node] = [root]
        var items: [Node?] = [nil]
        var link: Node?
        var linkText = ""
        scan(nav) { token in
            switch token {
            case .open(let name, let attributes):
                switch name {
                case "li":
                    let n = Node()
                    stack[stack.count - 1].children.append(n)
                    items[items.count - 1] = n
                case "ol", "ul":
                    stack.append(items[items.count - 1] ?? stack[stack.count - 1])
                    items.append(nil)
                case "a":
                    let target: Node
                    if let item = items[items.count - 1], item.href == nil {
                        target = item
                    } else {
                        target = Node()
                        stack[stack.count - 1].children.append(target)
                    }
                    target.href = attributes["href"].map { relative($0, to: htmlPath) }
                    link = target
                    linkText = ""
                default: break
                }
            case .close(let name):
                switch name {
                case "ol", "ul":
                    if stack.count > 1 { stack.removeLast(); items.removeLast() }
                case "a":
                    if let l = link, l.title.isEmpty { l.title = clean(linkText) }
                    link = nil
                default: break
                }
            case .text(let text):
                if link != nil {
                    linkText += text
                } else if let item = items[items.count - 1], item.href == nil {
                    item.heading += text
                }
            }
        }
        return root.children.map { $0.json }
    }

    final class Node {
        var href: String?
        var title = ""
        var heading = ""
        var children: [Node] = []
        var json: [String: Any] {
            var o: [String: Any] = [
                "title": title.isEmpty ? clean(heading) : title, "children": children.map { $0.json }
            ]
            if let href { o["href"] = href }
            return o
        }
    }

    enum Token {
        case open(String, [String: String])
        case close(String)
        case text(String)
    }

    /// The TOC's `nav` element, or the whole document when it has none.
    static func navigation(_ html: String) -> Substring {
        var navs: [Substring] = []
        var rest = html[...]
        while let start = rest.range(of: "<nav", options: .caseInsensitive) {
            let after = rest[start.upperBound...]
            guard let next = after.first, next == ">" || next == " " || next == "\n" || next == "\t" || next == "\r"
            else {
                rest = after
                continue
            }
            let end = after.range(of: "</nav", options: .caseInsensitive)?.lowerBound ?? after.endIndex
            navs.append(rest[start.lowerBound..<end])
            rest = after[end...]
        }
        func tag(_ nav: Substring) -> Substring { nav.prefix { $0 != ">" } }
        return navs.first { tag($0).contains("doc-toc") }
            ?? navs.first { tag($0).contains("toc") }
            ?? navs.first
            ?? html[...]
    }

    /// Calls `body` with each tag and text run (comments, scripts and styles skipped).
    static func scan(_ html: Substring, _ body: (Token) -> Void) {
        var i = html.startIndex
        while i < html.endIndex {
            guard let lt = html[i...].firstIndex(of: "<") else {
                body(.text(decode(html[i...])))
                return
            }
            if lt > i { body(.text(decode(html[i..<lt]))) }
            if html[lt...].hasPrefix("<!--") {
                i = html[lt...].range(of: "-->")?.upperBound ?? html.endIndex
                continue
            }
            guard let gt = html[lt...].firstIndex(of: ">") else { return }
            let inner = html[html.index(after: lt)..<gt]
            i = html.index(after: gt)
            if inner.hasPrefix("/") {
                body(.close(String(inner.dropFirst().prefix { $0.isLetter || $0.isNumber }).lowercased()))
                continue
            }
            let name = String(inner.prefix { $0.isLetter || $0.isNumber || $0 == ":" }).lowercased()
            if name.isEmpty { continue }
            if name == "script" || name == "style" {
                i = html[i...].range(of: "</\(name)", options: .caseInsensitive)?.upperBound ?? html.endIndex
                continue
            }
            body(.open(name, attributes(inner.dropFirst(name.count))))
        }
    }

    static func attributes(_ text: Substring) -> [String: String] {
        var out: [String: String] = [:]
        var i = text.startIndex
        func skipSpace() {
            while i < text.endIndex, text[i].isWhitespace || text[i] == "/" { i = text.index(after: i) }
        }
        while true {
            skipSpace()
            guard i < text.endIndex else { return out }
            let nameStart = i
            while i < text.endIndex, !text[i].isWhitespace, text[i] != "=", text[i] != "/" { i = text.index(after: i) }
            let name = text[nameStart..<i].lowercased()
            skipSpace()
            guard i < text.endIndex, text[i] == "=" else { out[name] = ""; continue }
            i = text.index(after: i)
            while i < text.endIndex, text[i].isWhitespace { i = text.index(after: i) }
            guard i < text.endIndex else { out[name] = ""; return out }
            var value: Substring
            if text[i] == "\"" || text[i] == "'" {
                let quote = text[i]
                let start = text.index(after: i)
                let end = text[start...].firstIndex(of: quote) ?? text.endIndex
                value = text[start..<end]
                i = end < text.endIndex ? text.index(after: end) : end
            } else {
                let start = i
                while i < text.endIndex, !text[i].isWhitespace { i = text.index(after: i) }
                value = text[start..<i]
            }
            out[name] = decode(value)
        }
    }

    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "&", let semi = text[i...].prefix(12).firstIndex(of: ";") {
                let entity = text[text.index(after: i)..<semi]
                var scalar: Unicode.Scalar?
                switch entity {
                case "amp": scalar = "&"
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                case "nbsp": scalar = " "
                default:
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    } else if entity.hasPrefix("#") {
                        scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                    }
                }
                if let scalar {
                    out.unicodeScalars.append(scalar)
                    i = text.index(after: semi)
                    continue
                }
            }
            out.append(c)
            i = text.index(after: i)
        }
        return out
    }

    static func clean(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// A link of the HTML (relative to it) made relative to the manifest; absolute links stay.
    static func relative(_ href: String, to htmlPath: String) -> String {
        if href.hasPrefix("#") || href.contains("://") || href.hasPrefix("/") { return href }
        let folder = (htmlPath as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return href }
        var parts = folder.split(separator: "/").map(String.init)
        var rest = href[...]
        while rest.hasPrefix("../") || rest.hasPrefix("./") {
            if rest.hasPrefix("../") {
                if !parts.isEmpty { parts.removeLast() }; rest = rest.dropFirst(3)
            } else {
                rest = rest.dropFirst(2)
            }
        }
        return (parts + [String(rest)]).joined(separator: "/")
    }
}
