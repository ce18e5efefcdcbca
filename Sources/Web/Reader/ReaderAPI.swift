import Foundation

/// The reader in the API (web/reader.html): a book's manifest, pages and table of contents, the patron's place,
/// settings, bookmarks, search and share, each answered by the command that does it on the terminal, so the
/// browser and `shelf read` keep one place, one set of settings and one list of bookmarks. The book's own files
/// are served under the launch's book path (`BookResources`), at `/book/TOKEN/read/KEY/HREF`, KEY being the
/// library id in hex (ids hold `/` and `:`), so that the book's relative links resolve as in the package.
enum ReaderAPI: WebModule {
    static func install(in app: WebApp) {
        let router = app.router, host = app.host
        let books = ReaderBooks(host: host, app: app)

        app.bookResources.mount("read") { path in
            let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = BookKey.id(parts[0]) else { throw WebError(404, "No such book resource") }
            let resource = try books.resource(path: try books.path(id: id), href: parts[1])
            return WebResponse(status: 200, contentType: resource.type, body: resource.data)
        }

        // What the first page needs, asked of the host at once: the book, its manifest, the place and settings.
        router.add("GET", "/api/reader") { request in
            let id = try bookID(request)
            let book = try books.book(id)
            nonisolated(unsafe) var manifest: Result<[String: Any], Error> = .failure(WebError(500, "not asked"))
            nonisolated(unsafe) var place: Result<Any, Error> = .failure(WebError(500, "not asked"))
            nonisolated(unsafe) var settings: Result<[String: Any], Error> = .failure(WebError(500, "not asked"))
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { manifest = Result { try books.manifest(book) } }
            DispatchQueue.global().async(group: group) { place = Result { try host.object(["read", id]) } }
            DispatchQueue.global().async(group: group) { settings = Result { try readSettings(host, id) } }
            group.wait()
            return try .json(object: [
                "book": book, "manifest": try manifest.get(), "place": try place.get(), "settings": try settings.get(),
                "base": app.bookResources.url("read", BookKey.key(id)) + "/",
            ])
        }

        // What can come after the first page: the page ranges of each chapter and the table of contents.
        router.add("GET", "/api/reader/pages") { request in
            let id = try bookID(request)
            let book = try books.book(id)
            return try .json(object: ["pages": try books.pageRanges(book), "toc": try books.toc(book, id: id)])
        }

        // The place: read (to see whether `shelf read` moved it since) and moved (a page turn in the browser).
        router.add("GET", "/api/reader/place") { request in
            .json(try host.json(["read", try bookID(request)]))
        }
        router.add("POST", "/api/reader/place") { request in
            let id = try bookID(request)
            guard let page = try request.jsonObject()["page"] as? Int, page >= 1 else {
                throw WebError(400, "\"page\" must be a page number from 1", hint: "Send {\"book\": ID, \"page\": N}.")
            }
            return .json(try host.json(["read", id, "--goto", String(page)]))
        }

        router.add("GET", "/api/reader/settings") { request in
            try .json(object: try readSettings(host, try bookID(request)))
        }
        // Changes the settings the command line stores: for the book, or for every book when "book" is absent.
        router.add("POST", "/api/reader/settings") { request in
            let body = try request.jsonObject()
            var words = ["settings"]
            if let id = body["book"] as? String, !id.isEmpty { words.append(id) }
            if let scale = body["fontScale"] {
                if let number = scale as? Int { words += ["--font-scale", String(number)] } else if scale as? String == "default" { words += ["--font-scale", "default"] }
                else { throw WebError(400, "\"fontScale\" is a whole percentage or \"default\"") }
            }
            for (name, option) in [("font", "--font"), ("theme", "--theme")] {
                guard let value = body[name] else { continue }
                guard let text = value as? String else { throw WebError(400, "\"\(name)\" is a word") }
                words += [option, text]
            }
            _ = try host.json(words)
            return try .json(object: try readSettings(host, body["book"] as? String))
        }

        router.add("GET", "/api/reader/bookmarks") { request in
            .json(try host.json(["bookmarks", try bookID(request)]))
        }
        router.add("POST", "/api/reader/bookmarks") { request in
            let body = try request.jsonObject()
            var words = ["bookmark", "add", try bookID(request)]
            if let page = body["page"] as? Int { words += ["--page", String(page)] }
            if let note = body["note"] as? String, !note.isEmpty { words += ["--note", note] }
            return .json(try host.json(words), status: 201)
        }
        router.add("DELETE", "/api/reader/bookmarks/{id}") { request in
            guard let id = request.parameters["id"], Int(id) != nil else { throw WebError(400, "A bookmark's id is a number") }
            return .json(try host.json(["bookmark", "remove", id]))
        }

        router.add("GET", "/api/reader/search") { request in
            let book = try books.book(try bookID(request))
            guard let query = request.query["q"]?.trimmingCharacters(in: .whitespaces), !query.isEmpty else {
                throw WebError(400, "What to search for? Add ?q=WORDS.")
            }
            return .json(try host.json(["search", try books.path(of: book), query]))
        }

        // A passage to share: from a page, or from the words the patron selected (a locator with their quote).
        router.add("POST", "/api/reader/share") { request in
            let body = try request.jsonObject()
            var words = ["share", try bookID(request)]
            if let locator = body["locator"] as? [String: Any] {
                let data = try JSONSerialization.data(withJSONObject: locator)
                words += ["--locator", String(decoding: data, as: UTF8.self)]
            } else if let page = body["page"] as? Int {
                words += ["--page", String(page)]
            }
            return .json(try host.json(words))
        }
    }

    /// The book named by `?book=` or by `"book"` in the JSON body.
    private static func bookID(_ request: WebRequest) throws -> String {
        if let id = request.query["book"], !id.isEmpty { return id }
        if let id = try request.jsonObject()["book"] as? String, !id.isEmpty { return id }
        throw WebError(400, "Which book? Add ?book=ID (`shelf books` shows the ids).")
    }

    /// The settings of both scopes, so the page can tell a value set for the book from one set for every book
    /// and from the default (which depends on the screen's width, which only the page knows).
    private static func readSettings(_ host: HostAdapter, _ id: String?) throws -> [String: Any] {
        nonisolated(unsafe) var global: Result<Any, Error> = .success([:]), own: Result<Any, Error> = .success([:])
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { global = Result { try host.object(["settings"]) } }
        if let id { DispatchQueue.global().async(group: group) { own = Result { try host.object(["settings", id]) } } }
        group.wait()
        let globalDocument = try global.get() as? [String: Any] ?? [:], bookDocument = try own.get() as? [String: Any] ?? [:]
        return ["global": globalDocument["stored"] ?? [:], "book": bookDocument["stored"] ?? [:],
                "defaults": globalDocument["defaults"] ?? [:]]
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
