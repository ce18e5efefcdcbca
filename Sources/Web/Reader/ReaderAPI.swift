import Foundation
import Host

/// The reader in the API (web/reader.html): a book's manifest, pages and table of contents, the patron's place,
/// settings, bookmarks, search and share, each answered by the session call the command line makes (`BookReader`,
/// the bookshelf's settings), so the browser and `shelf read` keep one place, one set of settings and one list of
/// bookmarks. The book's own files are served under the launch's book path (`BookResources`), at
/// `/book/TOKEN/read/KEY/HREF`, KEY being the library id in hex (ids hold `/` and `:`), so that the book's relative
/// links resolve as in the package.
enum ReaderAPI: WebModule {
    static func install(in app: WebApp) {
        let router = app.router
        let books = ReaderBooks(app: app)
        /// Bookmarks and shares, as `shelf bookmark` and `shelf share` make them.
        let reader: @Sendable () throws -> BookReader = { BookReader(bookshelf: try app.bookshelf()) }

        app.bookOrigins.serve { id, href in
            let resource = try books.resource(id: id, href: href)
            return BookOrigins.Resource(data: resource.data, type: resource.type, scripted: resource.scripted)
        }
        app.bookResources.mount("read") { path in
            let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = BookKey.id(parts[0]) else {
                throw WebError(404, ReaderRequestProblem.noBookAtAddress)
            }
            let resource = try books.resource(id: id, href: parts[1])
            return WebResponse(status: 200, contentType: resource.type, body: resource.data)
        }

        // What the first page needs at once: the book, its manifest, the place and settings.
        router.add("GET", "/api/reader") { request in
            let id = try bookID(request)
            let (book, record) = try books.book(id)
            return .json(
                document: ReaderOpening(
                    book: record, manifest: try books.manifest(try books.open(book)),
                    place: try books.place(book, opening: true), settings: try settings(try app.bookshelf(), id),
                    base: base(of: id), ownBase: app.bookResources.url("read", BookKey.key(id)) + "/",
                    scripts: .init(possible: app.booksHaveOrigins, allowed: app.bookOrigins.scriptsAllowed(for: id))))
        }

        // The patron's answer about a book's own scripts, which the app keeps and says again at each opening.
        router.add("POST", "/api/reader/scripts") { request in
            let id = try bookID(request)
            _ = try books.book(id)
            guard let allowed = try request.json().bool("allowed") else {
                throw WebError(400, ReaderRequestProblem.scriptsAnswerNotBoolean)
            }
            guard app.booksHaveOrigins || !allowed else {
                throw WebError(409, ReaderRequestProblem.scriptsOnlyHere, kind: "scripts-not-here")
            }
            app.bookOrigins.allowScripts(allowed, for: id)
            struct Allowed: Encodable { let book: String, allowed: Bool }
            return .json(document: Allowed(book: id, allowed: allowed))
        }

        /// Where the reader takes a book's files: the book's own origin, or with `--listen` the launch's book path.
        @Sendable func base(of id: String) -> String {
            guard app.booksHaveOrigins else { return app.bookResources.url("read", BookKey.key(id)) + "/" }
            return app.bookOrigins.origin(for: id, port: app.port) + "/"
        }

        // What can come after the first page: the page ranges of each chapter and the table of contents.
        router.add("GET", "/api/reader/pages") { request in
            let (book, _) = try books.book(try bookID(request))
            let open = try books.open(book)
            struct Pages: Encodable { let pages: [ReaderBooks.PageRange], toc: [TOCEntry] }
            return .json(document: Pages(pages: try books.pageRanges(open), toc: try books.toc(open)))
        }

        // The place, a Readium locator: read (to see whether `shelf read` moved it since) and saved (a page turn in
        // the browser: the screen's resource, progression and first words). Neither renders the book as text.
        router.add("GET", "/api/reader/place") { request in
            .json(document: try books.place(try books.shelfBook(try bookID(request)), opening: false))
        }
        router.add("POST", "/api/reader/place") { request in
            // Read with Readium's reader, not JSONDecoder: a locator through JSONDecoder cost a page turn more than
            // anything else it does but the disk's sync (bench/web/run.sh).
            guard let body = try? JSONReader.parse(request.body.isEmpty ? Data("{}".utf8) : request.body).object,
                let given = body["locator"], let locator = try? JSONReader.locator(ReadiumJSON.wire(given)),
                body["book"].map({ $0 == .null || $0.string != nil }) ?? true
            else { throw WebError(400, ReaderRequestProblem.notALocator) }
            let id =
                try request.query["book"].flatMap { $0.isEmpty ? nil : $0 } ?? body["book"]?.string ?? bookID(request)
            return .json(document: try books.savePlace(id: id, locator))
        }

        router.add("GET", "/api/reader/settings") { request in
            .json(document: try settings(try app.bookshelf(), try bookID(request)))
        }
        // Changes the settings the command line stores (`shelf settings`): for the book, or for every book when
        // "book" is absent. "default" clears a value.
        router.add("POST", "/api/reader/settings") { request in
            let body = try request.json()
            let bookshelf = try app.bookshelf()
            let id = try body.word("book").map { try books.book($0).book.book.id }
            var changes = ReaderSettings(), cleared: Set<Bookshelf.Setting> = []
            if let scale = body["fontScale"] {
                if let number = body.int("fontScale") {
                    changes.fontScale = number
                } else if scale.string == "default" {
                    cleared.insert(.fontScale)
                } else {
                    throw WebError(400, ReaderRequestProblem.fontScaleNotAPercentage)
                }
            }
            for setting in [Bookshelf.Setting.font, .theme, .hyphens] {
                guard let value = body[setting.rawValue] else { continue }
                guard let text = value.string else {
                    throw WebError(400, ReaderRequestProblem.settingNotAWord(name: setting.rawValue))
                }
                switch (text, setting) {
                case ("default", _): cleared.insert(setting)
                case (_, .font): changes.font = text
                case (_, .theme): changes.theme = text
                default: changes.hyphens = text
                }
            }
            try bookshelf.changeSettings(book: id, changes, clearing: cleared)
            return .json(document: try settings(bookshelf, id))
        }

        router.add("GET", "/api/reader/bookmarks") { request in
            let (book, _) = try books.book(try bookID(request))
            return .json(
                document: try reader().bookmarks(book).map { BookmarkJSON($0.bookmark, resolution: $0.resolution) })
        }
        // A bookmark is a locator: the browser's screen (its resource, progression and first words), so that it
        // leads back to that screen; or a page as `shelf bookmark` counts them; or (neither) the place.
        router.add("POST", "/api/reader/bookmarks") { request in
            let body = try request.decode(BookmarkBody.self, refusal: WebError(400, ReaderRequestProblem.notABookmark))
            let id = try request.query["book"].flatMap { $0.isEmpty ? nil : $0 } ?? body.book ?? bookID(request)
            let note = body.note.flatMap { $0.isEmpty ? nil : $0 }
            let (bookmark, page) = try reader().addBookmark(
                try books.shelfBook(id), page: body.page, locator: body.locator, note: note)
            return .json(document: BookmarkJSON(bookmark, resolution: .page(page.number)), status: 201)
        }
        router.add("DELETE", "/api/reader/bookmarks/{id}") { request in
            guard let text = request.parameters["id"], let id = Int64(text), id > 0 else {
                throw WebError(400, RequestProblem.idNotANumber(of: "bookmark"))
            }
            guard let bookmark = try app.bookshelf().removeBookmark(id: id) else {
                throw WebError(CommandLookup.noBookmark(id: id).error)
            }
            struct Removed: Encodable { let removed: BookmarkJSON }
            return .json(document: Removed(removed: BookmarkJSON(bookmark, resolution: nil)))
        }

        router.add("GET", "/api/reader/search") { request in
            let (book, _) = try books.book(try bookID(request))
            guard let query = request.query["q"]?.trimmingCharacters(in: .whitespaces), !query.isEmpty else {
                throw WebError(400, RequestProblem.whatToSearchFor)
            }
            let hits = try books.search(try books.open(book), query)
            let limited = hits.count >= ReaderBooks.searchLimit
            return .json(
                document: SearchAnswer(
                    hits: hits,
                    said: InBookSearchResult(query: query, count: hits.count, limited: limited).words(for: .browser)
                        .line
                ))
        }

        // A passage to share: from a page, or from the words the patron selected (a locator with their quote).
        router.add("POST", "/api/reader/share") { request in
            let body = try request.decode(
                ShareBody.self,
                refusal: WebError(400, ReaderRequestProblem.notALocator))
            let (book, _) = try books.book(try bookID(request))
            let shared = try reader().share(
                book, page: body.locator == nil ? body.page : nil, locator: body.locator)
            var document = ShareJSON(book: book, shared: shared, copied: false)
            // The page copies the passage itself, and says this once the browser's clipboard took it.
            document.said = PassageCopied(shared).words(for: .browser).line
            return .json(document: document)
        }
    }

    /// The hits of a search in the book, in reading order, and what the page says of them.
    private struct SearchAnswer: Encodable {
        let hits: [Locator]
        let said: String
    }

    /// What the browser sends to bookmark a place.
    private struct BookmarkBody: Decodable {
        let book: String?
        let locator: Locator?
        let page: Int?
        let note: String?
    }

    /// What the browser sends to share a passage: a page, or the words selected as a locator. Only a locator that is
    /// not one is refused; a page of another type is no page.
    private struct ShareBody: Decodable {
        let page: Int?
        let locator: Locator?

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            page = try? c.decodeIfPresent(Int.self, forKey: .page)
            locator = try c.decodeIfPresent(Locator.self, forKey: .locator)
        }

        enum CodingKeys: String, CodingKey { case page, locator }
    }

    /// What the first page of the reader needs at once: the book, its manifest, the place and settings.
    private struct ReaderOpening: Encodable {
        let book: ShelfBookJSON
        let manifest: Manifest
        let place: PlaceJSON
        let settings: Settings
        let base: String
        /// The book's resources on the app's own origin, for what the app's page shows itself (the jacket's cover:
        /// the app's pages load images from their own origin only).
        let ownBase: String
        let scripts: Scripts

        struct Scripts: Encodable { let possible: Bool, allowed: Bool }
    }

    /// The book named by `?book=` or by `"book"` in the JSON body.
    private static func bookID(_ request: WebRequest) throws -> String {
        if let id = request.query["book"], !id.isEmpty { return id }
        if let id = try request.json().word("book") { return id }
        throw WebError(400, RequestProblem.whichBook)
    }

    /// The settings of both scopes, so the page can tell a value set for the book from one set for every book
    /// and from the default (which depends on the screen's width, which only the page knows).
    private struct Settings: Encodable {
        let global: ReaderSettings
        let book: ReaderSettings
        let defaults: SettingsJSON.Defaults
    }

    private static func settings(_ bookshelf: Bookshelf, _ id: String?) throws -> Settings {
        Settings(
            global: try bookshelf.storedSettings(book: nil),
            book: try id.map { try bookshelf.storedSettings(book: $0) } ?? ReaderSettings(),
            defaults: SettingsJSON.defaultsValue)
    }
}

/// A library id as one path segment: its UTF-8 bytes in hex.
enum BookKey {
    static func key(_ id: String) -> String {
        id.utf8.map { String(format: "%02x", $0) }.joined()
    }

    static func id(_ key: String) -> String? {
        guard key.count % 2 == 0, !key.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var index = key.startIndex
        while index < key.endIndex {
            let next = key.index(index, offsetBy: 2)
            guard let byte = UInt8(key[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
