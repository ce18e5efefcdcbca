import Foundation
import Host
import TestSupport
import Web
import XCTest

/// What keeps other sites, other hosts and book pages away from the patron's library.
final class SecurityTests: WebServerTestCase {
    func testTheAPIRefusesARequestWithoutTheSession() throws {
        let answer = try http.send("GET", "/api/status")
        XCTAssertEqual(answer.status, 401)
        XCTAssertEqual(try answer.json()["type"] as? String, "https://shelf.invalid/problems/no-session")
    }

    func testALaunchKeyLetsOneBrowserInOnceAndSetsNoCookie() throws {
        let key = app.guardian.mintLaunchKey()
        let answer = try http.send("GET", "/open?key=\(key)")
        XCTAssertEqual(answer.status, 200)
        XCTAssertNil(answer.header("set-cookie"), "a cookie would go to every port of the host")
        let session = try XCTUnwrap(Self.sessionToken(in: answer.text))
        XCTAssertNotEqual(session, key)
        XCTAssertFalse(answer.text.contains(key), "the page does not repeat the key")
        XCTAssertEqual(try http.send("GET", "/api/session", headers: ["X-Shelf-Session": session]).status, 200)
        XCTAssertEqual(
            try http.send("GET", "/api/events?session=\(session)", timeout: 2, until: { $0.contains("\r\n\r\n") })
                .status, 200,
            "EventSource names it in the query")
        // The same key again (a replayed address, the browser's history): used up. Failed before: it worked again.
        let again = try http.send("GET", "/open?key=\(key)")
        XCTAssertEqual(again.status, 403)
        XCTAssertNil(Self.sessionToken(in: again.text))
        // The page says the host's words (issue 31): before, it wrote its own, with markup in the sentence.
        XCTAssertTrue(
            again.text.contains("<h1>This link has expired: each link lets a browser in once.</h1>"), again.text)
        XCTAssertTrue(again.text.contains("<p>Run shelf serve --open in a terminal: it opens shelf here"), again.text)
        // The server's own secret is no launch key, and is never in an address.
        XCTAssertEqual(try http.send("GET", "/open?key=\(app.guardian.secret)").status, 403)
        XCTAssertFalse(app.launchURL().contains(app.guardian.secret))
    }

    func testANewLaunchKeyNeedsTheSecretAndNoBrowser() throws {
        XCTAssertEqual(try http.send("POST", "/launch-key").status, 403)
        XCTAssertEqual(
            try http.send("POST", "/launch-key", headers: ["X-Shelf-Secret": String(repeating: "0", count: 64)]).status,
            403)
        XCTAssertEqual(
            try http.send(
                "POST", "/launch-key", headers: ["X-Shelf-Secret": app.guardian.secret, "Origin": "http://evil.example"]
            ).status, 403)
        let minted = try http.send("POST", "/launch-key", headers: ["X-Shelf-Secret": app.guardian.secret])
        XCTAssertEqual(minted.status, 200)
        let key = try XCTUnwrap(try minted.json()["key"] as? String)
        XCTAssertEqual(try http.send("GET", "/open?key=\(key)").status, 200)
    }

    func testAWrongKeyOrAMadeUpSessionLetsNothingIn() throws {
        let wrong = try http.send("GET", "/open?key=" + String(repeating: "0", count: 64))
        XCTAssertEqual(wrong.status, 403)
        XCTAssertNil(Self.sessionToken(in: wrong.text))
        XCTAssertEqual(try http.send("GET", "/open").status, 403)
        let forged = try http.send(
            "GET", "/api/status", headers: ["X-Shelf-Session": String(repeating: "a", count: 64)])
        XCTAssertEqual(forged.status, 401)
        // The old cookie is no credential any more.
        let session = try signIn()
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": "shelf_session=\(session)"]).status, 401)
        XCTAssertEqual(
            try http.send("POST", "/api/sync", headers: ["Origin": origin, "Content-Type": "application/json"]).status,
            401)
    }

    func testAnotherHostNameIsRefusedEvenWithTheSession() throws {
        let session = try signIn()
        // DNS rebinding: a page at evil.example whose name now points at 127.0.0.1.
        for path in ["/api/status", "/", "/open?key=\(app.guardian.secret)"] {
            let answer = try http.send(
                "GET", path, headers: ["X-Shelf-Session": session, "Host": "evil.example:\(app.port)"])
            XCTAssertEqual(answer.status, 403, path)
            XCTAssertEqual(try answer.json()["type"] as? String, "https://shelf.invalid/problems/refused-host", path)
            // The way on is the app's own address, not a command (issue 31): before, "Open the address `shelf serve`
            // printed."
            XCTAssertEqual(try answer.json()["title"] as? String, "This server answers only to its own address.")
            XCTAssertEqual(try answer.json()["detail"] as? String, "Open \(origin)/ instead.")
        }
        XCTAssertEqual(
            try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session, "Host": "localhost:\(app.port)"])
                .status, 200)
        XCTAssertEqual(
            try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session, "Host": "127.0.0.1:1"]).status,
            403, "another port")
        XCTAssertEqual(
            try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session, "Host": ""]).status, 403)
    }

    func testAForeignOriginCannotReadOrChangeAnything() throws {
        let session = try signIn()
        let foreign = try http.send(
            "POST", "/api/sync", headers: ["X-Shelf-Session": session, "Origin": "http://evil.example"])
        XCTAssertEqual(foreign.status, 403)
        XCTAssertEqual(try foreign.json()["type"] as? String, "https://shelf.invalid/problems/refused-origin")
        XCTAssertEqual(
            try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session, "Origin": "http://evil.example"])
                .status, 403)
        XCTAssertEqual(
            try http.send("POST", "/api/sync", headers: ["X-Shelf-Session": session]).status, 403,
            "a change without an Origin")
        XCTAssertEqual(
            try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session, "Sec-Fetch-Site": "cross-site"])
                .status, 403)
        XCTAssertEqual(
            try http.send("POST", "/api/accounts/x/use", headers: ["X-Shelf-Session": session, "Origin": "null"])
                .status, 403,
            "a sandboxed page's opaque origin")
        XCTAssertEqual(
            try http.send(
                "GET", "/api/status",
                headers: ["X-Shelf-Session": session, "Origin": origin, "Sec-Fetch-Site": "same-origin"]
            ).status, 200)
        // A book's page shares our origin, but its images, styles and frames cannot reach the API.
        for destination in ["image", "style", "iframe", "document", "font"] {
            XCTAssertEqual(
                try http.send(
                    "GET", "/api/status",
                    headers: [
                        "X-Shelf-Session": session, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": destination
                    ]
                ).status,
                403, destination)
        }
        XCTAssertEqual(
            try http.send(
                "GET", "/api/status",
                headers: ["X-Shelf-Session": session, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": "empty"]
            ).status, 200)
    }

    func testEveryAnswerCarriesAStrictContentSecurityPolicy() throws {
        for path in ["/", "/api/status", "/no-such-page", "/open?key=x"] {
            let policy = try XCTUnwrap(try http.send("GET", path).header("content-security-policy"), path)
            XCTAssertTrue(policy.contains("default-src 'none'"), path)
            XCTAssertTrue(policy.contains("script-src 'self'"), path)
            XCTAssertTrue(policy.contains("frame-ancestors 'none'"), path)
            XCTAssertFalse(policy.contains("unsafe-inline") || policy.contains("unsafe-eval"), path)
            // The only other origins named are the books' own, which the reader frames.
            XCTAssertEqual(policy.components(separatedBy: "http").count, 2, path)
            XCTAssertTrue(policy.contains("frame-src 'self' http://*.localhost:*"), path)
        }
    }

    func testBookResourcesNeedNoSessionAreSandboxedAndReachNoAPI() throws {
        app.bookResources.mount("test") { path in .html("<p>\(path)</p>") }
        let url = app.bookResources.url("test", "OEBPS/chapter 1.xhtml")
        XCTAssertTrue(url.hasPrefix(app.bookResources.prefix))
        let page = try http.send("GET", url)
        XCTAssertEqual(page.status, 200, page.text)
        XCTAssertEqual(page.text, "<p>OEBPS/chapter 1.xhtml</p>", "no head: nothing added")
        let policy = try XCTUnwrap(page.header("content-security-policy"))
        XCTAssertTrue(
            policy.hasPrefix("sandbox allow-scripts;"), "an opaque origin: no storage, an Origin the API refuses")
        XCTAssertFalse(policy.contains("allow-same-origin"))
        XCTAssertTrue(policy.contains("script-src 'nonce-"), "the reader's script alone runs")
        XCTAssertTrue(policy.contains("connect-src 'none'"))
        // Another launch's path, and paths that climb out of the book, find nothing.
        XCTAssertEqual(try http.send("GET", "/book/" + String(repeating: "0", count: 64) + "/test/x").status, 404)
        XCTAssertEqual(try http.send("GET", "\(app.bookResources.prefix)/test/../../api/status").status, 404)
        XCTAssertEqual(try http.send("GET", "\(app.bookResources.prefix)/api/status").status, 404)
        // The token is only told to a browser with a session.
        XCTAssertEqual(try http.send("GET", "/api/session").status, 401)
        let session = try http.send("GET", "/api/session", headers: ["X-Shelf-Session": try signIn()])
        XCTAssertEqual(try session.json()["bookBase"] as? String, app.bookResources.prefix)
    }

    func testABodyTooLargeIsRefused() throws {
        let session = try signIn()
        let answer = try http.send(
            "POST", "/api/accounts", headers: ["X-Shelf-Session": session, "Origin": origin],
            body: Data(repeating: 0x20, count: (1 << 20) + 10))
        XCTAssertEqual(answer.status, 413)
        XCTAssertEqual(
            try answer.json()["title"] as? String, "The request is too large: this server takes at most 1.0 MB.")
    }
}

/// With `--listen`, a browser on another machine signs in with the password instead of the key.
final class PasswordTests: WebServerTestCase {
    override func configure(_ configuration: inout WebApp.Configuration) {
        configuration.password = "correct horse"
    }

    func testThePasswordGivesASessionAndAWrongOneDoesNot() throws {
        let form = ["Origin": origin, "Content-Type": "application/x-www-form-urlencoded"]
        let wrong = try http.send("POST", "/login", headers: form, body: Data("password=wrong".utf8))
        XCTAssertEqual(wrong.status, 403)
        XCTAssertNil(Self.sessionToken(in: wrong.text))
        XCTAssertTrue(wrong.text.contains("<h1>That is not this server’s password.</h1>"), wrong.text)
        XCTAssertTrue(wrong.text.contains(#"<a href="/login.html">Try again</a>"#), wrong.text)
        let foreign = try http.send(
            "POST", "/login", headers: ["Origin": "http://evil.example"], body: Data("password=correct+horse".utf8))
        XCTAssertEqual(foreign.status, 403)
        let right = try http.send("POST", "/login", headers: form, body: Data("password=correct+horse".utf8))
        XCTAssertEqual(right.status, 200)
        let session = try XCTUnwrap(Self.sessionToken(in: right.text))
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session]).status, 200)
    }
}

/// Each book's own origin serves that book alone, with the reader's script first and the book's only when allowed.
final class BookOriginTests: WebServerTestCase {
    func testABookOriginServesItsBookAndNothingElse() throws {
        app.bookOrigins.serve { id, href in
            guard href == "OEBPS/c1.xhtml" else { throw WebError(404, ReaderRequestProblem.notAResource(href: href)) }
            return BookOrigins.Resource(
                data: Data("<html><head><title>\(id)</title></head><body>page</body></html>".utf8),
                type: "application/xhtml+xml", scripted: true)
        }
        let origin = app.bookOrigins.origin(for: "urn:book:1", port: app.port)
        XCTAssertEqual(origin, app.bookOrigins.origin(for: "urn:book:1", port: app.port), "stable")
        XCTAssertNotEqual(origin, app.bookOrigins.origin(for: "urn:book:2", port: app.port), "one per book")
        let host = String(origin.dropFirst("http://".count))
        let page = try http.send("GET", "/OEBPS/c1.xhtml", headers: ["Host": host])
        XCTAssertEqual(page.status, 200)
        let policy = try XCTUnwrap(page.header("content-security-policy"))
        let nonce = try XCTUnwrap(
            policy.range(of: "'nonce-").map { String(policy[$0.upperBound...].prefix { $0 != "'" }) })
        XCTAssertTrue(
            page.text.hasPrefix(
                "<html><head><script nonce=\"\(nonce)\" crossorigin=\"anonymous\" src=\"/.shelf/reader/\(app.bookOrigins.scriptVersion)/in-book-start.js\"></script><title>"
            ), page.text)
        XCTAssertTrue(policy.contains("frame-ancestors 'self' "), policy)
        XCTAssertTrue(policy.contains("http://shelf.localhost:\(app.port)"), "the app may frame it")
        XCTAssertNil(page.header("x-frame-options"))
        // Allowed and declared scripted: the book's own scripts too.
        app.bookOrigins.allowScripts(true, for: "urn:book:1")
        let allowed = try XCTUnwrap(
            try http.send("GET", "/OEBPS/c1.xhtml", headers: ["Host": host]).header("content-security-policy"))
        XCTAssertTrue(allowed.contains("script-src 'self' 'unsafe-inline'"), allowed)
        // Nothing of the app on a book's origin, nothing else written, and a book not opened has no origin yet.
        let session = try signIn()
        for path in ["/api/status", "/", "/index.html", "/open?key=\(app.guardian.mintLaunchKey())"] {
            XCTAssertEqual(
                try http.send("GET", path, headers: ["Host": host, "X-Shelf-Session": session]).status, 404, path)
        }
        XCTAssertEqual(try http.send("POST", "/OEBPS/c1.xhtml", headers: ["Host": host, "Origin": origin]).status, 405)
        let script = try http.send(
            "GET", "/.shelf/reader/\(app.bookOrigins.scriptVersion)/in-book.js", headers: ["Host": host])
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(script.header("cache-control"), "max-age=31536000, immutable")
        XCTAssertEqual(
            try http.send("GET", "/.shelf/reader/in-book.js", headers: ["Host": host]).status, 404, "another version")
        XCTAssertEqual(
            try http.send(
                "GET", "/.shelf/reader/\(app.bookOrigins.scriptVersion)/../../index.html", headers: ["Host": host]
            ).status, 404)
        let unknown = BookOrigins.label(for: "urn:book:never-opened")
        XCTAssertEqual(
            try http.send("GET", "/OEBPS/c1.xhtml", headers: ["Host": "\(unknown).localhost:\(app.port)"]).status, 403)
        // And the book's origin is no origin of the app's API.
        XCTAssertEqual(
            try http.send("GET", "/api/status", headers: ["X-Shelf-Session": session, "Origin": origin]).status, 403)
    }
}
