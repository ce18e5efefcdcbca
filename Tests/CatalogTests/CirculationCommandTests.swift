import Foundation
import TestSupport
import XCTest

/// The commands of issue 5 run as a patron runs them: the built `shelf` against the fake library on loopback
/// (`LibraryTestCase` in TestSupport gives each test a library and a shelf home of its own).
final class CirculationCommandTests: LibraryTestCase {
    var credentialsPath: String { shelf.home.appendingPathComponent("config/credentials.json").path }

    // MARK: Accounts and sign-in

    func testAccountAddShowsSignUpAndSignInWays() throws {
        let added = try run(["account", "add", library.root, "--name", "fake"])
        XCTAssertTrue(added.stdout.contains("Sign up for a library card: https://example.org/get-a-card"), added.stdout)
        XCTAssertTrue(added.stdout.contains("library card and PIN"), added.stdout)
        let list = try XCTUnwrap(try run(["account", "list", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(list.first?["id"] as? String, "fake")
        XCTAssertEqual(list.first?["shelf"] as? String, library.url("/loans"))
        XCTAssertEqual(list.first?["signedIn"] as? Bool, false)
        // The authentication document's address works as well as the catalog's.
        let byAuth = try json(run(["account", "add", library.url("/auth"), "--name", "second", "--json"]))
        XCTAssertEqual(byAuth["catalog"] as? String, library.root)
        try run(["account", "use", "second"])
        try run(["account", "remove", "second"])
        XCTAssertEqual(try XCTUnwrap(try run(["account", "list", "--json"]).json() as? [[String: Any]]).count, 1)
    }

    func testWrongPINIsRefusedAndNothingIsStored() throws {
        try run(["account", "add", library.root, "--name", "fake"])
        let wrong = try run(["login", "--username", library.username, "--password-stdin"], stdin: "nope\n", expect: 77)
        XCTAssertTrue(wrong.stderr.contains("did not accept"), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("Sign up for a library card"), wrong.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: credentialsPath))
        // A password in the arguments is refused outright.
        try run(["login", "--username", "x", "--password", "secret"], expect: 64)
    }

    func testCredentialsAreStored0600AndNeverPrinted() throws {
        try run(["account", "add", library.root, "--name", "fake"])
        let login = try run(
            ["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: credentialsPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let stored = try String(contentsOfFile: credentialsPath, encoding: .utf8)
        XCTAssertTrue(stored.contains("access_token") == false && stored.contains("token"), "the token is kept")
        var outputs = [login]
        outputs.append(try run(["account", "list"]))
        outputs.append(try run(["account", "list", "--json"]))
        outputs.append(try run(["browse", "--json"]))
        outputs.append(try run(["sync", "--json"]))
        let token = try XCTUnwrap(library.tokens.first)
        for output in outputs {
            for secret in [library.password, token] {
                XCTAssertFalse(output.stdout.contains(secret) || output.stderr.contains(secret), "a secret was printed")
            }
        }
        try run(["logout"])
        XCTAssertFalse(try String(contentsOfFile: credentialsPath, encoding: .utf8).contains(library.password))
    }

    func testBorrowWithoutSigningInAsksForLogin() throws {
        try run(["account", "add", library.root, "--name", "fake"])
        try run(["browse"])
        let result = try run(["borrow", "urn:fake:ebook-free"], expect: 77)
        XCTAssertTrue(result.stderr.contains("shelf login fake"), result.stderr)
        XCTAssertFalse(library.onLoan("urn:fake:ebook-free"))
    }

    func testExpiredTokenIsExchangedAgainAfter401() throws {
        try addAndLogin()
        try run(["browse"])
        // The server forgets every token: the next request gets 401 and shelf exchanges the card and PIN again.
        library.forgetTokens()
        try run(["borrow", "urn:fake:ebook-free"])
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
    }

    // MARK: Browsing and searching

    func testBrowseByFormatTabKeepsTheTabForSearch() throws {
        try addAndLogin()
        let all = try run(["browse"])
        XCTAssertTrue(all.stdout.contains("[All]"), all.stdout)
        XCTAssertTrue(all.stdout.contains("Sound of Rivers") && all.stdout.contains("The Open Road"), all.stdout)
        XCTAssertTrue(all.stdout.contains("Audiobook · 1 of 2 copies available"), all.stdout)
        XCTAssertTrue(all.stdout.contains("eBook · 0 of 1 copy available, 2 waiting"), all.stdout)

        let audio = try json(run(["browse", "--format", "audiobook", "--json"]))
        let titles = (audio["entries"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        XCTAssertEqual(titles, ["Sound of Rivers"])
        XCTAssertEqual(audio["format"] as? String, "Audiobooks")
        XCTAssertTrue(library.server.requests(to: "/catalog").contains { $0.queryItems["entrypoint"] == "Audio" })

        // The tab stays selected: a search without --format looks in Audiobooks only.
        let search = try run(["catalog-search", "open"])
        XCTAssertTrue(search.stdout.contains("No results for “open” in Audiobooks"), search.stdout)
        XCTAssertTrue(library.server.requests(to: "/search").contains { $0.queryItems["entrypoint"] == "Audio" })
        let both = try run(["catalog-search", "open", "--format", "all"])
        XCTAssertTrue(both.stdout.contains("The Open Road") && both.stdout.contains("Open Classic"), both.stdout)
        XCTAssertTrue(both.stdout.contains("eBook"), both.stdout)
        let ebooks = try json(run(["browse", "--format", "ebook", "--json"]))
        XCTAssertTrue((ebooks["entries"] as? [[String: Any]] ?? []).allSatisfy { $0["format"] as? String == "eBook" })
        let none = try run(["catalog-search", "zzzz-nothing"])
        XCTAssertEqual(
            none.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            "No results for “zzzz-nothing” in eBooks. Every format: `shelf catalog-search zzzz-nothing --format all`.")
    }

    func testAvailableFilterAndBookDetails() throws {
        try addAndLogin()
        let available = try json(run(["browse", "--available", "--json"]))
        let titles = Set((available["entries"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
        XCTAssertFalse(titles.contains("Waiting Game"))
        XCTAssertTrue(titles.contains("The Open Road"))
        let book = try run(["book", "ebook-out"])
        XCTAssertTrue(book.stdout.contains("Format:       eBook"), book.stdout)
        XCTAssertTrue(book.stdout.contains("Central Library") && book.stdout.contains("Eastside Branch"), book.stdout)
        XCTAssertTrue(book.stdout.contains("shelf reserve urn:fake:ebook-out"), book.stdout)
        // The heading over the branches names this title's command (the host's words), not "ID".
        XCTAssertTrue(
            book.stdout.contains("Physical copies (shelf reserve urn:fake:ebook-out --branch NAME):"), book.stdout)
        // Two holds named at once is the parser's usage error for options that exclude each other.
        let both = try run(["cancel-hold", "urn:fake:ebook-out", "--digital", "--branch", "Central"], expect: 64)
        XCTAssertTrue(both.stderr.contains("give only one of --branch and --digital"), both.stderr)
        // "fake" is part of every ID: ambiguous.
        try run(["book", "fake"], expect: 64)
    }

    // MARK: Circulation

    func testBorrowAvailableGivesALoanThenDownloadAndReturn() throws {
        try addAndLogin()
        try run(["browse"])
        let borrowed = try json(run(["borrow", "urn:fake:ebook-free", "--json"]))
        XCTAssertEqual(borrowed["result"] as? String, "loaned")
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        let loans = try run(["loans"])
        XCTAssertTrue(
            loans.stdout.contains("The Open Road") && loans.stdout.contains("on loan until Jan 22, 2099"), loans.stdout)

        let download = try json(run(["download", "ebook-free", "--json"]))
        let path = try XCTUnwrap(download["path"] as? String)
        XCTAssertTrue(path.hasPrefix(shelf.home.appendingPathComponent("data").path), path)
        XCTAssertEqual(FileManager.default.contents(atPath: path), library.epub)

        try run(["return", "urn:fake:ebook-free"])
        XCTAssertFalse(library.onLoan("urn:fake:ebook-free"))
        XCTAssertTrue(try run(["loans"]).stdout.contains("No loans"))
    }

    func testBorrowUnavailableIsRefusedWithTheOfferToReserveAndPlacesNoHold() throws {
        try addAndLogin()
        try run(["browse"])
        let refused = try run(["borrow", "urn:fake:ebook-out"], expect: 69)
        XCTAssertTrue(refused.stdout.contains("is available right now"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("no hold was placed"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("shelf reserve urn:fake:ebook-out"), refused.stdout)
        XCTAssertTrue(
            library.server.requests(to: "/works/ebook-out/borrow").isEmpty,
            "borrow must not touch the hold-placing link")
        XCTAssertNil(library.holdPosition("urn:fake:ebook-out"))
        XCTAssertTrue(try run(["holds"]).stdout.contains("No reservations"))
    }

    func testBorrowCancelsAHoldTheServerPlacedAnyway() throws {
        try addAndLogin()
        try run(["browse"])
        // The catalog said a copy was free; by the time the patron borrows, the last one went.
        library.takeAllCopies("urn:fake:audio-free")
        library.serveStaleEntries = true
        let refused = try run(["borrow", "urn:fake:audio-free"], expect: 69)
        XCTAssertTrue(refused.stdout.contains("shelf cancelled it"), refused.stdout)
        XCTAssertNil(library.holdPosition("urn:fake:audio-free"))
    }

    func testReserveGivesAHoldWithPositionAndReadyHoldsComeFirst() throws {
        try addAndLogin()
        try run(["browse"])
        let reserved = try json(run(["reserve", "urn:fake:ebook-out", "--json"]))
        XCTAssertEqual(reserved["result"] as? String, "reserved")
        XCTAssertTrue((reserved["message"] as? String ?? "").contains("on hold, position 3 of 3"), "\(reserved)")
        XCTAssertEqual(library.holdPosition("urn:fake:ebook-out"), 3)
        // Reserving what can be borrowed now reserves nothing.
        let free = try run(["reserve", "urn:fake:ebook-free"], expect: 69)
        XCTAssertTrue(free.stdout.contains("nothing was reserved"), free.stdout)

        // A physical copy at a branch.
        try run(["reserve", "urn:fake:audio-free", "--branch", "Central"], expect: 64)  // that title has no branches
        library.makeHoldReady("urn:fake:ebook-out")
        try run(["sync"])
        let holds = try run(["holds"])
        XCTAssertTrue(holds.stdout.contains("1 ready to borrow"), holds.stdout)
        XCTAssertTrue(holds.stdout.contains("ready to borrow until Feb 1, 2099"), holds.stdout)
        try run(["borrow", "urn:fake:ebook-out"])
        XCTAssertTrue(library.onLoan("urn:fake:ebook-out"))
        XCTAssertTrue(try run(["holds"]).stdout.contains("No reservations"))
        // Cancel a hold.
        library.takeAllCopies("urn:fake:audio-free")
        try run(["browse"])
        try run(["reserve", "urn:fake:audio-free"])
        try run(["cancel-hold", "urn:fake:audio-free"])
        XCTAssertNil(library.holdPosition("urn:fake:audio-free"))
    }

    func testBranchHold() throws {
        try addAndLogin()
        try run(["browse"])
        let placed = try run(["reserve", "urn:fake:ebook-out", "--branch", "eastside branch"])
        XCTAssertTrue(placed.stdout.contains("at Eastside Branch"), placed.stdout)
        XCTAssertEqual(
            library.server.requests(to: "/works/ebook-out/hold").last?.queryItems["branch"], "Eastside Branch")
        XCTAssertTrue(try run(["holds"]).stdout.contains("Physical copy at Eastside Branch"))
    }

    func testSyncFailuresNeverLoseLoans() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["borrow", "urn:fake:audio-free"])
        try run(["sync"])
        XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 2)
        let faults: [LoopbackHTTPServer.Response] = [
            .text("boom", status: 500),
            .text("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>", contentType: "application/atom+xml"),
            .text(String(repeating: "x", count: 100), contentType: "application/atom+xml").with(
                fault: .truncateBody(after: 10)),
            .dropConnection,
            .text(
                #"{"type": "x", "title": "Service unavailable", "status": 503, "detail": "The ILS is down."}"#,
                status: 503,
                contentType: "application/api-problem+json")
        ]
        for fault in faults {
            library.loansFault = fault
            let failed = try shelf.run(["sync"])
            XCTAssertNotEqual(failed.status, 0, failed.stdout)
            XCTAssertTrue([65, 69, 75].contains(failed.status), "exit \(failed.status): \(failed.stderr)")
            XCTAssertEqual(
                try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 2,
                "loans lost after \(fault.status)")
        }
        library.loansFault = faults.last
        XCTAssertTrue(try shelf.run(["sync"]).stderr.contains("Service unavailable: The ILS is down."))
        library.loansFault = nil
        try run(["sync"])
        XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 2)
    }

    func testTwoSyncsAtOnceBothSucceed() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        let group = DispatchGroup()
        final class Box: @unchecked Sendable { var results: [ShelfProcess.Result] = []; let lock = NSLock() }
        let box = Box()
        let process = shelf!
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                if let result = try? process.run(["sync"]) { box.lock.withLock { box.results.append(result) } }
            }
        }
        group.wait()
        XCTAssertEqual(box.results.count, 2)
        for result in box.results { XCTAssertEqual(result.status, 0, result.stderr) }
        XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 1)
    }

    func testProblemDetailsAreShownInWords() throws {
        try addAndLogin()
        try run(["browse"])
        // Six loans: the fake library's limit is five.
        library.addMany(6)
        try run(["browse"])
        for index in 0..<5 { try run(["borrow", "urn:fake:many-\(index)"]) }
        let refused = try run(["borrow", "urn:fake:many-5"], expect: 69)
        XCTAssertTrue(refused.stderr.contains("Loan limit reached: You have reached your loan limit."), refused.stderr)
    }

    func testOpenAccessDownloadNeedsNoLoan() throws {
        try run(["account", "add", library.root, "--name", "fake"])
        try run(["browse"])
        let result = try run(["download", "classic"])
        XCTAssertTrue(result.stdout.contains("Downloaded “Open Classic”"), result.stdout)
    }
}

/// Downloads through bearer-token documents and DRM that shelf names and keeps; static catalogs on disk.
final class FulfilmentAndStaticCatalogTests: LibraryTestCase {
    func testBearerTokenFulfilment() throws {
        library.add(
            FakeLibrary.Book(
                id: "urn:fake:bearer", title: "Token Tale", author: "Fay Key", audiobook: false,
                copies: 1, available: 1, fulfilment: "bearer"))
        library.addMany(0)
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:bearer"])
        let download = try json(run(["download", "bearer", "--json"]))
        XCTAssertEqual(download["supported"] as? Bool, true)
        XCTAssertEqual(FileManager.default.contents(atPath: try XCTUnwrap(download["path"] as? String)), library.epub)
        XCTAssertEqual(
            library.server.requests(to: "/files/bearer.epub").last?.header("Authorization"), "Bearer doc-token-bearer")
    }

    func testAdobeDRMIsNamedAndTheFileKept() throws {
        library.add(
            FakeLibrary.Book(
                id: "urn:fake:adobe", title: "Locked Book", author: "Gus Lock", audiobook: false,
                copies: 1, available: 1, fulfilment: "acsm"))
        library.addMany(0)
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:adobe"])
        let result = try run(["download", "adobe"], expect: 69)
        XCTAssertTrue(result.stdout.contains("Adobe DRM (ACSM)"), result.stdout)
        let path = try XCTUnwrap(
            result.stdout.components(separatedBy: "kept at ").last?.components(separatedBy: " for").first)
        XCTAssertTrue(path.hasSuffix(".acsm") && FileManager.default.fileExists(atPath: path), path)
    }

    func testStaticCatalogOnDiskWithPagesAndFacetsNeedsNoAccount() throws {
        let folder = shelf.home.appendingPathComponent("static-catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try library.epub.write(to: folder.appendingPathComponent("one.epub"))
        func page(_ number: Int, entries: [(String, String)], next: String?) -> String {
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
              <id>static-\(number)</id><title>Static shelf, page \(number)</title>
              \(next.map { #"<link rel="next" href="\#($0)"/>"# } ?? "")
              <link rel="http://opds-spec.org/facet" href="by-author.xml" title="Author" opds:facetGroup="Sort by"/>
              <link rel="http://opds-spec.org/facet" href="catalog.xml" title="Title" opds:facetGroup="Sort by" opds:activeFacet="true"/>
              \(entries.map { id, title in """
                <entry><id>\(id)</id><title>\(title)</title><author><name>Local Author</name></author>
                <link rel="http://opds-spec.org/acquisition/open-access" type="application/epub+zip" href="one.epub"/></entry>
                """ }.joined(separator: "\n"))
            </feed>
            """
        }
        try page(1, entries: [("static:a", "Alpha"), ("static:b", "Beta")], next: "page2.xml")
            .write(to: folder.appendingPathComponent("catalog.xml"), atomically: true, encoding: .utf8)
        try page(2, entries: [("static:c", "Gamma")], next: nil).write(
            to: folder.appendingPathComponent("page2.xml"), atomically: true, encoding: .utf8)
        try page(1, entries: [("static:b", "Beta"), ("static:a", "Alpha")], next: nil)
            .write(to: folder.appendingPathComponent("by-author.xml"), atomically: true, encoding: .utf8)

        let first = try run(["browse", folder.path])
        XCTAssertTrue(first.stdout.contains("Alpha") && first.stdout.contains("--page 2"), first.stdout)
        XCTAssertTrue(first.stdout.contains("Sort by: Author, [Title]"), first.stdout)
        let second = try json(
            run(["browse", "file://" + folder.appendingPathComponent("catalog.xml").path, "--page", "2", "--json"]))
        XCTAssertEqual((second["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["Gamma"])
        try run(["browse", folder.path, "--page", "3"], expect: 66)
        let sorted = try json(run(["browse", folder.path, "--facet", "Sort by=Author", "--json"]))
        XCTAssertEqual(
            (sorted["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["Beta", "Alpha"])
        try run(["browse", folder.path, "--facet", "Colour=Red"], expect: 64)
        let download = try json(run(["download", "static:c", "--json"]))
        XCTAssertEqual(FileManager.default.contents(atPath: try XCTUnwrap(download["path"] as? String)), library.epub)
        try run(["browse", folder.appendingPathComponent("missing.xml").path], expect: 66)
    }

    func testKillDuringSyncLeavesAnIntactDatabase() throws {
        try addAndLogin()
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["sync"])
        library.loansFault = .text("<feed/>", contentType: "application/atom+xml").with(
            fault: .stallBody(after: 3, seconds: 5))
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = ["sync"]
        process.environment = shelf.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        library.loansFault = nil
        XCTAssertEqual(try XCTUnwrap(try run(["loans", "--json"]).json() as? [Any]).count, 1)
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "sqlite3", shelf.home.appendingPathComponent("data/library.sqlite3").path, "PRAGMA integrity_check"
        ]
        let out = Pipe()
        check.standardOutput = out
        if (try? check.run()) != nil {
            check.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if check.terminationStatus == 0 {
                XCTAssertEqual(text.trimmingCharacters(in: .whitespacesAndNewlines), "ok")
            }
        }
        try run(["sync"])
    }
}

/// Corpus feeds served over HTTP with validators; browser (OAuth implicit) sign-in.
final class ServedCorpusAndBrowserSignInTests: LibraryTestCase {
    func testCorpusFeedServedWithConditionalRequests() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("opds/opds1") else {
            throw XCTSkip("../shared/corpus is absent")
        }
        library.server.serveFiles(from: corpus, at: "/corpus/")
        let address = library.url("/corpus/palace-a1qa-groups-20260605.xml")
        let first = try run(["browse", address])
        XCTAssertTrue(first.stdout.contains("Formats: [All]  eBooks  Audiobooks"), first.stdout)
        XCTAssertTrue(first.stdout.contains("Audiobook · 5 of 5 copies available"), first.stdout)
        let second = try run(["browse", address])
        XCTAssertEqual(first.stdout, second.stdout)
        let requests = library.server.requests(to: "/corpus/palace-a1qa-groups-20260605.xml")
        XCTAssertEqual(requests.count, 2)
        XCTAssertNotNil(requests.last?.header("If-None-Match"), "the second fetch is conditional")
        // A corpus feed that is not XML is refused with the reason and exit 65.
        let bad = try run(["browse", library.url("/corpus/bad-not-xml.xml")], expect: 65)
        XCTAssertTrue(bad.stderr.contains("neither XML nor JSON"), bad.stderr)
    }

    func testBrowserSignInPrintsTheAddressAndTakesTheTokenBack() throws {
        let auth = """
            {"id": "x", "title": "Web Sign-in Library",
             "links": [{"rel": "start", "href": "\(library.root)"}, {"rel": "http://opds-spec.org/shelf", "href": "\(library.url("/web-loans"))"}],
             "authentication": [{"type": "http://opds-spec.org/auth/oauth/implicit",
               "links": [{"rel": "authenticate", "href": "https://idp.example/authorize?client=shelf"}]}]}
            """
        library.server.route("GET", "/web-auth", .text(auth, contentType: "application/opds-authentication+json"))
        library.server.route("GET", "/web-loans") { request in
            guard request.header("Authorization") == "Bearer browser-token-1" else { return .status(401) }
            return .text(
                #"<feed xmlns="http://www.w3.org/2005/Atom"><id>l</id><title>Loans</title></feed>"#,
                contentType: "application/atom+xml")
        }
        try run(["account", "add", library.url("/web-auth"), "--name", "web"])
        let login = try run(
            ["login", "web"], stdin: "opds://authorize/?id=x&access_token=browser-token-1&token_type=bearer\n")
        XCTAssertTrue(
            login.stderr.contains("https://idp.example/authorize?client=shelf&redirect_uri=opds://authorize/"),
            login.stderr)
        XCTAssertFalse(login.stdout.contains("browser-token-1") || login.stderr.contains("browser-token-1"))
        try run(["sync", "--account", "web"])
        try run(["logout", "web"])
        try run(["sync", "--account", "web"], expect: 77)
    }
}
