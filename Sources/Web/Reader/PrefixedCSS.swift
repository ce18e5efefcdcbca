import Foundation

/// The CSS properties EPUB 3.3 lets a book write with an `-epub-` prefix (its appendix "Prefixed properties"), which
/// browsers no longer read, drawn as the standard properties they stand for, as Readium does: each prefixed
/// declaration in a style sheet, a `<style>` or a `style="…"` is kept and followed by its standard equivalent, so
/// that a declaration the book writes later still wins. Only text with `-epub-` in it is read.
enum PrefixedCSS {
    /// The standard property of each prefixed one, and how its EPUB values are written in CSS today.
    static let properties: [String: (name: String, value: @Sendable (String) -> String)] = [
        "hyphens": ("hyphens", { $0 }),
        "line-break": ("line-break", { $0 }),
        "word-break": ("word-break", { $0 }),
        "text-align-last": ("text-align-last", { $0 }),
        "writing-mode": ("writing-mode", writingMode),
        "text-orientation": ("text-orientation", textOrientation),
        "text-combine": ("text-combine-upright", textCombine),
        "text-combine-horizontal": ("text-combine-upright", textCombine),
        "text-emphasis": ("text-emphasis", { $0 }),
        "text-emphasis-color": ("text-emphasis-color", { $0 }),
        "text-emphasis-style": ("text-emphasis-style", { $0 }),
        "text-emphasis-position": ("text-emphasis-position", emphasisPosition),
        "text-underline-position": ("text-underline-position", { $0 }),
        "text-transform": ("text-transform", fullWidth),
        "ruby-position": ("ruby-position", { $0 })
    ]

    /// A style sheet or a page (CSS, HTML, SVG) with each prefixed declaration followed by its standard one.
    static func rewrite(_ data: Data, type: String) -> Data {
        guard type.contains("css") || type.contains("html") || type.contains("svg") || type.contains("xml"),
            data.range(of: Data("-epub-".utf8)) != nil, let text = String(data: data, encoding: .utf8)
        else { return data }
        return Data(rewrite(text).utf8)
    }

    static func rewrite(_ text: String) -> String {
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        let prefix = Array("-epub-".unicodeScalars)
        while i < chars.count {
            guard chars[i] == "-", i + prefix.count < chars.count, Array(chars[i..<(i + prefix.count)]) == prefix,
                i == 0 || !isNameScalar(chars[i - 1])
            else {
                out.append(chars[i])
                i += 1
                continue
            }
            var end = i + prefix.count
            while end < chars.count, isNameScalar(chars[end]) { end += 1 }
            let name = String(String.UnicodeScalarView(chars[(i + prefix.count)..<end])).lowercased()
            var colon = end
            while colon < chars.count, chars[colon] == " " || chars[colon] == "\t" { colon += 1 }
            guard let standard = properties[name], colon < chars.count, chars[colon] == ":" else {
                out.append(contentsOf: chars[i..<end])
                i = end
                continue
            }
            let valueEnd = endOfValue(chars, from: colon + 1)
            let value = String(String.UnicodeScalarView(chars[(colon + 1)..<valueEnd]))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            out.append(contentsOf: chars[i..<valueEnd])
            if !value.isEmpty {
                out.append(contentsOf: ";\(standard.name):\(standard.value(value))".unicodeScalars)
            }
            i = valueEnd
        }
        return String(out)
    }

    /// Where a declaration's value ends: at `;`, `}`, the end of a tag or a line, or a quote that closes the
    /// attribute holding it (one with no partner before the end), whichever comes first.
    static func endOfValue(_ chars: [Unicode.Scalar], from start: Int) -> Int {
        let stops: Set<Unicode.Scalar> = [";", "}", "<", ">", "\n", "\r"]
        var i = start
        while i < chars.count, !stops.contains(chars[i]) {
            if chars[i] == "\"" || chars[i] == "'" {
                var j = i + 1
                while j < chars.count, chars[j] != chars[i], !stops.contains(chars[j]) { j += 1 }
                guard j < chars.count, chars[j] == chars[i] else { return i }
                i = j
            }
            i += 1
        }
        return i
    }

    static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_"
    }

    /// EPUB 3.0's `horizontal` is CSS's `all`.
    static func textCombine(_ value: String) -> String {
        value.lowercased() == "horizontal" ? "all" : value
    }

    /// EPUB 3.0's orientations (from an older draft of CSS Writing Modes) as CSS names them.
    static func textOrientation(_ value: String) -> String {
        switch value.lowercased() {
        case "vertical-right", "use-glyph-orientation": return "mixed"
        case "rotate-right", "rotate-normal", "sideways-right", "sideways-left": return "sideways"
        default: return value
        }
    }

    /// The writing modes of SVG 1.1 that books still write.
    static func writingMode(_ value: String) -> String {
        switch value.lowercased() {
        case "tb-rl", "tb": return "vertical-rl"
        case "tb-lr": return "vertical-lr"
        case "lr-tb", "rl-tb", "lr", "rl": return "horizontal-tb"
        default: return value
        }
    }

    /// EPUB's `fullwidth` is CSS's `full-width`, which Chromium does not draw: the custom property (inherited) lets
    /// the reader's script in the page (web/js/reader/in-book-css.js) change the letters themselves.
    static func fullWidth(_ value: String) -> String {
        guard value.lowercased().contains("fullwidth") else { return value }
        return value.lowercased().replacingOccurrences(of: "fullwidth", with: "full-width") + ";--shelf-full-width:1"
    }

    /// `over` or `under` alone: browsers want the side too (right, as in Japanese).
    static func emphasisPosition(_ value: String) -> String {
        let words = value.lowercased().split(separator: " ")
        guard words.count == 1 else { return value }
        return "\(value) right"
    }
}
