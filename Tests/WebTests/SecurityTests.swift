import Foundation
import TestSupport
import Web
import XCTest

/// What keeps other sites, other hosts and book pages away from the patron's library.
final class SecurityTests: WebServerTestCase {
    func testTheAPIRefusesARequestWithoutTheSessionCookie() throws {
        let answer = try http.send("GET", "/api/status")
        XCTAssertEqual(answer.status, 401)
        XCTAssertEqual(try answer.json()["type"] as? String, "https://shelf.invalid/problems/no-session")
    }

    func testTheLaunchKeyBecomesAnHttpOnlyStrictCookieAndLeavesTheAddress() throws {
        let answer = try http.send("GET", "/open?key=\(app.guardian.secret)")
        XCTAssertEqual(answer.status, 303)
        XCTAssertEqual(answer.header("location"), "/")
        let cookie = try XCTUnwrap(answer.header("set-cookie"))
        XCTAssertTrue(cookie.hasPrefix("shelf_session="))
        XCTAssertTrue(cookie.contains("HttpOnly"))
        XCTAssertTrue(cookie.contains("SameSite=Strict"))
        XCTAssertFalse(cookie.contains(app.guardian.secret), "the cookie is not the key")
        let session = String(cookie.split(separator: ";")[0])
        XCTAssertEqual(try http.send("GET", "/api/session", headers: ["Cookie": session]).status, 200)
    }

    func testAWrongKeyOrAMadeUpCookieLetsNothingIn() throws {
        let wrong = try http.send("GET", "/open?key=" + String(repeating: "0", count: 64))
        XCTAssertEqual(wrong.status, 403)
        XCTAssertNil(wrong.header("set-cookie"))
        XCTAssertEqual(try http.send("GET", "/open").status, 403)
        let forged = try http.send("GET", "/api/status", headers: ["Cookie": "shelf_session=" + String(repeating: "a", count: 64)])
        XCTAssertEqual(forged.status, 401)
    }

    func testAnotherHostNameIsRefusedEvenWithTheCookie() throws {
        let cookie = try signIn()
        // DNS rebinding: a page at evil.example whose name now points at 127.0.0.1.
        for path in ["/api/status", "/", "/open?key=\(app.guardian.secret)"] {
            let answer = try http.send("GET", path, headers: ["Cookie": cookie, "Host": "evil.example:\(app.port)"])
            XCTAssertEqual(answer.status, 403, path)
            XCTAssertEqual(try answer.json()["type"] as? String, "https://shelf.invalid/problems/refused-host", path)
        }
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Host": "localhost:\(app.port)"]).status, 200)
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Host": "127.0.0.1:1"]).status, 403, "another port")
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Host": ""]).status, 403)
    }

    func testAForeignOriginCannotReadOrChangeAnything() throws {
        let cookie = try signIn()
        let foreign = try http.send("POST", "/api/sync", headers: ["Cookie": cookie, "Origin": "http://evil.example"])
        XCTAssertEqual(foreign.status, 403)
        XCTAssertEqual(try foreign.json()["type"] as? String, "https://shelf.invalid/problems/refused-origin")
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Origin": "http://evil.example"]).status, 403)
        XCTAssertEqual(try http.send("POST", "/api/sync", headers: ["Cookie": cookie]).status, 403, "a change without an Origin")
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Sec-Fetch-Site": "cross-site"]).status, 403)
        XCTAssertEqual(try http.send("POST", "/api/accounts/x/use", headers: ["Cookie": cookie, "Origin": "null"]).status, 403,
                       "a sandboxed page's opaque origin")
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Origin": origin, "Sec-Fetch-Site": "same-origin"]).status, 200)
        // A book's page shares our origin, but its images, styles and frames cannot reach the API.
        for destination in ["image", "style", "iframe", "document", "font"] {
            XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": destination]).status,
                           403, destination)
        }
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": "empty"]).status, 200)
    }

    func testEveryAnswerCarriesAStrictContentSecurityPolicy() throws {
        for path in ["/", "/api/status", "/no-such-page", "/open?key=x"] {
            let policy = try XCTUnwrap(try http.send("GET", path).header("content-security-policy"), path)
            XCTAssertTrue(policy.contains("default-src 'none'"), path)
            XCTAssertTrue(policy.contains("script-src 'self'"), path)
            XCTAssertTrue(policy.contains("frame-ancestors 'none'"), path)
            XCTAssertFalse(policy.contains("unsafe-inline") || policy.contains("unsafe-eval") || policy.contains("http"), path)
        }
    }

    func testBookResourcesNeedNoCookieAreSandboxedAndReachNoAPI() throws {
        app.bookResources.mount("test") { path in .html("<p>\(path)</p>") }
        let url = app.bookResources.url("test", "OEBPS/chapter 1.xhtml")
        XCTAssertTrue(url.hasPrefix(app.bookResources.prefix))
        let page = try http.send("GET", url)
        XCTAssertEqual(page.status, 200, page.text)
        XCTAssertEqual(page.text, "<p>OEBPS/chapter 1.xhtml</p>")
        let policy = try XCTUnwrap(page.header("content-security-policy"))
        XCTAssertTrue(policy.hasPrefix("sandbox allow-same-origin;"), "scripts off (the reader lays the page out in our origin)")
        XCTAssertFalse(policy.contains("allow-scripts") || policy.contains("script-src"), "a book's script never runs")
        XCTAssertTrue(policy.contains("connect-src 'none'"))
        // Another launch's path, and paths that climb out of the book, find nothing.
        XCTAssertEqual(try http.send("GET", "/book/" + String(repeating: "0", count: 64) + "/test/x").status, 404)
        XCTAssertEqual(try http.send("GET", "\(app.bookResources.prefix)/test/../../api/status").status, 404)
        XCTAssertEqual(try http.send("GET", "\(app.bookResources.prefix)/api/status").status, 404)
        // The token is only told to a browser with a session.
        XCTAssertEqual(try http.send("GET", "/api/session").status, 401)
        let session = try http.send("GET", "/api/session", headers: ["Cookie": try signIn()])
        XCTAssertEqual(try session.json()["bookBase"] as? String, app.bookResources.prefix)
    }

    func testABodyTooLargeIsRefused() throws {
        let cookie = try signIn()
        let answer = try http.send("POST", "/api/accounts", headers: ["Cookie": cookie, "Origin": origin],
                                   body: Data(repeating: 0x20, count: (1 << 20) + 10))
        XCTAssertEqual(answer.status, 413)
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
        XCTAssertNil(wrong.header("set-cookie"))
        let foreign = try http.send("POST", "/login", headers: ["Origin": "http://evil.example"], body: Data("password=correct+horse".utf8))
        XCTAssertEqual(foreign.status, 403)
        let right = try http.send("POST", "/login", headers: form, body: Data("password=correct+horse".utf8))
        XCTAssertEqual(right.status, 303)
        let cookie = String(try XCTUnwrap(right.header("set-cookie")).split(separator: ";")[0])
        XCTAssertEqual(try http.send("GET", "/api/status", headers: ["Cookie": cookie]).status, 200)
    }
}
