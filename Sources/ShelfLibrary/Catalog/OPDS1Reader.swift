import CXML2
import Foundation
import XMLText
import ShelfValues

/// OPDS 1 read as an `XMLStream`: each entry and link is assembled while the parser is on it, and nothing else is
/// kept. Elements are recognised by local name in any namespace and only where the feed puts them (an entry's
/// `title` is a direct child of the entry); of an element expected once, the first counts.
///
/// The fields are exempt from Swift's run-time exclusivity checks: they are touched only from libxml2's callbacks,
/// one at a time on one thread, and the checks (one per field access) cost more than the reading itself.
final class OPDS1Reader: XMLStreamHandler {
    let base: URL
    @exclusivity(unchecked) private var n: OPDS1Names!

    private enum Root { case unknown, feed, entry, other(String) }
    @exclusivity(unchecked) private var root = Root.unknown
    @exclusivity(unchecked) private var feed = FeedParts()
    @exclusivity(unchecked) private var entry: EntryParts?
    @exclusivity(unchecked) private var entryDepth = 0
    @exclusivity(unchecked) private var link: LinkParts?
    @exclusivity(unchecked) private var linkDepth = 0
    @exclusivity(unchecked) private var authorDepth: Int?
    @exclusivity(unchecked) private var authorName: String?
    /// The element whose own text is being collected, and where that text goes.
    @exclusivity(unchecked) private var capture: (depth: Int, field: WritableKeyPath<EntryParts, String?>)?
    @exclusivity(unchecked) private var feedCapture: (depth: Int, field: WritableKeyPath<FeedParts, String?>)?
    @exclusivity(unchecked) private var authorCapture: Int?
    @exclusivity(unchecked) private var captured: [UInt8] = []
    @exclusivity(unchecked) private var summary: AllText?

    init(base: URL) {
        self.base = base
        captured.reserveCapacity(256)
    }

    func prepare(_ names: XMLNames) { n = OPDS1Names(names) }

    /// The feed, once the stream has accepted the whole document.
    func finish(url: URL) throws -> CatalogFeed {
        switch root {
        case .entry:
            guard let entry = feed.entries.first else {
                throw CatalogParseError("the entry has neither an id nor a title")
            }
            return CatalogFeed(
                id: entry.id, title: entry.title, url: url.absoluteString, kind: .entry,
                entries: [entry], skipped: feed.entrySkipped)
        case .feed:
            return feed.build(url: url)
        case .other(let name):
            throw CatalogParseError("its root element is <\(name)>, not an Atom <feed> or <entry>")
        case .unknown:
            throw CatalogParseError("it has no root element")
        }
    }

    // MARK: Events

    func start(_ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes: XMLAttributes, depth: Int) {
        if summary != nil {
            summary!.open()
            return
        }
        switch depth {
        case 0:
            if name == n.feed {
                root = .feed
                feed.activeEntryPointType = attributes.first(n.entryPoint)
            } else if name == n.entry {
                root = .entry
                startEntry(attributes, depth: 0)
            } else {
                root = .other(name.string)
            }
            return
        case 1 where entry == nil:
            guard case .feed = root else { return }
            if name == n.entry {
                startEntry(attributes, depth: 1)
            } else if name == n.link {
                startLink(attributes, depth: 1)
            } else if name == n.id, feed.id == nil {
                feedCapture = (depth, \.id)
                captured.removeAll(keepingCapacity: true)
            } else if name == n.title, feed.title == nil {
                feedCapture = (depth, \.title)
                captured.removeAll(keepingCapacity: true)
            }
            return
        default:
            break
        }
        if link != nil {
            link!.start(name, attributes, depth: depth - linkDepth, n)
        } else if entry != nil {
            if depth == entryDepth + 1 {
                startInEntry(name, attributes, depth: depth)
            } else if let authorDepth, depth == authorDepth + 1, name == n.name, authorName == nil, authorCapture == nil
            {
                authorCapture = depth
                captured.removeAll(keepingCapacity: true)
            }
        }
    }

    private func startInEntry(_ name: XMLName, _ attributes: XMLAttributes, depth: Int) {
        let field: WritableKeyPath<EntryParts, String?>?
        switch name {
        case n.link:
            startLink(attributes, depth: depth)
            return
        case n.author:
            authorDepth = depth
            authorName = nil
            return
        case n.category:
            if let category = attributes.first(n.label) ?? attributes.first(n.term) {
                entry!.categories.append(category)
            }
            return
        case n.summary where !entry!.sawSummary:
            entry!.sawSummary = true
            summary = AllText(field: \.summary)
            return
        case n.content where !entry!.sawContent:
            entry!.sawContent = true
            summary = AllText(field: \.content)
            return
        case n.title: field = \.title
        case n.id: field = \.id
        case n.publisher: field = \.publisher
        case n.language: field = \.language
        case n.issued: field = \.issued
        case n.published: field = \.published
        default: field = nil
        }
        if let field, entry![keyPath: field] == nil {
            capture = (depth, field)
            captured.removeAll(keepingCapacity: true)
        }
    }

    func wantsText(depth: Int) -> Bool {
        summary != nil || capture?.depth == depth || feedCapture?.depth == depth || authorCapture == depth
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        if summary != nil {
            summary!.text(bytes)
        } else if capture?.depth == depth || feedCapture?.depth == depth || authorCapture == depth {
            captured.append(contentsOf: bytes)
        }
    }

    func end(depth: Int) {
        if summary != nil {
            if let text = summary!.close() {
                entry![keyPath: summary!.field] = text
                summary = nil
            }
            return
        }
        if let capture, capture.depth == depth {
            entry![keyPath: capture.field] = captured.withUnsafeBufferPointer(FastText.trimmed)
            self.capture = nil
        } else if let feedCapture, feedCapture.depth == depth {
            feed[keyPath: feedCapture.field] = captured.withUnsafeBufferPointer(FastText.trimmed)
            self.feedCapture = nil
        } else if authorCapture == depth {
            authorName = captured.withUnsafeBufferPointer(FastText.trimmed)
            authorCapture = nil
        } else if link != nil {
            if depth == linkDepth { endLink() } else { link!.end(depth: depth - linkDepth) }
        } else if authorDepth == depth {
            if let authorName, !authorName.isEmpty { entry!.authors.append(authorName) }
            authorDepth = nil
        } else if entry != nil, depth == entryDepth {
            endEntry()
        }
    }

    // MARK: Entries and links

    private func startEntry(_ attributes: XMLAttributes, depth: Int) {
        entry = EntryParts(additionalType: attributes.first(n.additionalType))
        entryDepth = depth
    }

    private func endEntry() {
        var taken: EntryParts?
        swap(&taken, &entry)
        guard let parts = taken, let built = parts.build(skipped: &feed.entrySkipped) else { return }
        if case .entry = root {
            feed.entries.append(built)
        } else if !built.hasAcquisitions, var target = OPDS1Parser.navigationTarget(built) {
            target.title = built.title
            feed.navigation.append(target)
        } else {
            feed.entries.append(built)
        }
    }

    private func startLink(_ attributes: XMLAttributes, depth: Int) {
        // An unusable link is dropped with its children; its depth is kept to know where it ends.
        link =
            entry == nil
            ? LinkParts(attributes, base: base, n, skipped: &feed.linkSkipped)
            : LinkParts(attributes, base: base, n, skipped: &feed.entrySkipped)
        linkDepth = depth
    }

    private func endLink() {
        var taken: LinkParts?
        swap(&taken, &link)
        guard let parts = taken, let built = parts.build() else { return }
        if entry != nil {
            entry!.add(built)
        } else {
            feed.add(built, facetCount: parts.facetCount)
        }
    }
}

/// The names OPDS 1 reading looks for, interned once per parse.
struct OPDS1Names {
    let feed, entry, link, id, title, author, name, summary, content, category, publisher, language, issued,
        published, indirectAcquisition, availability, holds, copies: XMLName
    let href, rel, type, facetGroup, activeFacet, facetGroupType, activeFacetCount, count, label, term,
        additionalType, entryPoint, since, until, status, total, position, available: XMLName

    init(_ names: XMLNames) {
        feed = names.intern("feed"); entry = names.intern("entry"); link = names.intern("link")
        id = names.intern("id"); title = names.intern("title"); author = names.intern("author")
        name = names.intern("name"); summary = names.intern("summary"); content = names.intern("content")
        category = names.intern("category"); publisher = names.intern("publisher"); language = names.intern("language")
        issued = names.intern("issued"); published = names.intern("published")
        indirectAcquisition = names.intern("indirectAcquisition"); availability = names.intern("availability")
        holds = names.intern("holds"); copies = names.intern("copies")
        href = names.intern("href"); rel = names.intern("rel"); type = names.intern("type")
        facetGroup = names.intern("facetGroup"); activeFacet = names.intern("activeFacet")
        facetGroupType = names.intern("facetGroupType"); activeFacetCount = names.intern("activeFacetCount")
        count = names.intern("count"); label = names.intern("label"); term = names.intern("term")
        additionalType = names.intern("additionalType"); entryPoint = names.intern("entryPoint")
        since = names.intern("since"); until = names.intern("until"); status = names.intern("status")
        total = names.intern("total"); position = names.intern("position"); available = names.intern("available")
    }
}

/// An Atom text construct's text, as the former tree's `allText` read it: an element's own text first, then each
/// child's, depth first (so `<p>a <b>b</b> c</p>` reads "a  cb").
struct AllText {
    let field: WritableKeyPath<EntryParts, String?>
    private var frames: [(own: [UInt8], children: [UInt8])] = [([], [])]

    init(field: WritableKeyPath<EntryParts, String?>) { self.field = field }

    mutating func open() { frames.append(([], [])) }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { frames[frames.count - 1].own.append(contentsOf: bytes) }

    /// Closes the innermost element; when that is the text construct itself, its trimmed text.
    mutating func close() -> String? {
        var (own, children) = frames.removeLast()
        if !children.isEmpty { own += children }
        if frames.isEmpty { return own.withUnsafeBufferPointer(FastText.trimmed) }
        frames[frames.count - 1].children += own
        return nil
    }
}
