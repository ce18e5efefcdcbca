import Foundation
import PluginAPI
import PluginKit
import LibZip

/// An open EPUB: the archive (read lazily) and everything parsed from its container, package,
/// navigation and encryption documents. Content documents are inflated only when asked for.
public final class EPUBBook {
    public let archive: ZipArchive
    public let opf: OPFPackage
    public let encryption: EncryptionInfo
    public let navigation: Navigation
    public private(set) var warnings: [String] = []
    /// Other renditions the container lists (only the first is opened).
    public let otherRenditions: [String]

    /// Reading order: spine items (linear ones, as Readium does; all when none is linear).
    public private(set) var readingOrder: [ReadingItem] = []
    public private(set) var coverImagePath: String?
    public private(set) var coverPagePaths: Set<String> = []
    public let navDocumentPath: String?
    /// Media overlay clips by SMIL path, read once.
    var smilClips: [String: [JSONValue]] = [:]
    /// What was wrong in the media overlays read so far (MediaOverlayClips), for the plugin to log.
    public internal(set) var overlayWarnings: [String] = []
    /// The SMIL file each escapable structure's id was given to (ids are unique in the book).
    var structureOwners: [String: String] = [:]
    public let ncxPath: String?

    public struct ReadingItem {
        public var item: ManifestItem  // the spine item
        public var content: ManifestItem  // what is rendered (after fallbacks)
        public var spine: SpineItem
        public var href: String  // manifest href (percent-encoded)
        public var title: String?
    }

    static let contentTypes: Set<String> = [
        "application/xhtml+xml", "text/html", "image/svg+xml",
        "application/x-dtbook+xml", "text/x-oeb1-document", "application/xml", "text/xml"
    ]

    public var majorVersion: Int { opf.majorVersion }

    public init(path: String, limits: ZipLimits = .default) throws {
        let zip = try ProbedArchive.take(path: path, limits: limits) ?? ZipArchive(path: path, limits: limits)
        archive = zip
        var warnings = zip.warnings

        // mimetype: present and first is the rule; Debian's re-packed books break it and still open.
        if let m = zip.entry(named: "mimetype") {
            // A mimetype entry that cannot be read says nothing either way; the book is read by its container.
            if let bytes = try? zip.read(m, limit: 64) {
                let text = String(decoding: bytes, as: UTF8.self).trimmedASCII
                if text != "application/epub+zip" {
                    warnings.append("the mimetype entry says '\(text)', not application/epub+zip")
                }
            }
            if zip.firstEntryName != "mimetype" {
                warnings.append(
                    "the mimetype entry is not the first entry of the archive (the book was re-packed); opened anyway")
            }
        } else {
            warnings.append("the book has no mimetype entry")
        }

        // Container.
        guard
            let containerEntry = zip.entry(named: "META-INF/container.xml")
                ?? zip.entry(caseInsensitive: "META-INF/container.xml")
        else {
            throw PluginFailure.badData(
                "this is not an EPUB: META-INF/container.xml is missing", at: "META-INF/container.xml")
        }
        let container = try Container.parse(try zip.read(containerEntry, limit: 1 << 20))
        let packages = container.rootfiles.filter { $0.mediaType == "application/oebps-package+xml" }
        let candidates = packages.isEmpty ? container.rootfiles : packages
        guard let first = candidates.first(where: { zip.entry(named: $0.path) != nil }) ?? candidates.first else {
            throw PluginFailure.badData(
                "META-INF/container.xml names no package document (rootfile)", at: "META-INF/container.xml")
        }
        otherRenditions = candidates.map(\.path).filter { $0 != first.path }
        if !otherRenditions.isEmpty {
            warnings.append(
                "the book has \(candidates.count) renditions; opened the first ('\(first.path)'), not: \(otherRenditions.joined(separator: ", "))"
            )
        }
        guard let opfEntry = zip.entry(named: first.path) else {
            throw PluginFailure.badData(
                "the package document '\(first.path)' named by META-INF/container.xml is missing", at: first.path)
        }
        let opf = try OPFPackage.parse(try zip.read(opfEntry, limit: 16 << 20), path: first.path)
        self.opf = opf
        warnings.append(contentsOf: opf.warnings)

        // Encryption.
        // Present but unreadable is not absent: encrypted items would show as garbage, unsaid.
        var encData: Data?
        if let entry = zip.entry(named: "META-INF/encryption.xml") {
            do {
                encData = try zip.read(entry, limit: 8 << 20)
            } catch {
                warnings.append(
                    "META-INF/encryption.xml cannot be read (\(error)); encrypted items may show as garbage")
            }
        }
        let encryption = EncryptionInfo.parse(
            encData, hasRights: zip.contains("META-INF/rights.xml"),
            hasLCPLicense: zip.contains("META-INF/license.lcpl"))
        self.encryption = encryption
        warnings.append(contentsOf: encryption.warnings)

        // Navigation: the nav document for EPUB 3, the NCX otherwise (and as fallback either way).
        let navItem = opf.items.first { $0.properties.contains("nav") }
        let ncxItem =
            opf.spineTocID.flatMap { opf.item(id: $0) }
            ?? opf.items.first { $0.mediaType == "application/x-dtbncx+xml" }
        navDocumentPath = navItem?.path
        ncxPath = ncxItem?.path
        // Keyed by manifest href, the form navigation hrefs come in: a look-up needs no decoding.
        let hrefTypes = Dictionary(
            opf.items.lazy.map { (Substring(Paths.href(forEntry: $0.path)), $0.mediaType) },
            uniquingKeysWith: { a, _ in a })
        let typeOf: (String) -> String? = { href in hrefTypes[Paths.pathPart(href)] }
        var nav = Navigation()
        func read(_ p: String) -> Data? {
            guard let e = zip.entry(named: p), encryption.protection(of: p) == nil,
                // Said: the warning below.
                let data = try? zip.read(e, limit: 16 << 20)
            else {
                warnings.append("the navigation document '\(p)' is missing or unreadable")
                return nil
            }
            return data
        }
        if opf.majorVersion >= 3, let p = navItem?.path, let doc = read(p).flatMap({ NavOutline.read($0, path: p) }) {
            nav = Navigation.parseNav(doc, path: p, typeOf: typeOf)
        }
        if nav.toc.isEmpty, let p = ncxItem?.path, let doc = read(p).flatMap({ NCXOutline.read($0, path: p) }) {
            let ncx = Navigation.parseNCX(doc, path: p, typeOf: typeOf)
            nav.toc = ncx.toc
            if nav.pageList.isEmpty { nav.pageList = ncx.pageList }
            nav.warnings += ncx.warnings
        }
        if nav.toc.isEmpty, opf.majorVersion < 3, let p = navItem?.path,
            let doc = read(p).flatMap({ NavOutline.read($0, path: p) })
        {
            let n = Navigation.parseNav(doc, path: p, typeOf: typeOf)
            nav.toc = n.toc
            nav.landmarks = n.landmarks
        }
        warnings.append(contentsOf: nav.warnings)
        navigation = nav
        self.warnings = warnings
        buildReadingOrder()
        findCover()
    }

    private func buildReadingOrder() {
        let linear = opf.spine.filter(\.linear)
        let spine = linear.isEmpty ? opf.spine : linear
        // The reading items still without a title, by the href of their entry (no fragment).
        var untitled = [Substring: [Int]](minimumCapacity: spine.count)
        readingOrder.reserveCapacity(spine.count)
        for s in spine {
            // An item listed twice in the spine is read twice: each entry is a place of its own in the reading
            // order (EPUB 3.3 allows it), with its own positions; a position tells the copies apart.
            guard let item = opf.item(id: s.idref) else { continue }
            var content = item
            if !EPUBBook.contentTypes.contains(item.mediaType) {
                let r = opf.resolveFallback(item) { EPUBBook.contentTypes.contains($0) }
                if r.cycle { warnings.append("the fallback chain of '\(item.id)' loops; the item is used as is") }
                content = r.item
            } else if item.fallback != nil, opf.fallbackChain(item).cycle {
                warnings.append("the fallback chain of '\(item.id)' loops")
            }
            if archive.entry(named: item.path) == nil {
                warnings.append("spine item '\(item.id)' points to '\(item.path)', which the archive does not hold")
            }
            let entryHref = Paths.href(forEntry: item.path)
            untitled[Substring(entryHref), default: []].append(readingOrder.count)
            readingOrder.append(
                ReadingItem(
                    item: item, content: content, spine: s,
                    href: entryHref + (item.fragment.map { "#" + $0 } ?? ""), title: nil))
        }
        // Each item's title: the first in the table of contents (document order) whose href, less
        // its fragment, is the item's entry. Looked up by the path part in place, and only until
        // every item has one. Links are read in place (copying one retains each of its fields), and
        // the tree is as deep as Navigation lets it be (64 levels).
        func collect(_ links: [Link]) {
            for i in links.indices where !untitled.isEmpty {
                if let t = links[i].title, let items = untitled.removeValue(forKey: Paths.pathPart(links[i].href)) {
                    for k in items { readingOrder[k].title = t }
                }
                if let c = links[i].children { collect(c) }
            }
        }
        collect(navigation.toc)
    }

    private func findCover() {
        if let item = opf.items.first(where: { $0.properties.contains("cover-image") }) {
            coverImagePath = item.path
        } else if let ref = opf.named("cover") {
            if let item = opf.item(id: ref), item.mediaType.hasPrefix("image/") {
                coverImagePath = item.path
            } else if let p = Paths.resolve(ref, against: Paths.directory(of: opf.path)),
                let item = opf.items.first(where: { $0.path == p }), item.mediaType.hasPrefix("image/")
            {
                coverImagePath = item.path
            }
        }
        for g in opf.guide where g.type == "cover" { coverPagePaths.insert(g.path) }
        for l in navigation.landmarks where (l.rel ?? []).contains("cover") {
            let p = Paths.splitFragment(l.href).path
            coverPagePaths.insert(Paths.percentDecode(p))
        }
        // A cover page: the guide's cover, or a first spine item that only shows the cover image.
        // A cover page that does not parse gives no cover image: the book opens without a cover.
        if coverImagePath == nil, let page = coverPagePaths.first, let root = try? rawDocument(at: page).root {
            coverImagePath = firstImage(in: root, docPath: page)
        }
        if let first = readingOrder.first, coverPagePaths.isEmpty {
            let name = (first.item.path as NSString).lastPathComponent.lowercased()
            if name.contains("cover") || first.item.id.lowercased().contains("cover") {
                coverPagePaths.insert(first.item.path)
                // As above.
                if coverImagePath == nil, let root = try? rawDocument(at: first.item.path).root {
                    coverImagePath = firstImage(in: root, docPath: first.item.path)
                }
            }
        }
    }

    func firstImage(in root: LibXMLElement, docPath: String) -> String? {
        for e in root.descendants() where e.isNamed("img") || e.isNamed("image") {
            let src = e.attr("src") ?? e.attr("href", ns: NS.xlink) ?? e.attr("href")
            if let src, let p = Paths.resolve(src, against: Paths.directory(of: docPath)), archive.contains(p) {
                return p
            }
        }
        return nil
    }

    // MARK: Resources

    public func manifestItem(path: String) -> ManifestItem? { itemsByPath[path].map { opf.items[$0] } }

    /// Where the first manifest item of each path is (a linear search per look-up was quadratic
    /// over the guide and TOC).
    private lazy var itemsByPath: [String: Int] = Dictionary(
        opf.items.indices.lazy.map { (self.opf.items[$0].path, $0) },
        uniquingKeysWith: { a, _ in a })

    /// Maps a manifest href (percent-encoded, maybe with a fragment, maybe relative to the root
    /// with "./" or "/") to an entry path the archive holds.
    public func entryPath(forHref href: String) -> String? {
        let (raw, _) = Paths.splitFragment(href)
        if let p = Paths.resolve(raw, against: ""), archive.contains(p) { return p }
        if let p = Paths.normalise(raw), archive.contains(p) { return p }  // names with a literal '%'
        if let p = Paths.resolve(raw, against: ""), let e = archive.entry(caseInsensitive: p) { return e.name }
        return nil
    }

    /// The decoded bytes of an entry: DRM-protected entries throw, obfuscated fonts are restored.
    public func data(path: String, limit: UInt64? = nil) throws -> Data {
        guard let entry = archive.entry(named: path) else {
            throw PluginFailure.notFound("the book has no resource '\(path)'", at: path)
        }
        if let why = encryption.protection(of: path) { throw PluginFailure.protected(why, at: path) }
        var data = try archive.read(entry, limit: limit)
        if let enc = encryption.items[path] {
            if enc.algorithm == EncryptionInfo.idpfFont {
                EncryptionInfo.deobfuscateIDPF(&data, identifier: uniqueIdentifier ?? "")
            } else if enc.algorithm == EncryptionInfo.adobeFont {
                var done = EncryptionInfo.deobfuscateAdobe(&data, identifier: uniqueIdentifier ?? "")
                if !done {
                    for id in opf.meta("dc:identifier").map(\.value) where !done {
                        done = EncryptionInfo.deobfuscateAdobe(&data, identifier: id)
                    }
                }
            }
        }
        return data
    }

    public func resource(href: String) throws -> Data {
        guard let p = entryPath(forHref: href) else {
            throw PluginFailure.notFound("the book has no resource '\(href)'", at: href)
        }
        return try data(path: p)
    }

    /// Parses a content document for one pass, reading libxml2's tree in place.
    public func rawDocument(at path: String) throws -> RawDocument {
        try XML.parseRaw(try data(path: path, limit: UInt64(XML.maxDocumentSize)), name: path, htmlFallback: true)
    }

    /// Parses a content document (XHTML, recovering HTML habits).
    public func document(at path: String) throws -> XDocument {
        try XML.parse(try data(path: path, limit: UInt64(XML.maxDocumentSize)), name: path, htmlFallback: true)
    }

    // MARK: Metadata

    public var uniqueIdentifier: String? {
        let ids = opf.meta("dc:identifier")
        if let u = opf.uniqueIdentifierID, let e = ids.first(where: { $0.id == u }) { return e.value }
        return ids.first?.value
    }

    public var title: String? { mainTitle?.value }

    var mainTitle: MetaEntry? {
        let titles = opf.meta("dc:title").filter { !$0.value.isEmpty }
        return titles.first { $0.refinement("title-type") == "main" } ?? titles.first
    }

    public var languages: [String] { opf.meta("dc:language").map(\.value).filter { !$0.isEmpty } }

    /// Publication-wide layout: "fixed" for pre-paginated books.
    public var isFixedLayout: Bool {
        if opf.meta("rendition:layout").first?.value == "pre-paginated" { return true }
        if let v = opf.named("fixed-layout"), v == "true" { return true }  // Apple/Kindle habits
        return false
    }
}
