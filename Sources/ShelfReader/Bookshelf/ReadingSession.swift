import ShelfCore
import ShelfPlayback
import ShelfPlugins
import Foundation
import ShelfValues
import Readium
import TextFolding

/// A book opened for reading in pages: its positions, its table of contents, and each item's text cut into pages
/// at one width. Moving (next, previous, go to, table of contents, search hit, bookmark) is done in page numbers,
/// 1-based over the whole book, the numbers `shelf positions` lists.
public final class ReadingSession {
    public let book: ShelfBook
    public let publication: Publication
    public let positions: [Locator]
    public let width: Int
    /// Set when the book's file is no longer the book that was added (BookIdentity): what to tell the patron. No
    /// position is saved while it is set.
    public internal(set) var changedFile: String?

    struct Item { let path: String; let first: Int; let count: Int }
    private var items: [Item] = []
    private var itemOfPosition: [Int] = []
    private var paged: [Int: PagedText] = [:]

    public init(book: ShelfBook, publication: Publication, width: Int) throws {
        self.book = book
        self.publication = publication
        self.width = min(max(width, 10), 1000)
        positions = try publication.positions()
        guard !positions.isEmpty else {
            throw ShelfError(.badData, "this book has no pages to read", subject: book.book.path)
        }
        itemOfPosition.reserveCapacity(positions.count)
        for (index, locator) in positions.enumerated() {
            let path = Self.path(locator.href)
            // A resource's positions start at progression 0: another 0 after one of the same resource is a spine
            // entry listed again (EPUB allows one item twice in the spine), an item of its own.
            let again =
                index > 0 && locator.locations.progression == 0 && positions[index - 1].locations.progression != nil
            if let last = items.last, last.path == path, last.first + last.count == index, !again {
                items[items.count - 1] = Item(path: path, first: last.first, count: last.count + 1)
            } else {
                items.append(Item(path: path, first: index, count: 1))
            }
            itemOfPosition.append(items.count - 1)
        }
    }

    public var pageCount: Int { positions.count }

    static func path(_ href: String) -> String {
        String(href[..<(href.firstIndex(of: "#") ?? href.endIndex)])
    }

    private var textSettings: String { "{\"as\":\"text\",\"width\":\(width)}" }

    private func pagedText(item index: Int) throws -> PagedText {
        if let cached = paged[index] { return cached }
        let item = items[index]
        let rendered = try publication.render(at: positions[item.first], settings: textSettings)
        let text = PagedText(text: String(decoding: rendered.content, as: UTF8.self), pageCount: item.count)
        paged[index] = text
        return text
    }

    // MARK: Pages

    public typealias Page = ReadingPage

    public func page(_ number: Int) throws -> Page {
        guard number >= 1, number <= positions.count else {
            throw ShelfError(
                .usage, "page \(number) is not in this book: it has pages 1 to \(positions.count)",
                subject: book.book.title)
        }
        let index = number - 1
        let itemIndex = itemOfPosition[index]
        let text = try pagedText(item: itemIndex)
        let k = index - items[itemIndex].first
        var locator = positions[index]
        locator.text = TextQuote.make(text, page: k)
        return Page(
            number: number, pages: positions.count, text: text.display(k), chapter: chapterTitle(index),
            locator: locator)
    }

    /// Where a reader opens the book: chapter one, as the plugin decides from what the book says. A place inside a
    /// file (the body matter landmark at `content.xhtml#bodymatter`) is the page that shows its first words.
    public func startPage() throws -> Int {
        let rendered = try publication.render(at: nil, settings: textSettings)
        guard let locator = rendered.locator, let number = pageNumber(of: locator) else { return 1 }
        let itemIndex = itemOfPosition[number - 1]
        if paged[itemIndex] == nil, Self.path(positions[items[itemIndex].first].href) == Self.path(locator.href) {
            paged[itemIndex] = PagedText(
                text: String(decoding: rendered.content, as: UTF8.self), pageCount: items[itemIndex].count)
        }
        if locator.locations.fragments?.isEmpty == false, let quote = locator.text,
            let exact = find(quote, inItemOf: number)
        {
            return exact
        }
        return number
    }

    /// The page number a locator names directly: its progression in its resource, else its position when that
    /// position is in the same resource, else the first page of its resource. For a resource the spine lists twice,
    /// the position tells which entry. No plugin call.
    func pageNumber(of locator: Locator) -> Int? {
        let path = Self.path(locator.href)
        let position = locator.locations.position.flatMap { (1...positions.count).contains($0) ? $0 : nil }
        if let p = position,
            path.isEmpty || (locator.locations.progression == nil && Self.path(positions[p - 1].href) == path)
        {
            return p
        }
        guard !path.isEmpty, let item = item(path, near: position) else { return nil }
        if let progression = locator.locations.progression, progression.isFinite {
            return item.first + min(item.count - 1, max(0, Int(progression * Double(item.count) + 1e-9))) + 1
        }
        return item.first + 1
    }

    /// The item of resource `path`: of the spine entries that list it (one, but for a resource listed twice), the
    /// one holding `position`, else the nearest to it; the first without a position.
    private func item(_ path: String, near position: Int?) -> Item? {
        let copies = items.filter { $0.path == path }
        guard copies.count > 1, let position else { return copies.first }
        return copies.min { distance($0, position) < distance($1, position) }
    }

    private func distance(_ item: Item, _ position: Int) -> Int {
        position <= item.first ? item.first + 1 - position : max(0, position - (item.first + item.count))
    }

    // MARK: Resolving stored places

    public typealias Resolution = LocatorResolution

    /// The page a stored locator (a position or a bookmark) stands for in this file. With a text quote, the quote
    /// decides: looked for first where the locator points, then anywhere in the book through the plugin's search;
    /// a quote found nowhere is `.lost`, never a guess.
    public func resolve(_ locator: Locator) -> Resolution {
        var first = pageNumber(of: locator)
        // A place the plugin cannot locate is not in this edition: `.lost` below says so to the patron.
        if first == nil, let located = try? publication.locate(locator) { first = pageNumber(of: located) }
        guard let quote = locator.text, let highlight = quote.highlight,
            FoldedText.letters(highlight).scalars.count >= 3
        else {
            return first.map(Resolution.page) ?? .lost("this place is not in this edition of the book")
        }
        if let p = first, let found = find(quote, inItemOf: p) { return .page(found) }
        // Not where it was: another edition, with pages before it added or removed.
        if let query = TextQuote.searchQuery(quote), let hits = try? publication.search(query, limit: 50) {
            var tried = Set<Int>()
            var found: [Int] = []
            for hit in hits {
                guard let p = pageNumber(of: hit) else { continue }
                let item = itemOfPosition[p - 1]
                guard tried.insert(item).inserted else { continue }
                if let page = find(quote, inItemOf: p) { found.append(page) }
                if tried.count >= 12 { break }
            }
            let old = locator.locations.totalProgression ?? 0
            if let best = found.min(by: { abs(progress($0) - old) < abs(progress($1) - old) }) { return .page(best) }
        }
        let words = TextQuote.prefix(highlight, 60)
        return .lost("the passage “\(words)…” is not in this edition of the book")
    }

    private func progress(_ page: Int) -> Double { Double(page - 1) / Double(max(1, positions.count)) }

    private func find(_ quote: Locator.Text, inItemOf page: Int) -> Int? {
        let itemIndex = itemOfPosition[page - 1]
        // Text that cannot be had is no quote found here; the caller then searches the whole book.
        guard let text = try? pagedText(item: itemIndex) else { return nil }
        let item = items[itemIndex]
        return TextQuote.find(quote, in: text, near: page - 1 - item.first).map { item.first + $0 + 1 }
    }

    // MARK: Table of contents

    public typealias TOCEntry = ShelfValues.TOCEntry

    /// An entry of the table of contents before its page is known: the reading-order item it points into.
    struct TOCTarget { let title: String; let href: String; let depth: Int; let item: Int? }

    /// The table of contents flattened in reading order (depth first), numbered from 1 as `--toc N` takes them.
    lazy var tocTargets: [TOCTarget] = {
        var firstItem: [String: Int] = [:]
        for (index, item) in items.enumerated() where firstItem[item.path] == nil { firstItem[item.path] = index }
        var out: [TOCTarget] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                out.append(
                    TOCTarget(
                        title: link.title ?? link.href, href: link.href, depth: depth,
                        item: firstItem[Self.path(link.href)]))
                walk(link.children ?? [], depth: depth + 1)
            }
        }
        let toc = publication.manifest.toc ?? []
        walk(toc.isEmpty ? publication.manifest.readingOrder : toc, depth: 0)
        return out
    }()

    /// Every entry with its page: the page that shows the element the entry points at.
    public lazy var tableOfContents: [TOCEntry] = tocTargets.indices.map { i in
        let target = tocTargets[i]
        return TOCEntry(number: i + 1, title: target.title, href: target.href, depth: target.depth, page: entryPage(i))
    }

    private var entryPages: [Int: Int?] = [:]

    /// The page of entry `index` (from 0), worked out once.
    func entryPage(_ index: Int) -> Int? {
        if let known = entryPages[index] { return known }
        let page = targetPage(tocTargets[index].href)
        entryPages[index] = page
        return page
    }

    /// The page that shows what `href` points at. Without a fragment, the first page of its file; with one, the page
    /// whose text holds the element it names: the plugin places the element (a position and the element's first
    /// words), and the words decide which of this session's pages shows them, as for a search hit.
    func targetPage(_ href: String) -> Int? {
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let first = pageNumber(of: Locator(href: path, type: ""))
        guard parts.count == 2, !parts[1].isEmpty, first != nil,
            // An element the plugin cannot place: the link goes to its document's first page, as a browser would.
            let located = try? publication.locate(
                Locator(href: path, type: "", locations: .init(fragments: [String(parts[1])]))),
            let page = pageNumber(of: located)
        else {
            return first
        }
        if let quote = located.text, let exact = find(quote, inItemOf: page) { return exact }
        return page
    }

    public func tocPage(_ number: Int) throws -> Int {
        let toc = tocTargets
        guard number >= 1, number <= toc.count else {
            throw ShelfError(
                .usage, "the table of contents has entries 1 to \(toc.count), not \(number)",
                subject: book.book.title,
                next: NextStep(
                    terminal: "`shelf read \"\(book.book.title)\" --toc 0` lists them.",
                    browser: "The Contents list shows them."))
        }
        guard let page = entryPage(number - 1) else {
            throw ShelfError(
                .badData, "the table of contents entry \(number) (\(toc[number - 1].title)) points outside the book",
                subject: book.book.title)
        }
        return page
    }

    /// The title of the entry whose range holds page `index + 1`: of the entries starting on or before it, the one
    /// starting last (the later entry on a tie). Entries in earlier files start before it wherever they are in
    /// them, so only the entries of this page's own file are placed exactly. An entry into a file the spine lists
    /// again counts in each of its entries (placed as in the first).
    func chapterTitle(_ index: Int) -> String? {
        let here = itemOfPosition[index]
        var best: (start: Int, title: String)?
        for (n, target) in tocTargets.enumerated() {
            guard let item = target.item else { continue }
            let sameFile = items[item].path == items[here].path
            guard item <= here || sameFile else { continue }
            let start: Int
            if sameFile {
                guard let page = entryPage(n) else { continue }
                let placed = page - items[item].first + items[here].first
                guard placed <= index + 1 else { continue }
                start = placed
            } else {
                start = items[item].first + 1
            }
            if best == nil || start >= best!.start { best = (start, target.title) }
        }
        return best?.title ?? positions[index].title
    }

    // MARK: Passages

    /// A quotable passage from page `number`, or from where `quote` starts on it: whole paragraphs, white space
    /// made single, about `length` characters, ending at a sentence's end where there is one.
    public func passage(page number: Int, from quote: Locator.Text? = nil, length: Int = 400) throws -> String {
        _ = try page(number)
        let itemIndex = itemOfPosition[number - 1]
        let text = try pagedText(item: itemIndex)
        let k = number - 1 - items[itemIndex].first
        var start = text.pageStarts[k]
        if let quote, let offset = TextQuote.locate(quote, in: text, near: k) { start = offset }
        let rest = String(decoding: Array(text.text.utf8)[start...], as: UTF8.self)
        let paragraphs = rest.components(separatedBy: "\n\n").map(TextQuote.plain).filter { !$0.isEmpty }
        var out = ""
        for paragraph in paragraphs {
            if out.count >= length / 2 { break }
            out += (out.isEmpty ? "" : "\n\n") + paragraph
        }
        guard out.count > length + length / 2 else { return out }
        let limit = out.index(out.startIndex, offsetBy: length + length / 2)
        let head = out[..<limit]
        let minimum = out.index(out.startIndex, offsetBy: length / 2)
        if let end = head[minimum...].lastIndex(where: { ".!?…".contains($0) }) {
            var cut = out.index(after: end)
            while cut < out.endIndex, "\"'”’)»".contains(out[cut]) { cut = out.index(after: cut) }
            return String(out[..<cut])
        }
        return TextQuote.prefix(String(head), length + length / 2) + "…"
    }

    // MARK: Search

    public typealias SearchHit = PageSearchHit

    /// Hit `number` (from 1) of `query`, and the page that shows it.
    public func searchHit(_ query: String, number: Int) throws -> SearchHit {
        let hits = try publication.search(query, limit: max(number, 100))
        guard !hits.isEmpty else {
            throw ShelfError(.noInput, "“\(query)” is not in this book", subject: book.book.title)
        }
        guard number >= 1, number <= hits.count else {
            throw ShelfError(
                .usage, "“\(query)” has \(Plural.count(hits.count, "hit")) in this book, not \(number)",
                subject: book.book.title)
        }
        return try pageHit(hits[number - 1], of: hits.count)
    }

    /// Every hit of `query` (the first 100) with its page, in the book's order: a reader searching from where the
    /// patron is takes the first after their page, and tells hits on one page apart.
    public func searchHits(_ query: String) throws -> [SearchHit] {
        let hits = try publication.search(query, limit: 100)
        guard !hits.isEmpty else {
            throw ShelfError(.noInput, "“\(query)” is not in this book", subject: book.book.title)
        }
        return try hits.map { try pageHit($0, of: hits.count) }
    }

    private func pageHit(_ hit: Locator, of count: Int) throws -> SearchHit {
        // Not located is said below ("points outside the book").
        guard var page = pageNumber(of: hit) ?? (try? publication.locate(hit)).flatMap(pageNumber(of:)) else {
            throw ShelfError(.badData, "the search hit points outside the book", subject: book.book.title)
        }
        // The plugin's page for a hit is proportional; the hit's own words decide which page shows it.
        if let text = hit.text, let highlight = text.highlight {
            let quote = Locator.Text(before: text.before, highlight: highlight + (text.after ?? ""))
            if let exact = find(quote, inItemOf: page)
                ?? find(Locator.Text(before: text.before, highlight: highlight), inItemOf: page)
            {
                page = exact
            }
        }
        return SearchHit(page: page, hit: hit, hits: count)
    }
}
