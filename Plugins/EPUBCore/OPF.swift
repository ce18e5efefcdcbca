import Foundation
import PluginAPI
import PluginKit

public enum NS {
    public static let opf = "http://www.idpf.org/2007/opf"
    public static let dc = "http://purl.org/dc/elements/1.1/"
    public static let container = "urn:oasis:names:tc:opendocument:xmlns:container"
    public static let xhtml = "http://www.w3.org/1999/xhtml"
    public static let epub = "http://www.idpf.org/2007/ops"
    public static let ncx = "http://www.daisy.org/z3986/2005/ncx/"
    public static let enc = "http://www.w3.org/2001/04/xmlenc#"
    public static let svg = "http://www.w3.org/2000/svg"
    public static let xlink = "http://www.w3.org/1999/xlink"
}

/// The OCF container: META-INF/container.xml.
public struct Container {
    public var rootfiles: [(path: String, mediaType: String)]

    public static func parse(_ data: Data) throws -> Container {
        let doc = try XML.parseRaw(data, name: "META-INF/container.xml")
        guard let root = doc.root else { return Container(rootfiles: []) }
        var roots: [(String, String)] = []
        for rf in root.descendants("rootfile") {
            guard let full = rf.attr("full-path"), !full.isEmpty else { continue }
            let type = rf.attr("media-type") ?? "application/oebps-package+xml"
            guard let path = Paths.normalise(Paths.percentDecode(full)), !path.isEmpty else { continue }
            roots.append((path, type))
        }
        return Container(rootfiles: roots)
    }
}

public struct ManifestItem {
    public var id: String
    public var path: String  // entry path
    public var fragment: String? = nil  // some books point several items at fragments of one file
    public var mediaType: String
    public var properties: [String]
    public var fallback: String?
    public var mediaOverlay: String?
}

public struct SpineItem {
    public var idref: String
    public var linear: Bool
    public var properties: [String]
}

public struct GuideReference {
    public var type: String
    public var title: String?
    public var path: String
    public var fragment: String?
}

/// One metadata expression (dc:* element or EPUB 3 meta), with its refinements.
public struct MetaEntry {
    public var property: String  // "dc:title", "dc:creator", "belongs-to-collection", ...
    public var value: String
    public var id: String?
    public var lang: String?
    public var attributes: [String: String]  // EPUB 2 opf:role, opf:file-as, opf:scheme, ...
    public var refinements: [(property: String, value: String, scheme: String?)] = []

    public func refinement(_ property: String) -> String? {
        refinements.first { $0.property == property }?.value
    }
}

/// The package document.
public struct OPFPackage {
    public var path: String
    public var version: String
    public var uniqueIdentifierID: String?
    public var entries: [MetaEntry] = []
    /// EPUB 2 style <meta name= content=> pairs.
    public var namedMeta: [(name: String, content: String)] = []
    public var items: [ManifestItem] = []
    public var itemsByID: [String: Int] = [:]
    public var spine: [SpineItem] = []
    public var spineTocID: String?
    public var pageProgression: String?
    public var guide: [GuideReference] = []
    public var warnings: [String] = []
    /// Refinements whose target is not a metadata expression: manifest item ids, mostly.
    public var itemRefinements: [String: [(property: String, value: String)]] = [:]

    public var majorVersion: Int { Int(version.split(separator: ".").first ?? "") ?? 2 }

    public func item(id: String) -> ManifestItem? {
        itemsByID[id].flatMap { $0 < items.count ? items[$0] : nil }
    }

    public func meta(_ property: String) -> [MetaEntry] { entries.filter { $0.property == property } }

    public func named(_ name: String) -> String? { namedMeta.first { $0.name == name }?.content }

    public static func parse(_ data: Data, path: String) throws -> OPFPackage {
        let doc = try PackageOutline.read(data, path: path)
        guard doc.rootName == "package" else {
            throw PluginFailure.badData(
                "'\(path)' is not an OPF package document (root element <\(doc.rootName)>)", at: path)
        }
        var opf = OPFPackage(
            path: path, version: doc.version?.trimmedASCII ?? "2.0", uniqueIdentifierID: doc.uniqueIdentifier)
        if !doc.wellFormed { opf.warnings.append("'\(path)' is not well-formed XML; read what could be recovered") }
        let base = Paths.directory(of: path)

        // Metadata: dc:* and meta (EPUB 2's dc-metadata/x-metadata wrappers already opened).
        if let metadata = doc.metadata {
            var byID: [String: Int] = [:]
            var refines: [(target: String, property: String, value: String, scheme: String?)] = []
            for e in metadata {
                if e.inDC {
                    var attrs: [String: String] = [:]
                    for a in e.attributes where a.ns == NS.opf || a.ns == nil { attrs[a.name] = a.value }
                    let entry = MetaEntry(
                        property: "dc:" + e.name, value: e.trimmedText, id: e.attributes.value("id"),
                        lang: e.attributes.value("lang", ns: "http://www.w3.org/XML/1998/namespace"), attributes: attrs)
                    if let id = entry.id { byID[id] = opf.entries.count }
                    opf.entries.append(entry)
                } else {
                    let a = e.attributes
                    if let name = a.value("name"), let content = a.value("content") {
                        opf.namedMeta.append((name, content.trimmedASCII))
                    } else if let property = a.value("property") {
                        let value = e.trimmedText
                        if let target = a.value("refines") {
                            refines.append((target, property, value, a.value("scheme")))
                        } else {
                            let entry = MetaEntry(
                                property: property, value: value, id: a.value("id"), lang: nil, attributes: [:])
                            if let id = entry.id { byID[id] = opf.entries.count }
                            opf.entries.append(entry)
                        }
                    }
                }
            }
            // Refinements may refine refinements (rare); one level is what readers use.
            for r in refines {
                let target = r.target.hasPrefix("#") ? String(r.target.dropFirst()) : r.target
                if let i = byID[target], i < opf.entries.count {
                    opf.entries[i].refinements.append((r.property, r.value, r.scheme))
                } else {
                    // Refinements of manifest items (media:duration of a SMIL file, for one).
                    opf.itemRefinements[target, default: []].append((r.property, r.value))
                }
            }
        } else {
            opf.warnings.append("the package has no <metadata>")
        }

        // Manifest.
        guard let items = doc.items else {
            throw PluginFailure.badData("the package document '\(path)' has no <manifest>", at: path)
        }
        opf.items.reserveCapacity(items.count)
        opf.itemsByID.reserveCapacity(items.count)
        for e in items {
            guard let id = e.id, let href = e.href else {
                opf.warnings.append("a manifest item without id or href was skipped")
                continue
            }
            // The package's folder is clean (normalised): a plain href needs no resolving.
            let plain = Paths.PlainRelative(href)
            guard let entryPath = plain.map({ base + $0.path }) ?? Paths.resolve(href, against: base),
                !entryPath.isEmpty
            else {
                opf.warnings.append("manifest item '\(id)' has an href outside the book ('\(href)') and was skipped")
                continue
            }
            if opf.itemsByID[id] != nil {
                opf.warnings.append("manifest id '\(id)' appears twice; the first is used")
                continue
            }
            let props = OPFPackage.propertyList(e.properties)
            opf.itemsByID[id] = opf.items.count
            opf.items.append(
                ManifestItem(
                    id: id, path: entryPath, fragment: plain.map(\.fragment) ?? Paths.splitFragment(href).fragment,
                    mediaType: (e.mediaType ?? "").trimmedASCII.lowercasedFast,
                    properties: props, fallback: e.fallback, mediaOverlay: e.mediaOverlay))
        }

        // Spine.
        if let spine = doc.spine {
            opf.spineTocID = spine.toc
            opf.pageProgression = spine.pageProgression
            for e in spine.itemrefs {
                guard let idref = e.idref else { continue }
                guard opf.itemsByID[idref] != nil else {
                    opf.warnings.append("spine item '\(idref)' is not in the manifest and was skipped")
                    continue
                }
                let props = OPFPackage.propertyList(e.properties)
                opf.spine.append(
                    SpineItem(idref: idref, linear: (e.linear ?? "yes").lowercasedFast != "no", properties: props))
            }
        }
        if opf.spine.isEmpty {
            throw PluginFailure.badData(
                "the package document '\(path)' has no readable spine (no itemref points to a manifest item)", at: path)
        }

        // Guide (EPUB 2; deprecated but present in many EPUB 3 books).
        for e in doc.guide {
            guard let type = e.type, let href = e.href else { continue }
            let plain = Paths.PlainRelative(href)
            guard let p = plain.map({ base + $0.path }) ?? Paths.resolve(href, against: base) else { continue }
            opf.guide.append(
                GuideReference(
                    type: type.lowercasedFast, title: e.title, path: p,
                    fragment: plain.map(\.fragment) ?? Paths.splitFragment(href).fragment))
        }
        return opf
    }

    /// A `properties` attribute's words. Split on white space as Swift's Character sees it; an ASCII
    /// value (all of them, in practice) by bytes, which gives the same words without the Unicode
    /// look-ups ("\r\n" is one Character, but both of its bytes are white space too).
    static func propertyList(_ value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        let u = value.utf8
        guard u.allSatisfy({ $0 < 0x80 }) else {
            return value.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        }
        return u.split(whereSeparator: { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }).map { String(Substring($0)) }
    }

    /// Follows an item's fallback chain (cycle-safe) to the first item whose media type satisfies
    /// `accept`; the item itself when none does.
    public func resolveFallback(_ item: ManifestItem, accept: (String) -> Bool) -> (item: ManifestItem, cycle: Bool) {
        var seen: Set<String> = [item.id]
        var current = item
        while !accept(current.mediaType) {
            guard let next = current.fallback, let n = self.item(id: next) else { return (item, false) }
            if seen.contains(n.id) { return (item, true) }
            seen.insert(n.id)
            current = n
        }
        return (current, false)
    }

    /// The full fallback chain of an item, cycle-safe: ids after the item itself.
    public func fallbackChain(_ item: ManifestItem) -> (ids: [String], cycle: Bool) {
        guard item.fallback != nil else { return ([], false) }  // nearly every item: no set to make
        var seen: Set<String> = [item.id]
        var ids: [String] = []
        var current = item
        while let next = current.fallback {
            if seen.contains(next) { return (ids, true) }
            guard let n = self.item(id: next) else { break }
            seen.insert(next)
            ids.append(next)
            current = n
        }
        return (ids, false)
    }
}
