import Foundation
import TestSupport

/// A loopback Goodreads: the legacy XML API answering with the corpus documents (sosedoff/goodreads fixtures),
/// OAuth 1.0a with every signed request's HMAC-SHA1 signature verified, the shelf RSS feed and isbn_to_id.
public final class FakeGoodreads: @unchecked Sendable {
    let server: LoopbackHTTPServer
    let corpus: URL
    let lock = NSLock()
    public let consumerKey = "gr-consumer-key"
    public let consumerSecret = "gr-consumer-secret"
    var requestTokens: [String: String] = ["rq-token": "rq-secret"]
    var accessTokens: [String: String] = [:]
    var verified = 0
    var badSignatures = 0
    var added: [(book: String, shelf: String)] = []
    let user = "2003928"

    public var base: String { server.url("").absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) }

    public init(corpus: URL) throws {
        server = try LoopbackHTTPServer()
        self.corpus = corpus.appendingPathComponent("readinglists/goodreads/api-xml")
        routes()
    }

    public func stop() { server.stop() }

    func file(_ name: String) -> LoopbackHTTPServer.Response {
        let data = (try? Data(contentsOf: corpus.appendingPathComponent(name))) ?? Data()
        return .data(data, contentType: "application/xml; charset=utf-8")
    }

    /// Verifies an OAuth 1.0a signature; returns the token used, or nil when the signature is wrong.
    func verify(_ r: LoopbackHTTPServer.Request, secrets: [String: String], extraBody: Bool = true) -> String? {
        guard let header = r.header("Authorization") else { return nil }
        let oauth = TestCrypto.authorization(header)
        guard oauth["oauth_consumer_key"] == consumerKey, oauth["oauth_signature_method"] == "HMAC-SHA1",
            let signature = oauth["oauth_signature"]
        else { return nil }
        var parameters: [(String, String)] = oauth.filter { $0.key != "oauth_signature" }.map { ($0.key, $0.value) }
        parameters += r.queryItems.map { ($0.key, $0.value) }
        if extraBody, r.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true {
            parameters += TestCrypto.form(r.text).map { ($0.key, $0.value) }
        }
        let token = oauth["oauth_token"]
        let tokenSecret = token.flatMap { secrets[$0] } ?? ""
        if token != nil && secrets[token!] == nil { return nil }
        let expected = TestCrypto.signature(
            method: r.method, url: "http://127.0.0.1:\(server.port)\(r.path)", parameters: parameters,
            consumerSecret: consumerSecret, tokenSecret: tokenSecret)
        lock.withLock { if expected == signature { verified += 1 } else { badSignatures += 1 } }
        return expected == signature ? (token ?? "") : nil
    }

    func routes() {
        server.route("POST", "/oauth/request_token") { [unowned self] r in
            guard verify(r, secrets: [:]) != nil,
                TestCrypto.authorization(r.header("Authorization") ?? "")["oauth_callback"] != nil
            else {
                return .text("Invalid OAuth Request", status: 401)
            }
            return .text(
                "oauth_token=rq-token&oauth_token_secret=rq-secret", contentType: "application/x-www-form-urlencoded")
        }
        server.route("GET", "/oauth/authorize") { r in
            let q = r.queryItems
            guard let token = q["oauth_token"], let callback = q["oauth_callback"] else {
                return .text("bad", status: 400)
            }
            return .redirect(to: "\(callback)?oauth_token=\(token)&authorize=1")
        }
        server.route("POST", "/oauth/access_token") { [unowned self] r in
            let secrets = lock.withLock { requestTokens }
            guard let token = verify(r, secrets: secrets), token == "rq-token" else {
                return .text("Invalid OAuth Request", status: 401)
            }
            lock.withLock { accessTokens["ac-token"] = "ac-secret" }
            return .text(
                "oauth_token=ac-token&oauth_token_secret=ac-secret", contentType: "application/x-www-form-urlencoded")
        }
        server.route("GET", "/api/auth_user") { [unowned self] r in
            guard verify(r, secrets: lock.withLock { accessTokens }) != nil else {
                return .text("Invalid OAuth Request", status: 401)
            }
            return file("oauth-response.xml")
        }
        server.route("GET", "/shelf/list.xml") { [unowned self] r in
            guard authorisedRead(r) else { return .text("Invalid API key", status: 401) }
            return file("shelves-list-6.xml")
        }
        server.route("GET", "/review/list/\(user).xml") { [unowned self] r in
            guard authorisedRead(r) else { return .text("Invalid API key", status: 401) }
            let q = r.queryItems
            switch (q["shelf"], q["page"] ?? "1") {
            case ("to-read", "1"): return file("review-list-to-read-p1.xml")
            case ("read", "1"): return file("reviews.xml")
            default: return file("reviews-empty.xml")
            }
        }
        server.route("POST", "/shelf/add_to_shelf.xml") { [unowned self] r in
            guard verify(r, secrets: lock.withLock { accessTokens }) != nil else {
                return .text("Invalid OAuth Request", status: 401)
            }
            let f = TestCrypto.form(r.text)
            lock.withLock { added.append((f["book_id"] ?? "", f["name"] ?? "")) }
            return file("shelf-add-to-shelf.xml").adding("Status", "201")
        }
        server.route("GET", "/book/isbn_to_id/9780061020681") { _ in .text("386372") }
        server.route("GET", "/review/list_rss/\(user)") { r in
            let shelf = r.queryItems["shelf"] ?? "read"
            return .text(FakeGoodreads.rss(shelf: shelf), contentType: "application/rss+xml; charset=utf-8")
        }
        server.route("GET", "/review/list_rss/999") { _ in
            .text("<html>private</html>", status: 403, contentType: "text/html")
        }
    }

    /// key= reads, or a signed request.
    func authorisedRead(_ r: LoopbackHTTPServer.Request) -> Bool {
        if r.queryItems["key"] == consumerKey { return true }
        return verify(r, secrets: lock.withLock { accessTokens }) != nil
    }

    /// A shelf feed in the review/list_rss shape (FORMATS.md §6: RFC 822 dates in CDATA, user_shelves, ...).
    static func rss(shelf: String) -> String {
        let items: [(String, String, String, String, String, String, String)] =
            shelf == "read"
            ? [
                (
                    "386372", "Mort (Discworld, #4; Death, #1)", "Terry Pratchett", "0061020680", "5",
                    "Sun, 01 Nov 2020 00:00:00 -0700", "audio, fiction"
                ),
                (
                    "34506", "The Light Fantastic (Discworld, #2; Rincewind, #2)", "Terry Pratchett", "0061020702", "5",
                    "Mon, 04 Jul 2016 00:00:00 -0700", ""
                )
            ]
            : shelf == "to-read"
                ? [("19302", "Pippi Longstocking (Pippi Långstrump, #1)", "Astrid Lindgren", "0142402494", "0", "", "")]
                : []
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
              <title>Thomas's bookshelf: \(shelf)</title>
              <link>https://www.goodreads.com/review/list_rss/2003928?shelf=\(shelf)</link>
            """
        for (id, title, author, isbn, rating, readAt, shelves) in items {
            out += """
                <item>
                  <guid><![CDATA[https://www.goodreads.com/review/show/1\(id)?utm_medium=api&utm_source=rss]]></guid>
                  <pubDate><![CDATA[Fri, 27 Nov 2020 05:04:45 -0800]]></pubDate>
                  <title>\(title.replacingOccurrences(of: "&", with: "&amp;"))</title>
                  <link><![CDATA[https://www.goodreads.com/review/show/1\(id)]]></link>
                  <book_id>\(id)</book_id>
                  <book_image_url><![CDATA[https://i.gr-assets.com/images/\(id).jpg]]></book_image_url>
                  <book_description><![CDATA[A <i>book</i>.]]></book_description>
                  <book id="\(id)"><num_pages>243</num_pages></book>
                  <author_name>\(author)</author_name>
                  <isbn>\(isbn)</isbn>
                  <user_name>Thomas</user_name>
                  <user_rating>\(rating)</user_rating>
                  <user_read_at><![CDATA[\(readAt)]]></user_read_at>
                  <user_date_added><![CDATA[Fri, 27 Nov 2020 05:04:45 -0800]]></user_date_added>
                  <user_date_created><![CDATA[Fri, 27 Nov 2020 05:04:45 -0800]]></user_date_created>
                  <user_shelves>\(shelves)</user_shelves>
                  <user_review></user_review>
                  <average_rating>4.24</average_rating>
                  <book_published>1987</book_published>
                  <description><![CDATA[ ]]></description>
                </item>
                """
        }
        return out + "</channel></rss>\n"
    }
}
