import Foundation
import PluginAPI
import PluginKit

/// Reads Readium audiobook manifests (current and old: `spine`, string numbers, null titles) and
/// W3C audiobook / publication manifests into a BookModel; recognises what is not an audiobook
/// and what is locked by a vendor's DRM, and says so.
struct ManifestParser {
    /// How relative hrefs resolve.
    enum Base {
        case directory(String)  // a manifest file on disk
        case url(URL)  // a manifest fetched from the network
        case package  // a manifest inside a zip package: hrefs are entry names
    }

    let base: Base
    /// Reads a file the manifest names (relative href, percent-decoded), for an HTML table of
    /// contents; nil where the manifest's neighbours cannot be read (a manifest on the network).
    var readResource: ((String) -> Data?)? = nil

    static let lcpScheme = "http://readium.org/2014/01/lcp"

    func parse(_ data: Data, location: String) throws -> BookModel {
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw PluginFailure.badData("is not valid JSON, so it cannot be an audiobook manifest", at: location)
        }
        guard let root = any as? [String: Any] else {
            throw PluginFailure.badData("is JSON but not an object, so it is not an audiobook manifest", at: location)
        }
        try refuseForeign(root, location: location)
        let metadata = LenientJSON.object(root["metadata"]) ?? [:]
        let isW3C =
            root["metadata"] == nil
            && (root["readingOrder"] != nil || root["name"] != nil
                || root["conformsTo"] != nil || root["url"] != nil)
        let meta = isW3C ? root : metadata
        try refuseDRM(root, metadata: meta, location: location)

        let rawOrder = LenientJSON.list(root["readingOrder"] ?? root["spine"])
        guard !rawOrder.isEmpty else {
            throw PluginFailure.badData(
                "has no reading order (neither \"readingOrder\" nor \"spine\" lists any track), so there is nothing to play",
                at: location)
        }
        var tracks: [Track] = []
        for (i, item) in rawOrder.enumerated() {
            let o: [String: Any] = (item as? [String: Any]) ?? ((item as? String).map { ["url": $0] } ?? [:])
            guard let href = LenientJSON.string(o["href"]) ?? LenientJSON.string(o["url"]) else {
                throw PluginFailure.badData(
                    "track \(i + 1) of the reading order has no href, so it cannot be played",
                    at: "\(location): readingOrder[\(i)]")
            }
            let (outHref, source) = try resolve(href, location: "\(location): readingOrder[\(i)]")
            var type = LenientJSON.string(o["type"]) ?? LenientJSON.string(o["encodingFormat"])
            if type == nil || type == "LinkedResource" || !(type!.contains("/")) { type = Self.guessType(outHref) }
            if let t = type, !Self.isAudio(t) {
                throw PluginFailure(
                    SHELF_E_UNSUPPORTED,
                    "is not an audiobook: its reading order holds \(t), not audio; open it as an eBook",
                    at: "\(location): readingOrder[\(i)]")
            }
            var props: [String: JSONValue]?
            if let p = o["properties"], let v = Self.jsonValue(p)?.object { props = v }
            tracks.append(
                Track(
                    href: outHref, source: source, type: type,
                    title: LenientJSON.text(o["title"]) ?? LenientJSON.text(o["name"]),
                    duration: LenientJSON.number(o["duration"]).flatMap { $0 >= 0 ? $0 : nil },
                    bitrate: LenientJSON.number(o["bitrate"]), properties: props))
        }

        let title = LenientJSON.text(meta["title"]) ?? LenientJSON.text(meta["name"]) ?? "Untitled audiobook"
        var book = BookModel(title: title, tracks: tracks)
        book.authors = LenientJSON.names(meta["author"] ?? meta["authors"])
        book.narrators = LenientJSON.names(meta["narrator"] ?? meta["readBy"])
        book.identifier = LenientJSON.string(meta["identifier"]) ?? LenientJSON.string(meta["id"])
        book.language = LenientJSON.list(meta["language"] ?? meta["inLanguage"]).compactMap { LenientJSON.string($0) }
        book.publisher = LenientJSON.names(meta["publisher"]).first
        for key in ["subtitle", "published", "modified", "abridged", "description"] {
            if let v = meta[key].flatMap(Self.jsonValue), v != .null { book.extraMetadata[key] = v }
        }
        if let d = LenientJSON.number(meta["duration"]) { book.extraMetadata["shelf:declaredDuration"] = .number(d) }

        // Table of contents: RWPM "toc", or a W3C "toc" given as JSON links.
        book.toc = tocEntries(LenientJSON.list(root["toc"]), tracks: Self.firstTracks(tracks), depth: 0)
        if book.toc.isEmpty { book.toc = htmlTOC(root, tracks: tracks) }
        book.links = LenientJSON.list(root["links"]).compactMap(link)
        book.resources = LenientJSON.list(root["resources"]).compactMap(link)
        return book
    }

    // MARK: Refusals

    private func refuseForeign(_ root: [String: Any], location: String) throws {
        if let status = root["status"] as? String, root["readingOrder"] == nil, root["spine"] == nil {
            throw PluginFailure.badData(
                "is a Readium LCP license status document (status \"\(status)\"), not an audiobook manifest",
                at: location)
        }
        if root["encryption"] != nil, root["provider"] != nil, root["readingOrder"] == nil {
            throw PluginFailure.protected(
                "is a Readium LCP license, not an audiobook: LCP-protected audiobooks cannot be played by shelf",
                at: location)
        }
        if root["keys"] is [Any], root["readingOrder"] == nil, root["metadata"] == nil {
            throw PluginFailure.badData(
                "is a JSON Web Key Set (used to check Feedbooks manifest signatures), not an audiobook manifest",
                at: location)
        }
        if root["reserveId"] != nil || root["formatType"] != nil
            || (LenientJSON.object(root["links"])?["contentlinks"] != nil)
        {
            throw PluginFailure.protected(
                "is an OverDrive audiobook, which is protected by OverDrive's DRM and needs OverDrive's own player; shelf cannot play it",
                at: location)
        }
        if root["tests"] != nil
            || (root["@context"] != nil && root["readingOrder"] == nil && root["spine"] == nil
                && root["metadata"] == nil && root["name"] == nil && root["url"] == nil)
        {
            throw PluginFailure.badData(
                "has no reading order and no metadata, so it is not an audiobook manifest", at: location)
        }
    }

    private func refuseDRM(_ root: [String: Any], metadata: [String: Any], location: String) throws {
        let encrypted = LenientJSON.object(metadata["encrypted"])
        let scheme = LenientJSON.string(encrypted?["scheme"]) ?? ""
        if scheme.contains("FAE") || scheme.lowercased().contains("findaway")
            || metadata.keys.contains(where: { $0.hasPrefix("findaway:") })
            || (encrypted?.keys.contains(where: { $0.hasPrefix("findaway:") }) ?? false)
        {
            throw PluginFailure.protected(
                "is a Findaway audiobook: it is protected by Findaway's DRM (scheme \(scheme.isEmpty ? "FAE" : scheme)) and needs the Findaway player; shelf cannot play it",
                at: location)
        }
        if scheme == Self.lcpScheme {
            throw PluginFailure.protected(
                "is protected by Readium LCP (\(Self.lcpScheme)); shelf cannot decrypt LCP audiobooks", at: location)
        }
        let order = LenientJSON.list(root["readingOrder"] ?? root["spine"])
        for (i, item) in order.enumerated() {
            guard let o = item as? [String: Any] else { continue }
            let props = LenientJSON.object(o["properties"])
            let enc = LenientJSON.object(props?["encrypted"]) ?? LenientJSON.object(o["encrypted"])
            let s = LenientJSON.string(enc?["scheme"]) ?? ""
            if s == Self.lcpScheme || s.contains("readium.org/2014/01/lcp") {
                throw PluginFailure.protected(
                    "is protected by Readium LCP (scheme \(s)); shelf cannot decrypt LCP audiobooks",
                    at: "\(location): readingOrder[\(i)]")
            }
            if s.contains("FAE") {
                throw PluginFailure.protected(
                    "is a Findaway audiobook protected by Findaway's DRM (scheme \(s)); shelf cannot play it",
                    at: "\(location): readingOrder[\(i)]")
            }
            if let t = LenientJSON.string(o["type"]), t.contains("rbdigital-access-document") {
                throw PluginFailure.protected(
                    "is an RBdigital audiobook: its tracks are RBdigital access documents that only RBdigital's service unlocks; shelf cannot play it",
                    at: "\(location): readingOrder[\(i)]")
            }
            if let t = LenientJSON.string(o["type"]), t.contains("vnd.readium.lcp") {
                throw PluginFailure.protected(
                    "is protected by Readium LCP; shelf cannot decrypt LCP audiobooks",
                    at: "\(location): readingOrder[\(i)]")
            }
        }
    }

    // MARK: Hrefs

    func resolve(_ href: String, location: String) throws -> (String, TrackSource) {
        let bare = BookModel.stripFragment(href)
        if let url = URL(string: bare), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return (url.absoluteString, .remote(url))
        }
        // A track is inside the book (its folder or package) or on the web: a manifest naming file:///etc/passwd,
        // /home/p/.ssh/id_rsa or ../../.ssh/id_rsa is refused, as an EPUB's hrefs are.
        if let url = URL(string: bare), url.scheme?.lowercased() == "file" {
            throw PluginFailure.badData(
                "has a file: href (\(bare.prefix(60))); a track must be inside the audiobook or an http(s) address",
                at: location)
        }
        if bare.contains("://") || bare.lowercased().hasPrefix("data:") {
            throw PluginFailure(
                SHELF_E_UNSUPPORTED, "uses a kind of link shelf cannot fetch (\(bare.prefix(40)))", at: location)
        }
        switch base {
        case .url(let b):
            guard let url = URL(string: bare, relativeTo: b)?.absoluteURL else {
                throw PluginFailure.badData("has an href that is not a URL: \(bare)", at: location)
            }
            return (url.absoluteString, .remote(url))
        case .directory(let dir):
            let decoded = bare.removingPercentEncoding ?? bare
            guard !decoded.isEmpty else { throw PluginFailure.badData("has an empty href", at: location) }
            guard !decoded.hasPrefix("/"), !decoded.split(separator: "/").contains("..") else {
                throw PluginFailure.badData(
                    "has an href that leaves the audiobook's folder (\(bare.prefix(60))); a track must be inside it "
                        + "or an http(s) address", at: location)
            }
            return (bare, .file(((dir as NSString).appendingPathComponent(decoded) as NSString).standardizingPath))
        case .package:
            let decoded = bare.removingPercentEncoding ?? bare
            var parts: [Substring] = []
            for piece in decoded.split(separator: "/") {
                if piece == "." { continue }
                if piece == ".." {
                    guard !parts.isEmpty else {
                        throw PluginFailure.badData("has an href that leaves the package (\(bare))", at: location)
                    }
                    parts.removeLast()
                    continue
                }
                parts.append(piece)
            }
            guard !parts.isEmpty else { throw PluginFailure.badData("has an empty href", at: location) }
            let entry = parts.joined(separator: "/")
            return (entry, .zipEntry(entry))
        }
    }

    // MARK: TOC and links

    /// The first track of each source, for the table of contents to find its entries' tracks at once (a book read
    /// aloud has hundreds of each: looking through the tracks for each entry took most of opening its manifest).
    static func firstTracks(_ tracks: [Track]) -> [TrackSource: Int] {
        var first: [TrackSource: Int] = [:]
        for (i, track) in tracks.enumerated() where first[track.source] == nil { first[track.source] = i }
        return first
    }

    private func tocEntries(_ items: [Any], tracks: [TrackSource: Int], depth: Int) -> [TocEntry] {
        guard depth < 16 else { return [] }
        var out: [TocEntry] = []
        for item in items {
            guard let o = item as? [String: Any] else { continue }
            let kids = tocEntries(LenientJSON.list(o["children"] ?? o["entries"]), tracks: tracks, depth: depth + 1)
            guard let href = LenientJSON.string(o["href"]) ?? LenientJSON.string(o["url"]),
                // A TOC entry pointing outside the book is skipped; its children are kept (the TOC is lenient).
                let resolved = try? resolve(href, location: "toc")
            else {
                out += kids
                continue
            }
            guard let index = tracks[resolved.1] else {
                out += kids
                continue
            }
            let offset = BookModel.fragmentSeconds(href) ?? 0
            out.append(
                TocEntry(
                    title: LenientJSON.text(o["title"]) ?? LenientJSON.text(o["name"]),
                    trackIndex: index, offset: offset, children: kids))
        }
        return out
    }

    /// A W3C audiobook's HTML table of contents: the `resources` (or `links`) entry with `rel: contents`,
    /// its `nav` of links into the tracks with `#t=` times.
    private func htmlTOC(_ root: [String: Any], tracks: [Track]) -> [TocEntry] {
        guard let read = readResource else { return [] }
        for item in LenientJSON.list(root["resources"]) + LenientJSON.list(root["links"]) {
            guard let o = item as? [String: Any] else { continue }
            let rels = (o["rel"] as? String).map { [$0] } ?? LenientJSON.list(o["rel"]).compactMap { $0 as? String }
            guard rels.contains(where: { $0.lowercased() == "contents" }),
                let href = LenientJSON.string(o["href"]) ?? LenientJSON.string(o["url"]),
                !href.contains("://"), !href.lowercased().hasPrefix("data:")
            else { continue }
            let path = BookModel.stripFragment(href)
            guard let data = read(path.removingPercentEncoding ?? path), data.count <= 8 << 20 else { continue }
            let toc = tocEntries(
                HTMLTableOfContents.items(data, htmlPath: path), tracks: Self.firstTracks(tracks), depth: 0)
            if !toc.isEmpty { return toc }
        }
        return []
    }

    private func link(_ item: Any) -> Link? {
        guard let o = item as? [String: Any],
            let href = LenientJSON.string(o["href"]) ?? LenientJSON.string(o["url"])
        else { return nil }
        let outHref: String
        if case .url(let b) = base, let u = URL(string: href, relativeTo: b)?.absoluteURL {
            outHref = u.absoluteString
        } else {
            outHref = href
        }
        var rel: [String]?
        if let r = o["rel"] as? String {
            rel = [r]
        } else if let r = o["rel"] as? [Any] {
            rel = r.compactMap { $0 as? String }
        }
        return Link(
            href: outHref, type: LenientJSON.string(o["type"]) ?? LenientJSON.string(o["encodingFormat"]),
            title: LenientJSON.text(o["title"]) ?? LenientJSON.text(o["name"]), rel: rel)
    }

    // MARK: Helpers

    static func isAudio(_ type: String) -> Bool {
        let t = type.lowercased()
        return t.hasPrefix("audio/") || t == "application/ogg" || t == "video/mp4"
    }

    static func guessType(_ href: String) -> String? {
        let path = BookModel.stripFragment(href).split(separator: "?").first.map(String.init) ?? href
        switch (path as NSString).pathExtension.lowercased() {
        case "mp3": return "audio/mpeg"
        case "m4a", "m4b", "mp4", "aac": return "audio/mp4"
        case "ogg", "oga", "opus": return "audio/ogg"
        case "flac": return "audio/flac"
        case "wav": return "audio/wav"
        case "webm": return "audio/webm"
        default: return nil
        }
    }

    static func jsonValue(_ any: Any) -> JSONValue? {
        switch any {
        case is NSNull: return .null
        case let n as NSNumber:
            if LenientJSON.isBool(n) { return .bool(n.boolValue) }
            return n.doubleValue.isFinite ? .number(n.doubleValue) : nil
        case let s as String: return .string(s)
        case let a as [Any]: return .array(a.compactMap(jsonValue))
        case let o as [String: Any]:
            var out: [String: JSONValue] = [:]
            for (k, v) in o { if let j = jsonValue(v) { out[k] = j } }
            return .object(out)
        default: return nil
        }
    }
}
