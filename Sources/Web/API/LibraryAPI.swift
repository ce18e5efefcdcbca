import Foundation
import Host

/// The library in the API: accounts and sign-in, the catalog with its format tabs, a title's details, borrowing,
/// My Books, Reservations, notifications, the shelf, reading lists and the wish list. Every answer is a document of
/// docs/json.md as the host makes it; lists come a page at a time (`Paging`). Lists and counts are read in process
/// (`app.library()`, `app.bookshelf()`); the rest still goes through `HostAdapter`. What changes on its own is
/// published on the event stream: `status` (the counts and the Reservations badge), `notification`, `sync`,
/// `download`.
enum LibraryAPI: WebModule {
    static func install(in app: WebApp) {
        let router = app.router, host = app.host
        let sync = LibrarySync(host: host, app: app, events: app.events, interval: app.configuration.syncInterval)

        router.add("GET", "/api/status") { _ in .json(Data(ReadiumJSON.encode(try StatusJSON(try app.library())).utf8)) }

        // MARK: Accounts

        router.add("GET", "/api/accounts") { request in
            try .json(object: try Paging.page(try list(host.object(["account", "list"])), for: request))
        }
        router.add("POST", "/api/accounts") { request in
            let body = try request.jsonObject()
            var words = ["account", "add", try request.required("url")]
            if let name = body["name"] as? String, !name.isEmpty { words += ["--name", name] }
            return .json(try host.json(words), status: 201)
        }
        router.add("DELETE", "/api/accounts/{id}") { request in
            .json(try host.json(["account", "remove", try account(request)]))
        }
        router.add("POST", "/api/accounts/{id}/use") { request in
            .json(try host.json(["account", "use", try account(request)]))
        }
        router.add("POST", "/api/accounts/{id}/sign-in") { request in
            let id = try account(request)
            let barcode = try request.required("barcode")
            let pin = (try request.jsonObject()["pin"] as? String) ?? ""
            let answer = try host.json(["login", id, "--username", barcode, "--password-stdin"], stdin: pin + "\n")
            sync.soon()
            return .json(answer)
        }
        router.add("POST", "/api/accounts/{id}/sign-out") { request in
            let answer = try host.json(["logout", try account(request)])
            sync.publishStatus()
            return .json(answer)
        }

        // MARK: The catalog

        router.add("GET", "/api/catalog") { request in
            _ = try Paging.page([], for: request)  // a bad limit or cursor is refused before the library is asked
            var words: [String]
            if let query = request.query["q"], !query.isEmpty {
                words = ["catalog-search", query]
            } else {
                words = ["browse"] + (request.query["lane"].map { [$0] } ?? [])
            }
            if let format = request.query["format"] {
                guard ["all", "ebook", "audiobook"].contains(format) else {
                    throw WebError(400, "format=\(format) is not all, ebook or audiobook")
                }
                words += ["--format", format]
            }
            if let page = try request.integer("page", in: 1...10_000) { words += ["--page", String(page)] }
            if request.query["available"] == "true" { words.append("--available") }
            if let facet = request.query["facet"] { words += ["--facet", facet] }
            words += accountOption(request.query["account"])
            guard var document = try host.object(words) as? [String: Any] else { throw WebError(502, "The catalog answer was not a document") }
            // The entries come a page at a time like every list; the document's own `next` is the library's next page.
            let paged = try Paging.page(document["entries"] as? [Any] ?? [], for: request)
            document["entries"] = paged["items"]
            document["total"] = paged["total"]
            document["nextCursor"] = paged["next"]
            return try .json(object: document)
        }

        router.add("GET", "/api/book") { request in
            guard let id = request.query["id"], !id.isEmpty else { throw WebError(400, "Which title? Add ?id=ID.") }
            return .json(try host.json(["book", id] + accountOption(request.query["account"])))
        }

        // MARK: Circulation: each answers with the outcome document (exit 69 is an outcome: no copy, nothing reserved)

        for action in ["borrow", "reserve", "return", "cancel-hold"] {
            router.add("POST", "/api/book/\(action)") { request in
                let body = try request.jsonObject()
                var words = [action, try request.required("id")] + accountOption(body["account"] as? String)
                if action == "reserve", let branch = body["branch"] as? String, !branch.isEmpty { words += ["--branch", branch] }
                let answer = try host.json(words, accepting: [69])
                sync.publishStatus()
                return .json(answer)
            }
        }

        // A download runs on after the answer; its start, end or failure comes on the event stream (`download`).
        router.add("POST", "/api/book/download") { request in
            let id = try request.required("id")
            let accountWords = accountOption(try request.jsonObject()["account"] as? String)
            app.events.publish("download", object: ["id": id, "state": "started"])
            DispatchQueue.global().async {
                do {
                    let data = try host.json(["download", id] + accountWords, accepting: [69])
                    let outcome = (try? JSONSerialization.jsonObject(with: data)) ?? [:]
                    app.events.publish("download", object: ["id": id, "state": "done", "download": outcome])
                } catch let failure as HostFailure {
                    app.events.publish("download", object: ["id": id, "state": "failed", "message": failure.message,
                                                            "retry": failure.exitCode == 75])
                } catch {
                    app.events.publish("download", object: ["id": id, "state": "failed", "message": "\(error)", "retry": false])
                }
                sync.publishStatus()
            }
            return try .json(object: ["id": id, "state": "started"], status: 202)
        }

        // MARK: My Books, Reservations, the shelf

        router.add("GET", "/api/loans") { request in
            let library = try app.library()
            let loans = try library.loans(account: request.query["account"])
            return try Paging.response(loans.map { LoanJSON($0, library: library) }, for: request)
        }
        router.add("GET", "/api/holds") { request in
            let library = try app.library()
            let holds = try library.holds(account: request.query["account"])
            return try Paging.response(holds.map { HoldJSON($0, openable: library.openable) }, for: request)
        }
        router.add("GET", "/api/shelf") { request in
            try Paging.response(try app.bookshelf().database.shelfBooks().map(ShelfBookJSON.init), for: request)
        }
        router.add("POST", "/api/sync") { _ in .json(try sync.now()) }

        // MARK: Notifications

        router.add("GET", "/api/notifications") { request in
            let records = try app.library().notifications(all: request.query["all"] == "true")
            return try Paging.response(records.map(NotificationJSON.init), for: request)
        }
        router.add("POST", "/api/notifications/{id}/open") { request in
            guard let id = request.parameters["id"], Int(id) != nil else { throw WebError(400, "A notification's id is a number") }
            let book = (try request.jsonObject()["book"] as? Bool) == true
            let answer = try host.json(["open-notification", id] + (book ? ["--book"] : []))
            sync.publishStatus()
            return .json(answer)
        }

        // MARK: Reading lists and the wish list

        router.add("GET", "/api/wishlist") { _ in .json(try host.json(["wishlist"])) }
        router.add("POST", "/api/wishlist") { request in
            var words = ["wish", try request.required("title")]
            if let author = try request.jsonObject()["author"] as? String, !author.isEmpty { words += ["--author", author] }
            return .json(try host.json(words), status: 201)
        }
        router.add("GET", "/api/lists") { request in
            var words = ["lists", "show"]
            if let shelf = request.query["shelf"] { words += ["--shelf", shelf] }
            if let service = request.query["service"] { words += ["--service", service] }
            return .json(try host.json(words))
        }

        sync.start()
    }

    private static func account(_ request: WebRequest) throws -> String {
        guard let id = request.parameters["id"], !id.isEmpty else { throw WebError(400, "Which account?") }
        return id
    }

    private static func accountOption(_ id: String?) -> [String] {
        guard let id, !id.isEmpty else { return [] }
        return ["--account", id]
    }

    private static func list(_ value: Any) throws -> [Any] {
        guard let items = value as? [Any] else { throw WebError(502, "The host's answer was not a list") }
        return items
    }
}
