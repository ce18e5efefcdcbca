import Foundation
import PluginAPI
import PluginKit

final class GoodreadsConnection: ReadingListConnection {
    let host: PluginHost
    let settings: [String: String]
    var base: String {
        (settings["baseURL"] ?? "https://www.goodreads.com").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    init(host: PluginHost, settings: [String: String]) {
        self.host = host
        self.settings = settings
    }

    // MARK: Pull

    func pull(shelf: String?) throws -> PullResult {
        if let file = settings["file"] {
            return try importCSV(path: file, shelf: shelf)
        }
        if let key = try host.secret("apiKey"), let user = try userID() {
            return try pullAPI(key: key, user: user, shelf: shelf)
        }
        if let user = settings["userId"] {
            return try pullRSS(user: user, shelf: shelf)
        }
        throw PluginFailure.protected(
            "nothing to read Goodreads from: connect with an export file (--set file=goodreads_library_export.csv), "
                + "a user id for the public shelf feed (--set userId=...), or a legacy API key")
    }

    func importCSV(path: String, shelf: String?) throws -> PullResult {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PluginFailure.notFound("the Goodreads export \(path) cannot be read", at: path)
        }
        let entries = try GoodreadsCSV.entries(data, name: (path as NSString).lastPathComponent)
            .filter { shelf == nil || $0.shelf == Text.shelf(shelf!) }
        return PullResult(shelves: GoodreadsCSV.shelves(of: entries), entries: entries)
    }

    // MARK: RSS

    func pullRSS(user: String, shelf: String?) throws -> PullResult {
        let shelves = shelf.map { [$0] } ?? ["read", "currently-reading", "to-read"]
        var entries: [ReadingListEntry] = []
        var listed: [ReadingListShelf] = []
        let rssKey = try host.secret("rssKey")
        for name in shelves {
            if host.isCancelled { throw PluginFailure.cancelled }
            var query = [("shelf", name)]
            if let rssKey { query.append(("key", rssKey)) }
            let url = "\(base)/review/list_rss/\(PercentEncoding.encode(user))?" + PercentEncoding.form(query)
            let response = try host.http("GET", url)
            if response.status == 404 { throw PluginFailure.notFound("Goodreads has no user \(user)") }
            if response.status == 401 || response.status == 403 {
                throw PluginFailure.protected(
                    "Goodreads refused the shelf feed of user \(user): the profile is private (give its RSS key as a secret setting rssKey)"
                )
            }
            guard response.isSuccess else {
                throw PluginFailure.io("Goodreads answered \(response.status) for the \(name) shelf feed")
            }
            let got = try GoodreadsRSS.entries(response.body, shelf: name)
            listed.append(ReadingListShelf(id: name, name: name, count: got.count))
            entries += got
        }
        return PullResult(shelves: listed, entries: entries)
    }

    // MARK: Legacy API

    func oauth() throws -> OAuth1? {
        guard let key = try host.secret("apiKey"), let secret = try host.secret("apiSecret") else { return nil }
        guard let token = try host.secret("oauth_token"), let tokenSecret = try host.secret("oauth_token_secret") else {
            return nil
        }
        return OAuth1(consumerKey: key, consumerSecret: secret, token: token, tokenSecret: tokenSecret)
    }

    func userID() throws -> String? {
        if let id = settings["userId"] { return id }
        return try host.secret("user_id")
    }

    /// GET of a legacy API document, signed when the patron authorised shelf, else with key=.
    func apiGet(_ path: String, _ query: [(String, String)], key: String) throws -> XNode {
        let url = "\(base)\(path)"
        var headers: [String: String] = [:]
        var parameters = query
        if let oauth = try oauth() {
            headers["Authorization"] = oauth.authorization(method: "GET", url: url, parameters: parameters)
        } else {
            parameters.append(("key", key))
        }
        let response = try host.http("GET", url + "?" + PercentEncoding.form(parameters), headers: headers)
        try check(response, what: path)
        return try parse(response, what: path)
    }

    func check(_ response: HostHTTPResponse, what: String) throws {
        switch response.status {
        case 200..<300: return
        case 401, 403:
            throw PluginFailure.protected(
                "Goodreads refused the key or the authorisation (\(response.status)): connect again with `shelf lists connect goodreads`"
            )
        case 404: throw PluginFailure.notFound("Goodreads has no \(what)")
        case 429: throw PluginFailure.io("Goodreads is limiting requests (429): try again later")
        default: throw PluginFailure.io("Goodreads answered \(response.status) for \(what)")
        }
    }

    func parse(_ response: HostHTTPResponse, what: String) throws -> XNode {
        do {
            return try XNode.parse(response.body, what: "Goodreads' answer to \(what)")
        } catch let failure as XMLFailure {
            throw PluginFailure.badData(failure.description, at: what)
        }
    }

    func pullAPI(key: String, user: String, shelf: String?) throws -> PullResult {
        let list = try apiGet("/shelf/list.xml", [("user_id", user)], key: key)
        let shelves = try GoodreadsXML.shelves(list)
        let names = shelf.map { [$0] } ?? shelves.map(\.name)
        var entries: [ReadingListEntry] = []
        for name in names {
            var page = 1
            while page <= 500 {
                if host.isCancelled { throw PluginFailure.cancelled }
                let doc = try apiGet(
                    "/review/list/\(PercentEncoding.encode(user)).xml",
                    [("v", "2"), ("shelf", name), ("page", String(page)), ("per_page", "200")], key: key)
                let (got, end, total) = try GoodreadsXML.reviews(doc, requested: name)
                entries += got
                // Progress only; a cancellation it would report is seen by `host.isCancelled` at the next page.
                try? host.progress(-1, "Goodreads shelf \(name), page \(page)")
                if got.isEmpty || end >= total { break }
                page += 1
            }
        }
        return PullResult(shelves: shelves, entries: GoodreadsXML.merge(entries))
    }

    // MARK: Authorisation (OAuth 1.0a, legacy keys only)

    func authorizeBegin(redirectURI: String) throws -> AuthorizationStart {
        guard let key = try host.secret("apiKey"), let secret = try host.secret("apiSecret") else {
            throw PluginFailure.protected(
                "signing in to Goodreads needs a legacy API key and secret (secret settings apiKey and apiSecret); "
                    + "Goodreads issues no new keys: use the export file instead")
        }
        let url = "\(base)/oauth/request_token"
        let oauth = OAuth1(consumerKey: key, consumerSecret: secret)
        let header = oauth.authorization(
            method: "POST", url: url, parameters: [], extra: [("oauth_callback", redirectURI)])
        let response = try host.http("POST", url, headers: ["Authorization": header], noRetry: true)
        try check(response, what: "a request token")
        let form = Text.parseForm(String(decoding: response.body, as: UTF8.self))
        guard let token = form["oauth_token"], let tokenSecret = form["oauth_token_secret"] else {
            throw PluginFailure.badData("Goodreads' request-token answer has no oauth_token")
        }
        try host.setSecret(token, for: "request_token")
        try host.setSecret(tokenSecret, for: "request_token_secret")
        return AuthorizationStart(
            url: "\(base)/oauth/authorize?"
                + PercentEncoding.form([("oauth_token", token), ("oauth_callback", redirectURI)]),
            state: token)
    }

    func authorizeComplete(query: [String: String]) throws {
        guard let key = try host.secret("apiKey"), let secret = try host.secret("apiSecret"),
            let requestToken = try host.secret("request_token"),
            let requestSecret = try host.secret("request_token_secret")
        else {
            throw PluginFailure.protected(
                "no Goodreads sign-in is in progress: run `shelf lists connect goodreads --authorize` again")
        }
        if let got = query["oauth_token"], got != requestToken {
            throw PluginFailure.protected(
                "the browser returned another request token than the one shelf asked for: sign in again")
        }
        if query["authorize"] == "0" { throw PluginFailure.protected("the sign-in was declined on Goodreads") }
        let url = "\(base)/oauth/access_token"
        let oauth = OAuth1(consumerKey: key, consumerSecret: secret, token: requestToken, tokenSecret: requestSecret)
        let extra = query["oauth_verifier"].map { [("oauth_verifier", $0)] } ?? []
        let response = try host.http(
            "POST", url,
            headers: ["Authorization": oauth.authorization(method: "POST", url: url, parameters: [], extra: extra)],
            noRetry: true)
        try check(response, what: "an access token")
        let form = Text.parseForm(String(decoding: response.body, as: UTF8.self))
        guard let token = form["oauth_token"], let tokenSecret = form["oauth_token_secret"] else {
            throw PluginFailure.badData("Goodreads' access-token answer has no oauth_token")
        }
        try host.setSecret(token, for: "oauth_token")
        try host.setSecret(tokenSecret, for: "oauth_token_secret")
        try host.setSecret(nil, for: "request_token")
        try host.setSecret(nil, for: "request_token_secret")
        // Who signed in (api/auth_user): the user id the API's lists need.
        let me = try apiGet("/api/auth_user", [], key: key)
        if let id = me.find("user")?.attributes["id"] { try host.setSecret(id, for: "user_id") }
    }

    // MARK: Push

    func push(_ entries: [ReadingListEntry]) throws -> PushResult {
        if let oauth = try oauth() {
            return try pushAPI(entries, oauth: oauth)
        }
        return try pushCSV(entries)
    }

    var exportPath: String { settings["exportFile"] ?? host.dataDirectory + "/goodreads-import.csv" }

    /// Appends to a CSV in Goodreads' import format; an entry already in it is unchanged.
    func pushCSV(_ entries: [ReadingListEntry]) throws -> PushResult {
        let path = exportPath
        var existing = Set<String>()
        var text = ""
        if let data = FileManager.default.contents(atPath: path) {
            text = String(decoding: data, as: UTF8.self)
            // A file that is not CSV is not treated as empty: appending to it would repeat what it holds, or bury it.
            let rows: [[String]]
            do {
                rows = try CSV.parse(data)
            } catch {
                throw PluginFailure.badData(
                    "the export file is not a CSV file shelf can add to (\(error)); move it away and push again",
                    at: path)
            }
            for row in rows.dropFirst() where row.count >= 9 {
                existing.insert(
                    GoodreadsCSV.importKey(
                        title: row[1], author: row[2], isbn: Text.isbn(row[4]) ?? Text.isbn(row[3]), shelf: row[8]))
            }
        }
        if text.isEmpty { text = CSV.line(GoodreadsCSV.importHeader) }
        var results: [PushOutcome] = []
        for (i, e) in entries.enumerated() {
            guard e.shelf == "read" || e.shelf == "to-read" || e.shelf == "currently-reading" else {
                results.append(
                    PushOutcome(
                        index: i, status: .failed, message: "shelf \(e.shelf) cannot be pushed (read or to-read)"))
                continue
            }
            guard !e.title.isEmpty || e.isbn13 != nil || e.isbn10 != nil else {
                results.append(PushOutcome(index: i, status: .failed, message: "an entry needs a title or an ISBN"))
                continue
            }
            let key = GoodreadsCSV.importKey(
                title: e.title, author: e.authors.first ?? "", isbn: e.isbn13 ?? e.isbn10, shelf: e.shelf)
            if existing.contains(key) {
                results.append(PushOutcome(index: i, status: .unchanged, message: "already in \(path)"))
                continue
            }
            existing.insert(key)
            text += CSV.line(GoodreadsCSV.importRow(e))
            results.append(
                PushOutcome(
                    index: i, status: .exported,
                    message: "written to \(path): upload it at https://www.goodreads.com/review/import"))
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw PluginFailure.io("cannot write \(path): \(error.localizedDescription)", at: path)
        }
        return PushResult(results: results, file: path)
    }

    /// POST shelf/add_to_shelf.xml for each entry; the book id comes from the entry or from its ISBN.
    func pushAPI(_ entries: [ReadingListEntry], oauth: OAuth1) throws -> PushResult {
        // What was pushed before, to skip it: unknown, it is pushed again, which adding to a shelf takes as a no-op.
        var done = Set(
            (try? String(contentsOfFile: host.dataDirectory + "/pushed.txt", encoding: .utf8))?.split(separator: "\n")
                .map(String.init) ?? [])
        var results: [PushOutcome] = []
        for (i, e) in entries.enumerated() {
            if host.isCancelled { throw PluginFailure.cancelled }
            do {
                guard
                    let bookID = try e.identifiers["goodreads"]
                        ?? bookID(isbn: e.isbn13 ?? e.isbn10, key: oauth.consumerKey)
                else {
                    results.append(
                        PushOutcome(
                            index: i, status: .failed,
                            message: "Goodreads has no book with this ISBN, and the entry has no Goodreads id"))
                    continue
                }
                let mark = "\(bookID) \(e.shelf)"
                if done.contains(mark) {
                    results.append(PushOutcome(index: i, status: .unchanged))
                    continue
                }
                let url = "\(base)/shelf/add_to_shelf.xml"
                let parameters = [("book_id", bookID), ("name", e.shelf)]
                let body = PercentEncoding.form(parameters)
                let response = try host.http(
                    "POST", url,
                    headers: [
                        "Authorization": oauth.authorization(method: "POST", url: url, parameters: parameters),
                        "Content-Type": "application/x-www-form-urlencoded"
                    ], body: Data(body.utf8), noRetry: true)
                try check(response, what: "adding book \(bookID) to \(e.shelf)")
                if let refused = GoodreadsXML.writeFailure(response.body) {
                    results.append(PushOutcome(index: i, status: .failed, message: refused))
                    continue
                }
                done.insert(mark)
                results.append(PushOutcome(index: i, status: .added))
            } catch let failure as PluginFailure
                where failure.status != SHELF_E_CANCELLED && failure.status != SHELF_E_PROTECTED
            {
                results.append(PushOutcome(index: i, status: .failed, message: failure.message))
            }
        }
        // As above: not remembered, the next push sends these again, harmlessly; the results say what was done.
        try? done.sorted().joined(separator: "\n").write(
            toFile: host.dataDirectory + "/pushed.txt", atomically: true, encoding: .utf8)
        return PushResult(results: results)
    }

    func bookID(isbn: String?, key: String) throws -> String? {
        guard let isbn else { return nil }
        let response = try host.http("GET", "\(base)/book/isbn_to_id/\(isbn)?" + PercentEncoding.form([("key", key)]))
        if response.status == 404 { return nil }
        try check(response, what: "the book with ISBN \(isbn)")
        let id = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty || !id.allSatisfy(\.isNumber) ? nil : id
    }
}
