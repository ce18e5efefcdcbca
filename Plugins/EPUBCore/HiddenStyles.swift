import Foundation

/// What a content document's style sheets hide with `display: none`, for the text rendering: accessible books keep
/// image descriptions and the like in elements of a class their CSS hides from the page, and the terminal shows
/// what the page shows. Only what a class says is read: a rule whose selectors are simple (an optional element
/// name and one or more classes, `.longdesc`, `p.hidden`, `.a.b`) and whose declarations set `display: none`, in a
/// style sheet the document links (`<link rel="stylesheet">`) or holds (`<style>`), outside any at-rule (`@media`
/// may be print only). An inline `style="display: none"` hides its element too.
public struct HiddenStyles: Sendable {
    struct Selector: Sendable, Equatable {
        let element: String?
        let classes: [String]
    }

    private(set) var selectors: [Selector] = []

    public init() {}

    /// The rules of one style sheet's text.
    public init(css: String) { add(css: css) }

    public var isEmpty: Bool { selectors.isEmpty }

    mutating func add(css: String) {
        let text = Self.withoutComments(css)
        var i = text.startIndex
        while i < text.endIndex {
            guard let open = text[i...].firstIndex(where: { $0 == "{" || $0 == "@" || $0 == ";" }) else { break }
            if text[open] == ";" {
                i = text.index(after: open)
                continue
            }
            if text[open] == "@" {
                // An at-rule: to its end, the block it opens (nested ones too) or its semicolon.
                i = Self.skipAtRule(text, from: open)
                continue
            }
            guard let close = text[open...].firstIndex(of: "}") else { break }
            let declarations = text[text.index(after: open)..<close].lowercased().filter { !$0.isWhitespace }
            if declarations.split(separator: ";").contains(where: {
                $0 == "display:none" || $0 == "display:none!important"
            }) {
                for selector in text[i..<open].split(separator: ",") {
                    if let parsed = Self.simple(selector.trimmingCharacters(in: .whitespacesAndNewlines)) {
                        selectors.append(parsed)
                    }
                }
            }
            i = text.index(after: close)
        }
    }

    /// Whether `e` is hidden by a class rule or its own style attribute.
    func hides<E: TextElement>(_ e: E) -> Bool {
        if let style = e.attribute("style", ns: nil), Self.inlineHides(style) { return true }
        guard !selectors.isEmpty, let value = e.attribute("class", ns: nil) else { return false }
        let classes = Set(value.split(whereSeparator: { $0.isWhitespace }).map(String.init))
        guard !classes.isEmpty else { return false }
        let name = e.name.lowercased()
        return selectors.contains { s in
            (s.element == nil || s.element == name) && s.classes.allSatisfy(classes.contains)
        }
    }

    static func inlineHides(_ style: String) -> Bool {
        style.lowercased().filter { !$0.isWhitespace }.split(separator: ";").contains {
            $0 == "display:none" || $0 == "display:none!important"
        }
    }

    /// `p.note`, `.longdesc`, `.a.b`: an element name (optional) and classes, nothing else.
    static func simple(_ selector: String) -> Selector? {
        let parts = selector.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        let nameChars = { (s: String) in
            !s.isEmpty
                && s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
        }
        let element = parts[0]
        guard element.isEmpty || nameChars(element), parts.dropFirst().allSatisfy(nameChars) else { return nil }
        return Selector(element: element.isEmpty ? nil : element.lowercased(), classes: Array(parts.dropFirst()))
    }

    private static func withoutComments(_ css: String) -> String {
        var out = ""
        var rest = Substring(css)
        while let start = rest.range(of: "/*") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "*/") else { return out }
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    private static func skipAtRule(_ text: String, from start: String.Index) -> String.Index {
        var depth = 0
        var i = start
        while i < text.endIndex {
            switch text[i] {
            case ";" where depth == 0: return text.index(after: i)
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth <= 0 { return text.index(after: i) }
            default: break
            }
            i = text.index(after: i)
        }
        return text.endIndex
    }
}

extension EPUBBook {
    /// A style sheet larger than this is not read for what it hides.
    static let maxStyleSheetBytes: UInt64 = 1 << 20

    /// What the style sheets of the document at `path` (its root `root`) hide: those its head links, read from the
    /// book, and its style elements. A sheet that cannot be read hides nothing.
    func hiddenStyles<E: TextElement>(of root: E, path: String) -> HiddenStyles {
        var styles = HiddenStyles()
        guard let head = TextRenderer.firstChild(of: root, named: "head") else { return styles }
        head.forEachChild { item in
            guard case .element(let e) = item else { return true }
            if e.name == "style" {
                styles.add(css: e.text)
            } else if e.name == "link",
                TextRenderer.contains((e.attribute("rel", ns: nil) ?? "").lowercased(), "stylesheet"),
                !TextRenderer.contains((e.attribute("rel", ns: nil) ?? "").lowercased(), "alternate"),
                let href = e.attribute("href", ns: nil),
                let sheet = Paths.resolve(href, against: Paths.directory(of: path)),
                let data = try? data(path: sheet, limit: Self.maxStyleSheetBytes)
            {
                styles.add(css: String(decoding: data, as: UTF8.self))
            }
            return true
        }
        return styles
    }
}
