import Foundation
import PluginAPI
import PluginKit

/// Builds the Readium Web Publication Manifest of an EPUB.
extension EPUBBook {
    static let roleNames: [String: String] = [
        "aut": "author", "trl": "translator", "edt": "editor", "ill": "illustrator", "nrt": "narrator",
        "clr": "colorist", "pbl": "publisher", "art": "artist", "pen": "penciler", "ink": "inker",
        "let": "letterer"
    ]

    public func buildManifest() -> Manifest {
        var md: [String: JSONValue] = ["@type": .string("http://schema.org/Book")]
        md["conformsTo"] = .string("https://readium.org/webpub-manifest/profiles/epub")

        // Titles.
        let titles = opf.meta("dc:title").filter { !$0.value.isEmpty }
        if let main = mainTitle {
            md["title"] = .string(main.value)
            if let sort = main.refinement("file-as") { md["sortAs"] = .string(sort) }
        } else {
            md["title"] = .string("Untitled")
        }
        if let sub = titles.first(where: { $0.refinement("title-type") == "subtitle" }) {
            md["subtitle"] = .string(sub.value)
        }
        if md["sortAs"] == nil, let s = opf.named("calibre:title_sort") { md["sortAs"] = .string(s) }

        // Identifiers.
        if let u = uniqueIdentifier { md["identifier"] = .string(u) }
        let others = opf.meta("dc:identifier").map(\.value).filter { !$0.isEmpty && $0 != uniqueIdentifier }
        if !others.isEmpty { md["altIdentifier"] = .array(others.map { .string($0) }) }

        let langs = languages
        if langs.count == 1 {
            md["language"] = .string(langs[0])
        } else if langs.count > 1 {
            md["language"] = .array(langs.map { .string($0) })
        }

        // Contributors with roles.
        var byRole: [String: [JSONValue]] = [:]
        for (i, e) in (opf.meta("dc:creator") + opf.meta("dc:contributor")).enumerated() where !e.value.isEmpty {
            let isCreator = e.property == "dc:creator"
            let role = (e.refinement("role") ?? e.attributes["role"] ?? (isCreator ? "aut" : "")).trimmedASCII
                .lowercased()
            var obj: [String: JSONValue] = ["name": .string(e.value)]
            if let fileAs = e.refinement("file-as") ?? e.attributes["file-as"] { obj["sortAs"] = .string(fileAs) }
            let key: String
            if let known = EPUBBook.roleNames[role] {
                key = known
            } else {
                key = "contributor"
                if !role.isEmpty { obj["role"] = .string(role) }
            }
            _ = i
            byRole[key, default: []].append(.object(obj))
        }
        for p in opf.meta("dc:publisher") where !p.value.isEmpty {
            byRole["publisher", default: []].append(.object(["name": .string(p.value)]))
        }
        for (k, v) in byRole { md[k] = .array(v) }

        // Dates.
        let dates = opf.meta("dc:date")
        if let pub = dates.first(where: {
            ($0.attributes["event"] ?? "publication").contains("publication")
                && $0.attributes["event"] != "ops-publication"
        }) ?? dates.first {
            md["published"] = .string(pub.value)
        }
        if let mod = opf.meta("dcterms:modified").first?.value
            ?? dates.first(where: { $0.attributes["event"] == "modification" })?.value
        {
            md["modified"] = .string(mod)
        }
        if let d = opf.meta("dc:description").first?.value, !d.isEmpty { md["description"] = .string(d) }
        let subjects = opf.meta("dc:subject").filter { !$0.value.isEmpty }
        if !subjects.isEmpty {
            md["subject"] = .array(
                subjects.map { s in
                    var o: [String: JSONValue] = ["name": .string(s.value)]
                    if let code = s.refinement("term") { o["code"] = .string(code) }
                    if let scheme = s.refinement("authority") { o["scheme"] = .string(scheme) }
                    return .object(o)
                })
        }
        if let r = opf.meta("dc:rights").first?.value, !r.isEmpty { md["rights"] = .string(r) }

        // Series and collections.
        var series: [JSONValue] = []
        var collections: [JSONValue] = []
        for c in opf.meta("belongs-to-collection") where !c.value.isEmpty {
            var o: [String: JSONValue] = ["name": .string(c.value)]
            if let pos = c.refinement("group-position"), let n = EPUBBook.finite(pos.trimmedASCII) {
                o["position"] = .number(n)
            }
            if let id = c.refinement("identifier") { o["identifier"] = .string(id) }
            if c.refinement("collection-type") == "series" {
                series.append(.object(o))
            } else {
                collections.append(.object(o))
            }
        }
        if series.isEmpty, let name = opf.named("calibre:series"), !name.isEmpty {
            var o: [String: JSONValue] = ["name": .string(name)]
            if let idx = opf.named("calibre:series_index"), let n = EPUBBook.finite(idx.trimmedASCII) {
                o["position"] = .number(n)
            }
            series.append(.object(o))
        }
        var belongs: [String: JSONValue] = [:]
        if !series.isEmpty { belongs["series"] = .array(series) }
        if !collections.isEmpty { belongs["collection"] = .array(collections) }
        if !belongs.isEmpty { md["belongsTo"] = .object(belongs) }

        // Accessibility (schema.org metadata in EPUB 3; EPUB 2 books rarely have it).
        var a11y: [String: JSONValue] = [:]
        func list(_ prop: String) -> [JSONValue] {
            opf.meta(prop).map(\.value).filter { !$0.isEmpty }.map { .string($0) }
        }
        let conforms = list("dcterms:conformsTo") + opf.meta("dc:conformsTo").map { .string($0.value) }
        if !conforms.isEmpty { a11y["conformsTo"] = .array(conforms) }
        if !list("schema:accessMode").isEmpty { a11y["accessMode"] = .array(list("schema:accessMode")) }
        let sufficient = opf.meta("schema:accessModeSufficient").map {
            JSONValue.array($0.value.split(separator: ",").map { .string(String($0).trimmedASCII) })
        }
        if !sufficient.isEmpty { a11y["accessModeSufficient"] = .array(sufficient) }
        if !list("schema:accessibilityFeature").isEmpty {
            a11y["feature"] = .array(list("schema:accessibilityFeature"))
        }
        if !list("schema:accessibilityHazard").isEmpty { a11y["hazard"] = .array(list("schema:accessibilityHazard")) }
        if let s = opf.meta("schema:accessibilitySummary").first?.value { a11y["summary"] = .string(s) }
        if let cert = opf.meta("a11y:certifiedBy").first?.value {
            a11y["certification"] = .object(["certifiedBy": .string(cert)])
        }
        if !a11y.isEmpty { md["accessibility"] = .object(a11y) }

        // Presentation (rendition properties) and reading progression.
        var presentation: [String: JSONValue] = [:]
        let layout = isFixedLayout ? "fixed" : "reflowable"
        presentation["layout"] = .string(layout)
        md["layout"] = .string(layout)
        if let o = opf.meta("rendition:orientation").first?.value { presentation["orientation"] = .string(o) }
        if let s = opf.meta("rendition:spread").first?.value {
            presentation["spread"] = .string(s == "portrait" ? "both" : s)
        }
        if let f = opf.meta("rendition:flow").first?.value {
            presentation["overflow"] = .string(
                f.hasPrefix("scrolled") ? "scrolled" : f == "paginated" ? "paginated" : "auto")
            if f == "scrolled-continuous" { presentation["continuous"] = .bool(true) }
        }
        md["presentation"] = .object(presentation)
        md["readingProgression"] = .string(
            opf.pageProgression.flatMap { ["ltr", "rtl"].contains($0) ? $0 : nil } ?? "auto")
        if let dur = opf.meta("media:duration").first?.value, let d = EPUBBook.clockValue(dur) {
            md["duration"] = .number(d)
        }
        if let ac = opf.meta("media:active-class").first?.value { md["mediaActiveClass"] = .string(ac) }
        // The class for a content document while its narration plays (Media Overlays 3.3, "Playback active class").
        if let pc = opf.meta("media:playback-active-class").first?.value {
            md["mediaPlaybackActiveClass"] = .string(pc)
        }
        md["numberOfPages"] = navigation.pageList.isEmpty ? nil : .number(Double(navigation.pageList.count))

        // Links. The reading order and the items are read in place, by index: a `for` over them copied every
        // item (each of its strings and arrays retained, then released) to look at one or two fields.
        let order = readingOrder
        let items = opf.items
        let cover = coverImagePath
        var readingPaths = Set<String>(minimumCapacity: order.count)
        var alternates: Set<String> = []
        for i in order.indices {
            readingPaths.insert(order[i].item.path)
            guard order[i].item.fallback != nil else { continue }
            for id in opf.fallbackChain(order[i].item).ids {
                if let p = opf.item(id: id)?.path { alternates.insert(p) }
            }
        }
        let reading = order.indices.map { i -> Link in
            var l = link(for: order[i].item, spine: order[i].spine, cover: cover, href: order[i].href)
            l.title = order[i].title
            if order[i].content.path != order[i].item.path {
                l.properties = (l.properties ?? [:]).merging([
                    "fallback": .string(Paths.href(forEntry: order[i].content.path))
                ]) { a, _ in a }
            }
            // Positions count the entry's bytes as stored (compressed), which the host cannot see: say how many (format.h).
            if !isFixedLayout, let stored = storedLength(ofEntry: order[i].item.path) {
                l.properties = (l.properties ?? [:]).merging(["storedLength": .number(Double(stored))]) { a, _ in a }
            }
            return l
        }
        var resources: [Link] = []
        // Looked up once, not searched per resource: a book may have thousands of items outside its reading order.
        // The first spine entry of each id wins: the spine is walked backwards, so that it is the last written.
        let spine = opf.spine
        var spineByID = [String: Int](minimumCapacity: spine.count)
        for k in spine.indices.reversed() { spineByID[spine[k].idref] = k }
        for j in items.indices
        where !readingPaths.contains(items[j].path) && (alternates.isEmpty || !alternates.contains(items[j].path)) {
            var l = link(for: items[j], spine: spineByID[items[j].id].map { spine[$0] }, cover: cover)
            // A resource's fallback chain, as Readium gives it: its alternates, in order, for a reading system
            // that cannot show the resource's own type (EPUB 3.3, "Manifest fallbacks").
            if items[j].fallback != nil {
                let chain = opf.fallbackChain(items[j]).ids.compactMap { opf.item(id: $0) }.map { f -> JSONValue in
                    .object(["href": .string(Paths.href(forEntry: f.path)), "type": .string(f.mediaType)])
                }
                if !chain.isEmpty { l.extra["alternate"] = .array((l.extra["alternate"]?.array ?? []) + chain) }
            }
            resources.append(l)
        }
        for j in items.indices
        where !alternates.isEmpty && alternates.contains(items[j].path) && !readingPaths.contains(items[j].path) {
            var l = link(for: items[j], spine: nil, cover: cover)
            l.rel = (l.rel ?? []) + ["alternate"]
            resources.append(l)
        }

        var links: [Link] = []
        if let cover {
            links.append(
                Link(href: Paths.href(forEntry: cover), type: manifestItem(path: cover)?.mediaType, rel: ["cover"]))
        }
        var manifest = Manifest(
            metadata: md, links: links, readingOrder: reading, resources: resources,
            toc: navigation.toc)
        let landmarks = navigation.landmarks.isEmpty ? guideLandmarks() : navigation.landmarks
        // Kept as links, not built into JSON values: the host reads neither, and a long book has hundreds.
        if !landmarks.isEmpty { manifest.setLinkObjects(landmarks, in: "landmarks") }
        if !navigation.pageList.isEmpty { manifest.setLinkObjects(navigation.pageList, in: "pageList") }
        return manifest
    }

    /// Made once, not for every manifest, and as the `rel` arrays of the landmarks: each landmark shares one
    /// instead of allocating its own.
    static let guideRels: [String: [String]] = [
        "text": "bodymatter", "toc": "toc", "cover": "cover", "title-page": "titlepage", "index": "index",
        "glossary": "glossary", "bibliography": "bibliography", "copyright-page": "copyright-page",
        "foreword": "foreword", "preface": "preface", "acknowledgements": "acknowledgments",
        "dedication": "dedication", "epigraph": "epigraph", "colophon": "colophon", "loi": "loi", "lot": "lot",
        "notes": "endnotes"
    ].mapValues { [$0] }

    /// EPUB 2's guide, as landmarks with the EPUB 3 structural semantics where they correspond.
    func guideLandmarks() -> [Link] {
        let rels = EPUBBook.guideRels
        return opf.guide.map { g in
            Link(
                href: Paths.href(forEntry: g.path) + (g.fragment.map { "#" + $0 } ?? ""),
                type: manifestItem(path: g.path)?.mediaType,
                title: g.title, rel: rels[g.type] ?? [g.type])
        }
    }

    /// `cover` is `coverImagePath`, read once by the caller; `href` the item's, when the caller has it.
    /// The length positions count for an entry: as stored in the archive, capped so that a lying central
    /// directory cannot ask for billions of positions; nil when the archive has no such entry.
    func storedLength(ofEntry path: String) -> UInt64? {
        archive.entry(named: path).map { min($0.compressedSize, archive.limits.maxEntrySize) }
    }

    func link(for item: ManifestItem, spine: SpineItem?, cover: String?, href: String? = nil) -> Link {
        var props: [String: JSONValue] = [:]
        var contains: [JSONValue] = []
        for p in item.properties {
            switch p {
            case "mathml", "svg", "scripted", "remote-resources", "switch":
                contains.append(.string(p == "scripted" ? "js" : p))
            default: break
            }
        }
        if !contains.isEmpty { props["contains"] = .array(contains) }
        var rel: [String] = []
        if item.properties.contains("cover-image") || item.path == cover { rel.append("cover") }
        if item.properties.contains("nav") { rel.append("contents") }
        if let spine {
            for p in spine.properties {
                switch p {
                case "page-spread-left", "rendition:page-spread-left": props["page"] = .string("left")
                case "page-spread-right", "rendition:page-spread-right": props["page"] = .string("right")
                case "page-spread-center", "rendition:page-spread-center": props["page"] = .string("center")
                case "rendition:layout-pre-paginated": props["layout"] = .string("fixed")
                case "rendition:layout-reflowable": props["layout"] = .string("reflowable")
                // An item's own rendition:flow, as Readium's presentation hints give it per link.
                case "rendition:flow-paginated": props["overflow"] = .string("paginated")
                case "rendition:flow-scrolled-doc": props["overflow"] = .string("scrolled")
                case "rendition:flow-scrolled-continuous":
                    props["overflow"] = .string("scrolled")
                    props["continuous"] = .bool(true)
                case "rendition:flow-auto": props["overflow"] = .string("auto")
                default: break
                }
            }
            if !spine.linear { props["linear"] = .bool(false) }
        }
        var alternate: [JSONValue] = []
        if let moID = item.mediaOverlay, let mo = opf.item(id: moID) {
            let smilHref = Paths.href(forEntry: mo.path)
            props["mediaOverlay"] = .string(smilHref)
            // The overlay itself, with its duration and clips, as an alternate of the item.
            var alt: [String: JSONValue] = [
                "href": .string(smilHref), "type": .string(mo.mediaType.isEmpty ? "application/smil+xml" : mo.mediaType)
            ]
            if let d = opf.itemRefinements[mo.id]?.first(where: { $0.property == "media:duration" }).flatMap({
                EPUBBook.clockValue($0.value)
            }) {
                alt["duration"] = .number(d)
            }
            // One SMIL file may narrate several items: each gets the clips of its own text.
            let own = Paths.href(forEntry: item.path)
            let clips = mediaOverlayClips(smilPath: mo.path).filter { clip in
                clip["text"]?.string.map { Paths.splitFragment($0).path == own } ?? false
            }
            if !clips.isEmpty { alt["properties"] = .object(["clips": .array(clips)]) }
            alternate.append(.object(alt))
        }
        if !encryption.items.isEmpty, let enc = encryption.items[item.path] {
            var e: [String: JSONValue] = ["algorithm": .string(enc.algorithm)]
            if !enc.isFontObfuscation, encryption.scheme != .unknown {
                e["scheme"] = .string(encryption.scheme.rawValue)
            }
            if let l = enc.originalLength { e["originalLength"] = .number(Double(l)) }
            if enc.compressed { e["compression"] = .string("deflate") }
            props["encrypted"] = .object(e)
        }
        var link = Link(
            href: href ?? Paths.href(forEntry: item.path), type: item.mediaType.isEmpty ? nil : item.mediaType,
            rel: rel.isEmpty ? nil : rel, properties: props.isEmpty ? nil : props)
        if !alternate.isEmpty { link.extra["alternate"] = .array(alternate) }
        if item.mediaType == "application/smil+xml",
            let d = opf.itemRefinements[item.id]?.first(where: { $0.property == "media:duration" }).flatMap({
                EPUBBook.clockValue($0.value)
            })
        {
            link.duration = d
        }
        return link
    }

    /// A number from the book, only when finite: NaN or infinity would make the whole manifest
    /// unencodable as JSON.
    static func finite(_ s: String) -> Double? {
        guard let d = Double(s), d.isFinite else { return nil }
        return d
    }

    /// SMIL clock values ("0:01:23.5", "12.3s", "1500ms") in seconds; nil unless finite and >= 0 (SMILClock).
    static func clockValue(_ s: String) -> Double? { SMILClock.seconds(s) }
}
