import Foundation
import PluginAPI
import PluginKit

/// Table of contents, landmarks and page list, from an EPUB 3 nav document or an NCX.
public struct Navigation {
    public var toc: [Link] = []
    public var landmarks: [Link] = []
    public var pageList: [Link] = []
    public var warnings: [String] = []

    public static let maxDepth = 64
    public static let maxEntries = 50_000

    /// Turns a raw href found in `docPath` into a manifest href (percent-encoded, root-relative,
    /// with its fragment), or nil when it leaves the book.
    static func manifestHref(_ raw: String, in docPath: String) -> String? {
        let trimmed = raw.trimmedASCII
        if trimmed.isEmpty { return nil }
        if Paths.isExternal(trimmed) { return trimmed }
        let (_, fragment) = Paths.splitFragment(trimmed)
        if trimmed.hasPrefix("#") {
            return Paths.href(forEntry: docPath) + "#" + (fragment ?? "")
        }
        guard let p = Paths.resolve(trimmed, against: Paths.directory(of: docPath)) else { return nil }
        return Paths.href(forEntry: p) + (fragment.map { "#" + $0 } ?? "")
    }

    /// The manifest hrefs of the references in one document, as `manifestHref` makes them: plain
    /// relative ones (nearly all of a table of contents) are the document's folder href followed
    /// by the reference's path and fragment, without the general resolving.
    struct DocumentHrefs {
        let docPath: String
        private let folderHref: String

        init(_ docPath: String) {
            self.docPath = docPath
            folderHref = Paths.href(forEntry: Paths.directory(of: docPath))
        }

        func manifestHref(_ raw: String) -> String? {
            guard let plain = Paths.PlainRelative(raw) else { return Navigation.manifestHref(raw, in: docPath) }
            return folderHref + plain.href + plain.rest
        }
    }

    // MARK: EPUB 3 nav

    static func parseNav(_ doc: NavOutline, path: String, typeOf: (String) -> String?) -> Navigation {
        var nav = Navigation()
        var count = 0
        let hrefs = DocumentHrefs(path)
        for n in doc.navs {
            let types = (n.type ?? "").split(separator: " ").map(String.init)
            guard let ol = n.list else { continue }
            let links = parseOL(ol, hrefs: hrefs, depth: 0, count: &count, typeOf: typeOf, warnings: &nav.warnings)
            if types.contains("toc"), nav.toc.isEmpty {
                nav.toc = links
            } else if types.contains("landmarks"), nav.landmarks.isEmpty {
                // Landmarks carry their epub:type as rel.
                nav.landmarks = ol.compactMap { li -> Link? in
                    guard let a = li.a, let raw = a.href, let href = hrefs.manifestHref(raw) else { return nil }
                    let t = (a.epubType ?? "").split(separator: " ").map(String.init)
                    return Link(
                        href: href, type: typeOf(href), title: a.trimmedText.nilIfEmpty, rel: t.isEmpty ? nil : t)
                }
            } else if types.contains("page-list"), nav.pageList.isEmpty {
                nav.pageList = links
            }
        }
        return nav
    }

    private static func parseOL(
        _ ol: [NavOutline.Item], hrefs: DocumentHrefs, depth: Int, count: inout Int,
        typeOf: (String) -> String?, warnings: inout [String]
    ) -> [Link] {
        guard depth < maxDepth else {
            warnings.append("the table of contents nests deeper than \(maxDepth) levels; deeper entries were dropped")
            return []
        }
        var out: [Link] = []
        for li in ol {
            guard count < maxEntries else { break }
            count += 1
            let label = li.a ?? li.span
            let href = label?.href.flatMap { hrefs.manifestHref($0) }
            let title = label.map { titleText($0) }
            let children =
                li.children.map {
                    parseOL($0, hrefs: hrefs, depth: depth + 1, count: &count, typeOf: typeOf, warnings: &warnings)
                } ?? []
            // A heading without href keeps its children; readers show it as a group.
            guard href != nil || !children.isEmpty else { continue }
            out.append(
                Link(
                    href: href ?? children.first?.href ?? "", type: href.flatMap(typeOf),
                    title: title?.nilIfEmpty, children: children.isEmpty ? nil : children))
        }
        return out
    }

    /// The label of a nav entry: its text, or the alt/title of an image inside it.
    static func titleText(_ e: NavOutline.Label) -> String {
        if !e.trimmedText.isEmpty { return e.trimmedText }
        if let alt = e.imageAlt { return XML.collapse(alt) }
        return e.title ?? ""
    }

    // MARK: NCX

    static func parseNCX(_ ncx: NCXOutline, path: String, typeOf: (String) -> String?) -> Navigation {
        var nav = Navigation()
        var count = 0
        let hrefs = DocumentHrefs(path)
        if let map = ncx.navMap {
            nav.toc = parseNavPoints(
                map, hrefs: hrefs, depth: 0, count: &count, typeOf: typeOf, warnings: &nav.warnings)
        }
        if let pl = ncx.pageList {
            nav.pageList = pl.compactMap { pt in
                guard let src = pt.src, let href = hrefs.manifestHref(src) else { return nil }
                let label = pt.label ?? pt.value
                return Link(href: href, type: typeOf(href), title: label?.nilIfEmpty)
            }
        }
        return nav
    }

    private static func parseNavPoints(
        _ points: [NCXOutline.Point], hrefs: DocumentHrefs, depth: Int, count: inout Int,
        typeOf: (String) -> String?, warnings: inout [String]
    ) -> [Link] {
        guard depth < maxDepth else {
            warnings.append("the NCX nests deeper than \(maxDepth) levels; deeper entries were dropped")
            return []
        }
        var out: [Link] = []
        for np in points {
            guard count < maxEntries else { break }
            count += 1
            let href = np.src.flatMap { hrefs.manifestHref($0) }
            let children = parseNavPoints(
                np.children, hrefs: hrefs, depth: depth + 1, count: &count, typeOf: typeOf, warnings: &warnings)
            guard href != nil || !children.isEmpty else { continue }
            out.append(
                Link(
                    href: href ?? children.first?.href ?? "", type: href.flatMap(typeOf),
                    title: np.title?.nilIfEmpty, children: children.isEmpty ? nil : children))
        }
        return out
    }

    /// Number of entries in a link tree.
    public static func count(_ links: [Link]) -> Int {
        var n = 0
        var stack = links
        while let l = stack.popLast() {
            n += 1
            stack.append(contentsOf: l.children ?? [])
        }
        return n
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
