import Foundation
import Host

/// What the browser's reader needs of a book on the shelf, asked of the host in this process and kept while the
/// server runs: the book opened once (its manifest, pages, table of contents and resources), keyed by the file's
/// path (a book's file does not change under a library id without `shelf add`, which gives it a new path).
///
/// Safe from several threads: the maps are kept under `lock`, and each opened book is used by one thread at a time
/// under a lock of its own (plugin.h: one handle, one thread at a time), while different books are read at once.
final class ReaderBooks: @unchecked Sendable {
    private unowned let app: WebApp
    private let lock = NSLock()
    private var paths: [String: String] = [:]
    private var opened: [String: OpenBook] = [:]
    let resources = ResourceCache(budget: 64 << 20)

    /// A book opened once: its reading session (an eBook's pages, table of contents and saved place, as
    /// `shelf read` keeps them open) and its file, with what was read of it.
    /// Unchecked Sendable: what is read of the book (manifest, page ranges, contents) is kept under `lock`, which `use` holds for every call.
    final class OpenBook: @unchecked Sendable {
        let file: BookFile
        /// The reading session, or why there is none: an audiobook's resources (its cover) are still served.
        private let opened: Result<ReadingSession, Error>
        let lock = NSLock()
        var pageRanges: [PageRange]?
        var toc: [TOCEntry]?

        init(session: ReadingSession) {
            opened = .success(session)
            file = session.file
        }

        init(file: BookFile, noSession: Error) {
            self.file = file
            opened = .failure(noSession)
        }

        /// The reading session; nil for an audiobook.
        var session: ReadingSession? { try? opened.get() }

        /// Runs `body` with the book, alone: the plugin's handle is used by one thread at a time.
        func use<T>(_ body: (OpenBook) throws -> T) rethrows -> T { try lock.withLock { try body(self) } }

        /// The reading session; an audiobook's is refused as `shelf read` refuses it.
        func reading() throws -> ReadingSession { try opened.get() }
    }

    init(app: WebApp) {
        self.app = app
    }

    /// The width the command line reads at without a terminal: page numbers and quotes do not depend on it.
    static let width = 72

    /// The place kept open for the browser: read (`opening`: the reader's first page, recorded as an opening) and
    /// saved as a locator, as `shelf read` reads and saves it, in the session kept open; nothing is rendered to save.
    func place(_ book: ShelfBook, opening: Bool) throws -> PlaceJSON {
        let reader = BookReader(bookshelf: try app.bookshelf())
        return try open(book).use { PlaceJSON(try reader.place(in: try $0.reading(), opening: opening)) }
    }

    /// A save asks nothing of the database but the write (the book opened is kept by id: a read there would wait for
    /// the saves being written), made after the book is let go, with the saves of other windows and books arriving
    /// meanwhile (the host commits them together).
    func savePlace(id: String, _ locator: Locator) throws -> PlaceJSON {
        let reader = BookReader(bookshelf: try app.bookshelf())
        let found = try open(id: id).use { try reader.locate(in: try $0.reading(), locator) }
        if found.writable { try reader.save(found.place, bookID: id) }
        return PlaceJSON(found.place)
    }

    /// A book on the shelf by library id, without its record: what a page turn needs.
    func shelfBook(_ id: String) throws -> ShelfBook {
        guard let book = try app.bookshelf().book(id: id) else {
            throw WebError(404, RequestProblem.notOnShelf(id: id), kind: "not-found")
        }
        return book
    }

    /// The shelf's record of a book by library id, as it is now (progress included), and its record as the API
    /// answers it (docs/json.md, ShelfBook).
    func book(_ id: String) throws -> (book: ShelfBook, record: ShelfBookJSON) {
        let found = try ShelfRecord.find(id, in: app)
        if let path = found.book.book.path { lock.withLock { paths[id] = path } }
        return found
    }

    /// The file of a book by library id, looked up once: resources are asked for many times a page.
    func path(id: String) throws -> String {
        if let known = lock.withLock({ paths[id] }) { return known }
        return try path(of: try book(id).book)
    }

    func path(of book: ShelfBook) throws -> String { try Self.path(of: book, on: try app.bookshelf()) }

    /// The path of a book's file; a book with none here yet (a loan not downloaded) is refused in the host's words,
    /// as something to do first (409), not as an address with nothing behind it.
    static func path(of book: ShelfBook, on bookshelf: Bookshelf) throws -> String {
        do {
            return try bookshelf.file(of: book)
        } catch let refusal as ShelfError {
            throw WebError(409, refusal, kind: "not-downloaded")
        }
    }

    /// The book opened once for the server's life, as `shelf read` opens it (`BookReader.session`: the plugin that
    /// added it, a missing file or a changed edition said); an audiobook's publication only.
    func open(_ book: ShelfBook) throws -> OpenBook {
        let path = try path(of: book)
        if let known = lock.withLock({ opened[path] }) { return known }
        let bookshelf = try app.bookshelf()
        let fresh: OpenBook
        do {
            fresh = OpenBook(session: try BookReader(bookshelf: bookshelf).session(book, width: ReaderBooks.width))
        } catch let refusal as ShelfError where refusal.kind == .unavailable {
            fresh = OpenBook(file: try bookshelf.openFile(book), noSession: refusal)
        }
        return lock.withLock {
            if let raced = opened[path] { return raced }
            opened[path] = fresh
            return fresh
        }
    }

    /// The book of library id `id`, for its resources.
    func open(id: String) throws -> OpenBook {
        if let path = lock.withLock({ paths[id] }), let known = lock.withLock({ opened[path] }) { return known }
        return try open(try book(id).book)
    }

    /// The book's Readium Web Publication Manifest as the plugin wrote it (every member kept: `Manifest` is lossless).
    func manifest(_ book: OpenBook) throws -> Manifest { book.use { $0.file.manifest } }

    /// A chapter's pages: pages `start ..< start + count` at progressions `i / count`.
    struct PageRange: Encodable {
        let href: String
        let start: Int
        var count: Int
    }

    /// The book's pages as the command line counts them (Readium positions), one entry per reading-order
    /// resource. The reader turns a place in a chapter into a page with it, without asking the host. A resource the
    /// spine lists twice has an entry for each time (its positions start again at progression 0).
    func pageRanges(_ book: OpenBook) throws -> [PageRange] {
        try book.use { book in
            if let known = book.pageRanges { return known }
            var ranges: [PageRange] = []
            for locator in try book.session?.positions ?? book.file.positions() {
                guard let position = locator.locations.position else { continue }
                if let last = ranges.last, last.href == locator.href, locator.locations.progression != 0 {
                    ranges[ranges.count - 1].count += 1
                } else {
                    ranges.append(PageRange(href: locator.href, start: position, count: 1))
                }
            }
            book.pageRanges = ranges
            return ranges
        }
    }

    /// The table of contents, flattened with each entry's depth and page (`shelf read BOOK --toc 0`).
    func toc(_ book: OpenBook) throws -> [TOCEntry] {
        try book.use { book in
            if let known = book.toc { return known }
            let toc = try book.reading().tableOfContents
            book.toc = toc
            return toc
        }
    }

    /// One resource of the book (a chapter, an image, a style sheet), with the media type the manifest gives it.
    /// `scripted`: a page of the reading order the book declares scripted (`properties.contains` "js"), the only
    /// pages whose scripts may run (EPUB Reading Systems 3.3), and only once the patron allowed them.
    func resource(id: String, href: String) throws -> (data: Data, type: String, scripted: Bool) {
        let book = try open(id: id)
        let manifest = try manifest(book)
        let links = manifest.readingOrder + (manifest.resources ?? []) + manifest.links
        guard let link = links.first(where: { $0.href == href }) else {
            throw WebError(404, ReaderRequestProblem.notAResource(href: href))
        }
        let declared = link.properties?["contains"]?.array?.contains(.string("js")) ?? false
        let inReadingOrder = manifest.readingOrder.contains { $0.href == href }
        let scripted = declared && inReadingOrder
        // What a browser cannot show is served as its fallback, or, in the reading order, as a page saying so.
        var (source, type) = Fallbacks.choice(for: link, href: href)
        if inReadingOrder, !Fallbacks.pages.contains(Fallbacks.essence(type)) {
            guard let fallback = link.properties?["fallback"]?.string,
                let target = links.first(where: { $0.href == fallback })
            else {
                return (Fallbacks.foreignPage(title: link.title, type: type), "application/xhtml+xml", false)
            }
            (source, type) = (fallback, target.type ?? "application/xhtml+xml")
        }
        let key = book.file.path + "\n" + source
        if let data = resources.get(key) { return (data, type, scripted) }
        let data = PrefixedCSS.rewrite(try book.use { try $0.file.resource(source) }, type: type)
        resources.put(key, data)
        return (data, type, scripted)
    }

    /// Hits of `query` in the book, in reading order (docs/json.md: Locators with the text around each hit).
    /// The most hits a search answers with: the page says when it stopped there.
    static let searchLimit = 100

    func search(_ book: OpenBook, _ query: String) throws -> [Locator] {
        try book.use { try $0.file.search(query, limit: Self.searchLimit) }
    }
}

/// Resources read from books, kept up to a number of bytes; the least recently used go first.
/// Unchecked Sendable: the entries, their size and the clock are read and written under `lock`.
final class ResourceCache: @unchecked Sendable {
    private let budget: Int
    private let lock = NSLock()
    private var entries: [String: (data: Data, used: UInt64)] = [:]
    private var size = 0
    private var clock: UInt64 = 0

    init(budget: Int) { self.budget = budget }

    func get(_ key: String) -> Data? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.data, clock)
            return entry.data
        }
    }

    func put(_ key: String, _ data: Data) {
        guard data.count <= budget / 4 else { return }
        lock.withLock {
            clock += 1
            if let old = entries.updateValue((data, clock), forKey: key) { size -= old.data.count }
            size += data.count
            while size > budget, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                size -= oldest.value.data.count
                entries[oldest.key] = nil
            }
        }
    }
}
