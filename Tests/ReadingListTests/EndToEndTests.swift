import Foundation
import TestSupport
import XCTest
@testable import ReadingListFakes

/// The whole flows through the built `shelf`, as a patron runs them: connect, sign in through a "browser" that
/// follows the redirects, pull, finish a book, push once, and the wish list against the fake library.
final class EndToEndTests: ShelfTestCase {
    let samples = ShelfProcess.packageRoot.appendingPathComponent("samples")

    override func setUpWithError() throws {
        try super.setUpWithError()
        shelf.environment["SHELF_HTTP_TIMEOUT"] = nil
        // The patron's browser: follows the sign-in page's redirects to shelf's loopback listener.
        let browser = shelf.home.appendingPathComponent("browser.sh")
        try "#!/bin/sh\ncurl -s -L --max-time 20 \"$1\" > /dev/null &\n".write(
            to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o755)
        shelf.environment["SHELF_BROWSER"] = browser.path
    }

    func export() throws -> String {
        let text =
            "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,"
            + "Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,"
            + "Spoiler,Private Notes,Read Count,Owned Copies\n"
            + "386372,\"Mort (Discworld, #4; Death, #1)\",Terry Pratchett,\"Pratchett, Terry\",,\"=\"\"0061020680\"\"\",\"=\"\"9780061020681\"\"\",5,4.24,"
            + "Harpertorch,Mass Market Paperback,243,2001,1987,2020/11/01,2020/11/27,\"audio, fiction\",\"audio (#165)\",read,\"Fun.<br/>\nTwo lines.\",,,2,0\n"
            + "41795733,Range: Why Generalists Triumph in a Specialized World,David   Epstein,\"Epstein, David\",,\"=\"\"0735214484\"\"\","
            + "\"=\"\"9780735214484\"\"\",0,4.16,Riverhead Books,Hardcover,352,2019,2019,,2020/12/13,to-read,to-read (#1),to-read,,,,0,0\n"
        let path = shelf.home.appendingPathComponent("goodreads_library_export.csv")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    // MARK: Goodreads export, finished book, push to the import file once

    func testGoodreadsExportPullShowFinishedAndPushOnce() throws {
        try run(["lists", "connect", "goodreads", "--set", "file=\(try export())"])
        let pulled = try json(run(["lists", "pull", "--json"]))
        let first = try XCTUnwrap((pulled["pulled"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["entries"] as? Int, 2)
        XCTAssertEqual(first["newWishes"] as? Int, 1)
        let show = try run(["lists", "show", "--shelf", "read"])
        XCTAssertTrue(
            show.stdout.contains(
                "Mort (Discworld, #4; Death, #1) — by Terry Pratchett · read 2020-11-01 · rated 5 of 5 · ISBN 9780061020681"
            ), show.stdout)
        XCTAssertFalse(show.stdout.contains("Range"))
        let entries = try XCTUnwrap(try json(run(["lists", "show", "--json"]))["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(
            (entries.first { ($0["title"] as? String)?.hasPrefix("Range") == true }?["authors"] as? [String]),
            ["David Epstein"])

        let book = samples.appendingPathComponent("the-lighthouse-keeper.epub").path
        let finished = try json(run(["finished", book, "--isbn", "978-0-306-40615-7", "--json"]))
        XCTAssertEqual(finished["title"] as? String, "The Lighthouse Keeper")
        XCTAssertEqual(finished["queued"] as? [String], ["goodreads"])
        XCTAssertEqual(
            try json(run(["finished", book, "--isbn", "9780306406157", "--json"]))["alreadyQueued"] as? [String],
            ["goodreads"])

        let pushed = try json(run(["lists", "push", "--json"]))
        let report = try XCTUnwrap((pushed["pushed"] as? [[String: Any]])?.first)
        XCTAssertEqual(report["outcome"] as? String, "exported")
        let file = try XCTUnwrap(report["file"] as? String)
        let csv = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(csv.contains(",The Lighthouse Keeper,"), csv)
        XCTAssertTrue(csv.contains("=\"\"9780306406157\"\""), csv)
        let again = try run(["lists", "push"])
        XCTAssertTrue(again.stdout.contains("Nothing to push"), again.stdout)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), csv, "pushing twice never duplicates")
        let human = try run(["lists", "services"])
        XCTAssertTrue(human.stdout.contains("goodreads (org.shelf.goodreads): pulled"), human.stdout)
    }

    // MARK: Google Books: OAuth with PKCE, refresh, 429, push once

    func testGoogleBooksSignInPullRefreshAndPushOnce() throws {
        let google = try FakeGoogleBooks(corpus: Corpus.root)
        defer { google.stop() }
        google.put(["gen001", "gen002"], on: 4)
        google.put((10..<55).map { String(format: "gen%03d", $0 % 45) }.uniqued(), on: 2)
        let connected = try json(
            run([
                "lists", "connect", "google-books", "--set", "clientId=test-client.apps.googleusercontent.com",
                "--set", "baseURL=\(google.base)", "--set", "authURL=\(google.authURL)",
                "--set", "tokenURL=\(google.tokenURL)", "--authorize", "--json"
            ]))
        XCTAssertEqual(connected["authorized"] as? Bool, true)
        XCTAssertEqual(google.verifiedPKCE, 1, "the token endpoint checked code_verifier against the S256 challenge")
        // Tokens are in the 0600 credentials file, never in the database or the output.
        let credentials = shelf.home.appendingPathComponent("config/credentials.json").path
        XCTAssertTrue(try String(contentsOfFile: credentials, encoding: .utf8).contains("refresh_token"))
        let mode = (try FileManager.default.attributesOfItem(atPath: credentials)[.posixPermissions] as? NSNumber)?
            .intValue
        XCTAssertEqual(mode, 0o600)

        google.throttleOnce = [2]
        let pulled = try json(run(["lists", "pull", "google-books", "--json"]))
        XCTAssertEqual(
            (pulled["pulled"] as? [[String: Any]])?.first?["entries"] as? Int, 45,
            "to-read and read, one entry per volume")
        XCTAssertEqual(
            google.server.requests(to: "/books/v1/mylibrary/bookshelves/2/volumes").count, 3, "a 429, then two pages")

        google.expireTokens()
        let again = try run(["lists", "pull", "google-books", "--json"])
        XCTAssertEqual(google.refreshes, 1, "a refused token is renewed with the refresh token, once")
        XCTAssertFalse(
            again.stdout.contains("at-") || again.stderr.contains("at-") || again.stderr.contains("rt-1"),
            "no token printed")

        let book = samples.appendingPathComponent("a-winter-crossing.epub").path
        try run(["finished", book, "--isbn", Corpus.root == nil ? "9780000000007" : "9780316452502"])
        let pushed = try json(run(["lists", "push", "--json"]))
        XCTAssertEqual((pushed["pushed"] as? [[String: Any]])?.first?["outcome"] as? String, "added")
        let volume = Corpus.root == nil ? "gen007" : "49T5twEACAAJ"
        XCTAssertTrue(google.ids(on: 4).contains(volume))
        try run(["finished", book, "--isbn", Corpus.root == nil ? "9780000000007" : "9780316452502"])
        try run(["lists", "push"])
        XCTAssertEqual(google.addVolumeCalls.filter { $0.1 == volume }.count, 1, "pushing twice never duplicates")
    }

    /// Disconnecting forgets the tokens: failed before (the refresh token stayed in credentials.json, so a patron who
    /// disconnected a service still had shelf holding a way into their account).
    func testDisconnectForgetsTheServicesTokens() throws {
        let google = try FakeGoogleBooks(corpus: nil)
        defer { google.stop() }
        try run([
            "lists", "connect", "google-books", "--set", "clientId=test-client.apps.googleusercontent.com",
            "--set", "baseURL=\(google.base)", "--set", "authURL=\(google.authURL)",
            "--set", "tokenURL=\(google.tokenURL)", "--authorize"
        ])
        let credentials = shelf.home.appendingPathComponent("config/credentials.json").path
        XCTAssertTrue(try String(contentsOfFile: credentials, encoding: .utf8).contains("refresh_token"))
        try run(["lists", "disconnect", "google-books"])
        let kept = try String(contentsOfFile: credentials, encoding: .utf8)
        XCTAssertFalse(kept.contains("googlebooks"), "a secret of the service is kept: \(kept)")
        let pull = try run(["lists", "pull", "google-books"], expect: 66)
        XCTAssertTrue(pull.stderr.contains("not connected"), pull.stderr)
    }

    /// Disconnect says what it did, in the host's words: failed before (“Disconnected nosuch.” for a service no plugin
    /// connects to, and “Disconnected goodreads.” for one never connected, both exit 0).
    func testDisconnectSaysWhatItDid() throws {
        try run(["lists", "connect", "goodreads", "--set", "file=\(try export())"])
        let done = try run(["lists", "disconnect", "goodreads"])
        XCTAssertEqual(done.stdout, "Disconnected Goodreads: its lists are no longer shown.\n")
        let again = try json(run(["lists", "disconnect", "goodreads", "--json"]))
        XCTAssertEqual(again["wasConnected"] as? Bool, false)
        XCTAssertEqual(again["message"] as? String, "Goodreads is not connected: there was nothing to disconnect.")
        let unknown = try run(["lists", "disconnect", "nosuch"], expect: 69)
        XCTAssertTrue(unknown.stderr.contains("no plugin connects to \"nosuch\""), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("goodreads"), "names the services there are: \(unknown.stderr)")
        XCTAssertEqual(unknown.stdout, "")
    }

    func testGoogleBooksRefusedSignInSaysSo() throws {
        let google = try FakeGoogleBooks(corpus: nil)
        defer { google.stop() }
        try run([
            "lists", "connect", "google-books", "--set", "clientId=x", "--set", "baseURL=\(google.base)",
            "--set", "tokenURL=\(google.tokenURL)"
        ])
        let result = try run(["lists", "pull", "google-books"], expect: 77)
        XCTAssertTrue(result.stderr.contains("shelf lists connect google-books"), result.stderr)
    }

    // MARK: Goodreads legacy API: OAuth 1.0a sign-in, signed pull and push

    func testGoodreadsLegacyKeySignInPullAndSignedPush() throws {
        guard let corpus = Corpus.root else {
            throw XCTSkip("../shared/corpus is absent: the fake Goodreads answers with its XML files")
        }
        let goodreads = try FakeGoodreads(corpus: corpus)
        defer { goodreads.stop() }
        let connected = try run(
            [
                "lists", "connect", "goodreads", "--set", "baseURL=\(goodreads.base)", "--secret", "apiKey",
                "--secret", "apiSecret", "--authorize"
            ], stdin: "\(goodreads.consumerKey)\n\(goodreads.consumerSecret)\n")
        XCTAssertTrue(connected.stdout.contains("signed in"), connected.stdout)
        XCTAssertFalse(
            connected.stdout.contains(goodreads.consumerSecret) || connected.stderr.contains(goodreads.consumerSecret))
        let pulled = try json(run(["lists", "pull", "--json"]))
        XCTAssertEqual((pulled["pulled"] as? [[String: Any]])?.first?["entries"] as? Int, 22)
        XCTAssertEqual(goodreads.badSignatures, 0)
        XCTAssertGreaterThan(
            goodreads.verified, 6, "request token, access token, auth_user and every list read were signed")

        try run([
            "finished", samples.appendingPathComponent("the-lighthouse-keeper.epub").path, "--isbn", "9780061020681"
        ])
        let pushed = try json(run(["lists", "push", "--json"]))
        XCTAssertEqual((pushed["pushed"] as? [[String: Any]])?.first?["outcome"] as? String, "added")
        XCTAssertEqual(goodreads.added.map(\.book), ["386372"])
        XCTAssertEqual(goodreads.added.map(\.shelf), ["read"])
        XCTAssertEqual(goodreads.badSignatures, 0)
    }

    // MARK: A connector in C, loaded without rebuilding shelf

    func testACConnectorOnTheHelperLibraryPullsThroughTheHostAndPassesConformance() throws {
        let directory = shelf.home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let library = directory.appendingPathComponent("libshelf-tsvlist.so")
        try CCompiler.examplePlugin("readinglist-plugin", output: library)
        shelf.environment["SHELF_PLUGIN_PATH"] = directory.path
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/list.tsv") { request in
            guard request.header("Authorization") == "Bearer tsv-token" else { return .text("no", status: 401) }
            return .text(
                "# isbn\ttitle\tauthor\tshelf\tread\trating\n9780061020681\tMort\tTerry Pratchett\tread\t2020-11-01\t5\n"
                    + "9780142402498\tPippi \"Longstocking\"\tAstrid Lindgren\tto-read\t\t\n\tNo ISBN\tAnon\tread\t\t9\n"
                    + "9780735214484\tRange\tDavid Epstein\tread\t2021-02-03\t4.5\n",
                contentType: "text/tab-separated-values")
        }
        try run(["lists", "connect", "tsv-list", "--set", "url=\(server.url("/list.tsv").absoluteString)"])
        let refused = try run(["lists", "pull", "tsv-list"], expect: 77)
        XCTAssertTrue(refused.stderr.contains("--secret token"), refused.stderr)
        try run(
            [
                "lists", "connect", "tsv-list", "--set", "url=\(server.url("/list.tsv").absoluteString)", "--secret",
                "token"
            ], stdin: "tsv-token\n")
        let pulled = try json(run(["lists", "pull", "tsv-list", "--json"]))
        XCTAssertEqual((pulled["pulled"] as? [[String: Any]])?.first?["entries"] as? Int, 4)
        let entries = try XCTUnwrap(
            try json(run(["lists", "show", "--service", "tsv-list", "--json"]))["entries"] as? [[String: Any]])
        let pippi = try XCTUnwrap(entries.first { $0["shelf"] as? String == "to-read" })
        XCTAssertEqual(pippi["title"] as? String, "Pippi \"Longstocking\"")
        XCTAssertEqual((pippi["identifiers"] as? [String: String])?["isbn13"], "9780142402498")
        XCTAssertEqual(entries.first { $0["title"] as? String == "Mort" }?["rating"] as? Int, 5)
        XCTAssertNil(entries.first { $0["title"] as? String == "No ISBN" }?["rating"])
        XCTAssertEqual(
            entries.first { $0["title"] as? String == "Range" }?["rating"] as? Double, 4.5,
            "half stars are ratings (readinglist.h)")
        let shown = try run(["lists", "show", "--service", "tsv-list"])
        XCTAssertTrue(
            shown.stdout.contains("Range — by David Epstein · read 2021-02-03 · rated 4.5 of 5"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("Mort — by Terry Pratchett · read 2020-11-01 · rated 5 of 5"), shown.stdout)

        let conformance = try json(run(["conformance", library.path, "--json"]))
        let results = try XCTUnwrap(conformance["results"] as? [[String: Any]])
        XCTAssertEqual(results.first { $0["check"] as? String == "connector" }?["status"] as? String, "passed")
        XCTAssertEqual(
            results.filter { $0["status"] as? String == "failed" || $0["status"] as? String == "crashed" }.count, 0)
    }

    func testBundledConnectorsPassConformance() throws {
        for library in ["libshelf-goodreads.so", "libshelf-googlebooks.so"] {
            let path = ShelfProcess.buildDirectory.appendingPathComponent(library).path
            let report = try json(run(["conformance", path, "--json"]))
            let results = try XCTUnwrap(report["results"] as? [[String: Any]])
            XCTAssertEqual(results.count, 24)
            for r in results {
                XCTAssertTrue(
                    ["passed", "skipped"].contains(r["status"] as? String ?? ""),
                    "\(library) \(r["check"] ?? ""): \(r["message"] ?? "")")
            }
            XCTAssertEqual(results.first { $0["check"] as? String == "connector" }?["status"] as? String, "passed")
        }
    }

    // MARK: The wish list against the fake library

    func testAWishedTitleIsAnnouncedOnceWhenACopyIsFree() throws {
        let library = try FakeLibrary()
        defer { library.stop() }
        library.add(
            .init(
                id: "urn:fake:range", title: "Range", author: "David Epstein", audiobook: false, copies: 1, available: 0
            ))
        try run(["account", "add", library.root, "--name", "fake"])
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        try run(["catalog-search", "Range"])
        try run(["lists", "connect", "goodreads", "--set", "file=\(try export())"])
        try run(["lists", "pull"])
        var wishes = try XCTUnwrap(try json(run(["wishlist", "--json"]))["wishes"] as? [[String: Any]])
        let range = try XCTUnwrap(wishes.first { ($0["title"] as? String)?.hasPrefix("Range") == true })
        XCTAssertEqual(range["entryId"] as? String, "urn:fake:range")
        XCTAssertEqual(range["matchedBy"] as? String, "title and author")
        XCTAssertEqual(range["available"] as? Bool, false)

        library.setAvailable("urn:fake:range", 1)
        // `shelf wishlist` asks the library again about the wished title itself (no catalog browse needed).
        let now = try run(["wishlist"])
        XCTAssertTrue(
            now.stdout.contains("Range is available to borrow now at Fake Public Library."), now.stdout + now.stderr)
        let later = try run(["wishlist"])
        XCTAssertFalse(later.stdout.contains("is available to borrow now"), "announced once: \(later.stdout)")
        wishes = try XCTUnwrap(try json(run(["wishlist", "--json"]))["wishes"] as? [[String: Any]])
        XCTAssertEqual(
            wishes.first { ($0["title"] as? String)?.hasPrefix("Range") == true }?["available"] as? Bool, true)

        // The notice is a notification too, once.
        let notes = try XCTUnwrap(try run(["notifications", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(notes.filter { $0["kind"] as? String == "wish-available" }.count, 1, "\(notes)")

        // A wish by ISBN that no catalog holds says so in words.
        let isbn = try run(["wish", "9780306406157"])
        XCTAssertTrue(isbn.stdout.contains("not in any library's catalog yet"), isbn.stdout)
    }
}

extension EndToEndTests {
    /// The issue's end to end: a wished title the library holds with no free copy; a copy comes free; `shelf sync`
    /// alone (no browsing) asks the library about the title and stores the notice as a notification, which
    /// `shelf notifications`, `shelf open-notification` (the book's details) and `shelf watch` see, once; it is
    /// withdrawn when the last copy goes again.
    func testSyncAnnouncesAFreedWishedTitleAsANotificationOnceAndWithdrawsIt() throws {
        let library = try FakeLibrary()
        defer { library.stop() }
        library.add(
            .init(
                id: "urn:fake:range", title: "Range", author: "David Epstein", audiobook: false, copies: 1,
                available: 0,
                holds: ["someone"]))
        try run(["account", "add", library.root, "--name", "fake"])
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        try run(["catalog-search", "Range"])
        try run(["wish", "Range", "--author", "David Epstein"])
        try run(["sync"])
        func wishNotes(all: Bool = false) throws -> [[String: Any]] {
            let list = try XCTUnwrap(
                try run(["notifications", "--json"] + (all ? ["--all"] : [])).json() as? [[String: Any]])
            return list.filter { $0["kind"] as? String == "wish-available" }
        }
        XCTAssertEqual(try wishNotes().count, 0, "no copy free: nothing to say")
        let before = library.server.requests(to: "/works/range").count

        // Someone returns the copy; the queue empties. Only `shelf sync` runs.
        library.add(
            .init(
                id: "urn:fake:range", title: "Range", author: "David Epstein", audiobook: false, copies: 1, available: 1
            ))
        try run(["sync"])
        XCTAssertEqual(
            library.server.requests(to: "/works/range").count, before + 1, "one GET of the wished entry's own link")
        var notes = try wishNotes()
        XCTAssertEqual(notes.count, 1, "\(notes)")
        let note = try XCTUnwrap(notes.first)
        XCTAssertEqual(note["text"] as? String, "Range is available to borrow now at Fake Public Library.")
        XCTAssertEqual(note["route"] as? String, "book:urn:fake:range")
        XCTAssertEqual(note["entryId"] as? String, "urn:fake:range")
        // Details are the library's of now (the stale "0 of 1" is gone).
        let details = try run(["book", "urn:fake:range"])
        XCTAssertTrue(
            details.stdout.contains("1 of 1 copy available") || details.stdout.contains("available"), details.stdout)
        XCTAssertFalse(details.stdout.contains("0 of 1"), details.stdout)

        // Once: another sync and a watch pass make nothing new.
        try run(["sync"])
        let watched = try json(run(["watch", "--once", "--json"]))
        XCTAssertEqual((watched["notifications"] as? [[String: Any]])?.count, 0, "\(watched)")
        notes = try wishNotes()
        XCTAssertEqual(notes.count, 1)
        let wishlist = try run(["wishlist"])
        XCTAssertFalse(wishlist.stdout.contains("is available to borrow now"), "announced once: \(wishlist.stdout)")

        // Opening it leads to the book's details.
        let id = try XCTUnwrap(note["id"] as? Int)
        let opened = try run(["open-notification", String(id)])
        XCTAssertTrue(opened.stdout.contains("Opening the book's details (book:urn:fake:range)"), opened.stdout)
        XCTAssertTrue(opened.stdout.contains("Range"), opened.stdout)

        // The copy goes again: the notice is withdrawn at the next sync; a failed refresh clears nothing.
        library.takeAllCopies("urn:fake:range")
        try run(["sync"])
        notes = try wishNotes(all: true)
        XCTAssertEqual(notes.count, 1)
        XCTAssertEqual(notes.first?["state"] as? String, "withdrawn", "\(notes)")

        // Free again: a new notice (the title became available again), made by a watch pass and shown by it.
        library.setAvailable("urn:fake:range", 1)
        let pass = try json(run(["watch", "--once", "--json"]))
        let made = try XCTUnwrap(pass["notifications"] as? [[String: Any]])
        XCTAssertEqual(made.map { $0["text"] as? String }, ["Range is available to borrow now at Fake Public Library."])
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
