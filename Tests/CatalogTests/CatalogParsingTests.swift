import Foundation
@testable import Host
@testable import ShelfLibrary
import TestSupport
import XCTest

/// OPDS 1 and 2 parsing, availability in words, acquisition paths, auth documents, and hostile input.
final class CatalogParsingTests: XCTestCase {
    let base = URL(string: "https://library.example/catalog/")!

    func parse(_ text: String, url: URL? = nil) throws -> CatalogFeed {
        try CatalogDocument.parse(Data(text.utf8), url: url ?? base)
    }

    func entry(_ links: String, extra: String = "") throws -> CatalogEntry {
        let feed = try parse(
            """
            <entry xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" \(extra)>
              <id>urn:x</id><title>X</title>\(links)</entry>
            """)
        return try XCTUnwrap(feed.entries.first)
    }

    // MARK: Availability in words

    func testAvailabilityWords() throws {
        let borrow = #"<link rel="http://opds-spec.org/acquisition/borrow" href="b" type="application/epub+zip">"#
        XCTAssertEqual(
            try entry(borrow + #"<opds:copies total="5" available="2"/></link>"#).availability.words,
            "2 of 5 copies available")
        XCTAssertEqual(
            try entry(borrow + #"<opds:availability status="available"/></link>"#).availability.words, "available")
        XCTAssertEqual(
            try entry(borrow + #"<opds:availability status="reserved"/><opds:holds total="12" position="3"/></link>"#)
                .availability.words,
            "on hold, position 3 of 12")
        XCTAssertEqual(
            try entry(borrow + #"<opds:availability status="ready" until="2026-12-03T10:00:00Z"/></link>"#).availability
                .words,
            "ready to borrow until Dec 3, 2026")
        XCTAssertEqual(
            try entry(borrow + #"<opds:copies total="1" available="0"/><opds:holds total="4"/></link>"#).availability
                .words,
            "0 of 1 copy available, 4 waiting")
        let loan = try entry(
            #"<link rel="http://opds-spec.org/acquisition" href="f" type="application/epub+zip"><opds:availability status="available" until="2027-01-02T00:00:00Z"/></link><link rel="http://librarysimplified.org/terms/rel/revoke" href="r"/>"#
        )
        XCTAssertEqual(loan.availability.words, "on loan until Jan 2, 2027")
        XCTAssertEqual(loan.revokeLink?.href, "https://library.example/catalog/r")
        XCTAssertEqual(
            try entry(
                #"<link rel="http://opds-spec.org/acquisition/open-access" href="f" type="application/epub+zip"/>"#
            ).availability.state, .openAccess)
    }

    func testCorpusAvailabilityEntries() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("opds/opds1") else {
            throw XCTSkip("../shared/corpus is absent")
        }
        func load(_ name: String) throws -> CatalogEntry {
            let url = corpus.appendingPathComponent(name)
            return try XCTUnwrap(try CatalogDocument.parse(Data(contentsOf: url), url: url).entries.first, name)
        }
        XCTAssertEqual(try load("entry-availability-holdable.xml").availability.state, .unavailable)
        XCTAssertEqual(try load("entry-availability-holdable.xml").availability.words, "0 of 1 copy available")
        XCTAssertEqual(try load("entry-availability-loanable.xml").availability.state, .available)
        XCTAssertEqual(try load("entry-availability-heldready.xml").availability.state, .ready)
        XCTAssertEqual(try load("entry-availability-held-indefinite-queued.xml").availability.state, .reserved)
        XCTAssertTrue(try load("entry-availability-held-indefinite-queued.xml").availability.words.hasPrefix("on hold"))
        XCTAssertEqual(try load("entry-availability-loaned-timed.xml").availability.state, .loaned)
        XCTAssertEqual(try load("entry-availability-open-access.xml").availability.state, .openAccess)
        // Bare entry fragments with undeclared prefixes still parse.
        XCTAssertEqual(try load("ios-acquisition-path-entry.xml").title, "The Melody Lingers On")
        // No acquisition path ends in a type shelf opens.
        let unsupported = try load("entry-no-supported-format.xml")
        XCTAssertFalse(unsupported.isSupported(by: ["application/epub+zip", "application/audiobook+json"]))
        let holdable = try load("entry-availability-holdable.xml")
        XCTAssertEqual(
            holdable.acquisitionPaths.map(\.types),
            [
                [
                    "application/atom+xml;relation=entry;profile=opds-catalog",
                    "application/vnd.adobe.adept+xml", "application/epub+zip"
                ]
            ])
        XCTAssertFalse(holdable.isSupported(by: ["application/epub+zip"]), "Adobe DRM needs a tool shelf does not have")
        XCTAssertEqual(holdable.acquisitionPaths.first?.protection, "Adobe DRM (ACSM)")
    }

    /// Every corpus feed parses (or, for the bad ones, is refused with a reason); entry counts match a plain count.
    func testEveryCorpusFeedParses() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("opds") else {
            throw XCTSkip("../shared/corpus is absent")
        }
        var parsed = 0
        for folder in ["opds1", "opds2"] {
            let dir = corpus.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                let url = dir.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                else { continue }
                let data = try Data(contentsOf: url)
                do {
                    let feed = try CatalogDocument.parse(data, url: url)
                    parsed += 1
                    if name == "bad-uri-syntax.xml" {
                        // The feed stays usable; the unusable link is dropped and reported.
                        XCTAssertFalse(feed.skipped.isEmpty, name)
                    } else {
                        XCTAssertFalse(name.hasPrefix("bad-"), "\(name) should have been refused")
                    }
                    if folder == "opds1" {
                        let text = String(decoding: data, as: UTF8.self)
                        let independent =
                            text.components(separatedBy: "<entry").count - 1
                            - text.components(separatedBy: "<entry/").count + 1
                        XCTAssertEqual(
                            feed.entries.count + feed.navigation.count
                                + (feed.kind == .entry ? 0 : 0), independent - skippedEntries(feed), name)
                    }
                } catch let error as ShelfError {
                    let refusedOK =
                        name.hasPrefix("bad-") || name.contains("bad-feed") || name == "adobe-token.xml"
                        || (folder == "opds2" && (name.hasPrefix("problem") || name.hasPrefix("palace-auth")))
                    XCTAssertTrue(refusedOK, "\(name): \(error)")
                    XCTAssertTrue(
                        error.message.contains("not a catalog") || error.message.contains("authentication"),
                        "\(name): \(error)")
                }
            }
        }
        XCTAssertGreaterThan(parsed, 60)
    }

    private func skippedEntries(_ feed: CatalogFeed) -> Int {
        feed.skipped.filter { $0.contains("neither id nor title") }.count
    }

    func testGroupsFacetsEntryPointsAndSearch() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("opds/opds1") else {
            throw XCTSkip("../shared/corpus is absent")
        }
        let url = corpus.appendingPathComponent("palace-a1qa-groups-20260605.xml")
        let feed = try CatalogDocument.parse(Data(contentsOf: url), url: url)
        XCTAssertEqual(feed.entryPoints.map(\.tab), [.all, .ebook, .audiobook])
        XCTAssertEqual(feed.activeTab, .all)
        XCTAssertFalse(feed.lanes.isEmpty)
        XCTAssertEqual(
            feed.lanes.reduce(0) { $0 + $1.entryIDs.count }, feed.entries.filter { $0.collectionLink != nil }.count)
        XCTAssertNotNil(feed.search)
        XCTAssertEqual(feed.shelf?.href, "https://gorgon.staging.palaceproject.io/a1qa-test/loans/")
        let paginated = corpus.appendingPathComponent("nypl-acquisition-paginated.xml")
        let page = try CatalogDocument.parse(Data(contentsOf: paginated), url: paginated)
        XCTAssertNotNil(page.next)
        XCTAssertEqual(Set(page.facetGroups.map(\.title)), ["Sort by", "Availability", "Collection"])
        let dpla = corpus.appendingPathComponent("dpla-test-feed.xml")
        XCTAssertEqual(try CatalogDocument.parse(Data(contentsOf: dpla), url: dpla).activeTab, .audiobook)
    }

    func testOpenSearchAndTemplates() throws {
        let osd = """
            <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/"><ShortName>S</ShortName>
            <Url type="text/html" template="https://x/html?q={searchTerms}"/>
            <Url type="application/atom+xml;profile=opds-catalog" template="/search?q={searchTerms}&amp;p={startPage?}"/>
            </OpenSearchDescription>
            """
        let description = try OpenSearchDescription.parse(Data(osd.utf8), url: URL(string: "https://lib.example/osd")!)
        XCTAssertEqual(
            SearchTemplate.fill(description.template, query: "war & peace"),
            "https://lib.example/search?q=war%20%26%20peace&p=")
        XCTAssertEqual(SearchTemplate.fill("https://x/s{?query}", query: "a b"), "https://x/s?query=a%20b")
        if let corpus = Corpus.root {
            let url = corpus.appendingPathComponent("opds/opensearch/openlibrary-opensearch.xml")
            XCTAssertTrue(
                try OpenSearchDescription.parse(Data(contentsOf: url), url: url).template.contains("{searchTerms}"))
        }
    }

    func testOPDS2FeedAndPublication() throws {
        let json = """
            {"metadata": {"title": "Two"}, "links": [{"rel": "search", "href": "/s{?query}", "templated": true},
              {"rel": "next", "href": "?page=2"}],
             "facets": [{"metadata": {"title": "Formats"}, "links": [
                {"title": "All", "href": "?entrypoint=All", "rel": "self"}, {"title": "Audiobooks", "href": "?entrypoint=Audio"}]}],
             "publications": [{"metadata": {"title": "P", "identifier": "urn:p", "@type": "http://schema.org/Audiobook", "author": [{"name": "A"}, "B"]},
               "links": [{"rel": "http://opds-spec.org/acquisition/borrow", "href": "/borrow", "type": "application/opds-publication+json",
                 "properties": {"availability": {"state": "unavailable"}, "holds": {"total": 3}, "copies": {"total": 1, "available": 0},
                 "indirectAcquisition": [{"type": "application/audiobook+json"}]}}]}]}
            """
        let feed = try parse(json)
        XCTAssertEqual(feed.entryPoints.map(\.tab), [.all, .audiobook])
        XCTAssertEqual(feed.search?.href, "https://library.example/s{?query}")
        let p = try XCTUnwrap(feed.entries.first)
        XCTAssertEqual(p.format, .audiobook)
        XCTAssertEqual(p.authors, ["A", "B"])
        XCTAssertEqual(p.availability.words, "0 of 1 copy available, 3 waiting")
        XCTAssertTrue(p.isSupported(by: ["application/audiobook+json"]))
    }

    // MARK: Hostile input

    func testHostileFeedsAreRefusedClearly() throws {
        func refused(_ text: String, _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try parse(text), file: file, line: line) { error in
                let shelfError = error as? ShelfError
                XCTAssertEqual(shelfError?.kind, .badData, file: file, line: line)
                XCTAssertTrue(shelfError?.message.contains(fragment) ?? false, "\(error)", file: file, line: line)
            }
        }
        refused("This is not XML.", "neither XML nor JSON")
        refused("", "empty")
        refused("<feed><entry></feed>", "not well-formed")
        refused(
            """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>&lol2;</title></feed>
            """, "entities")
        refused(
            """
            <?xml version="1.0"?><!DOCTYPE f [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed><title>&xxe;</title></feed>
            """, "entities")
        refused(String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000), "not")
        refused("{\"authentication\": []}", "authentication document")
        refused("<html><body>Sign in</body></html>", "<html>")
        refused("[1, 2]", "neither XML nor JSON")
        var huge = Data("<feed xmlns=\"http://www.w3.org/2005/Atom\">".utf8)
        huge.append(Data(repeating: 0x20, count: FeedXML.maxDocumentSize))
        XCTAssertThrowsError(try CatalogDocument.parse(huge, url: base))
        // A remote feed cannot point shelf at local files or odd schemes; the links are dropped, the feed kept.
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>e</id><title>E</title>
            <link rel="http://opds-spec.org/acquisition/open-access" href="file:///etc/passwd" type="application/epub+zip"/>
            <link rel="http://opds-spec.org/acquisition/open-access" href="javascript:alert(1)" type="application/epub+zip"/>
            <link rel="http://opds-spec.org/acquisition/open-access" href="http:// bad" type="application/epub+zip"/></entry></feed>
            """)
        XCTAssertEqual(feed.entries.first?.links.count, 0)
        XCTAssertEqual(feed.skipped.count, 3)
    }

    // MARK: Authentication documents

    func testAuthenticationDocuments() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("opds/auth") else {
            throw XCTSkip("../shared/corpus is absent")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        where name.hasSuffix(".json") {
            let url = corpus.appendingPathComponent(name)
            let data = try Data(contentsOf: url)
            if name.contains("trailing-comma") {
                continue  // invalid JSON; refused or read leniently, either is fine
            } else if name.hasPrefix("bad-") {
                XCTAssertThrowsError(try AuthenticationDocument.parse(data, url: url), name)
            } else {
                XCTAssertNoThrow(try AuthenticationDocument.parse(data, url: url), name)
            }
        }
        let example = try AuthenticationDocument.parse(
            Data(contentsOf: corpus.appendingPathComponent("spec-example-with-basic-token.json")),
            url: URL(string: "http://example.com/auth.json")!)
        XCTAssertEqual(example.register?.href, "http://example.com/registration")
        XCTAssertEqual(example.preferredFlow?.kind, .basicToken)
        XCTAssertEqual(example.flows.first?.loginLabel, "Library card")
        let nypl = try AuthenticationDocument.parse(
            Data(contentsOf: corpus.appendingPathComponent("nypl-20190603.json")),
            url: URL(string: "https://circulation.librarysimplified.org/NYNYPL/authentication_document")!)
        XCTAssertTrue(nypl.flows.contains { $0.kind == .basic })
        XCTAssertNotNil(nypl.shelf)
    }

    func testBrowserTokenIsReadFromTheRedirect() {
        XCTAssertEqual(
            Authenticator.token(fromPasted: "opds://authorize/?id=x&access_token=abc%2B1&token_type=bearer"), "abc+1")
        XCTAssertEqual(Authenticator.token(fromPasted: "https://app/cb#access_token=tok&x=1"), "tok")
        XCTAssertEqual(Authenticator.token(fromPasted: "  plain-token \n"), "plain-token")
        XCTAssertNil(Authenticator.token(fromPasted: "two words"))
        XCTAssertTrue(
            Authenticator.browserAddress(CatalogLink(href: "https://idp/auth?a=1")).contains(
                "redirect_uri=opds://authorize/"))
    }

    func testProblemDetail() {
        let problem = ProblemDetail(
            data: Data(
                #"{"type": "http://x/loan-limit", "title": "Loan limit reached.", "status": 403, "detail": "You have reached your loan limit."}"#
                    .utf8))
        XCTAssertEqual(problem?.words, "Loan limit reached.: You have reached your loan limit.")
        XCTAssertNil(ProblemDetail(data: Data("not json".utf8)))
        if let corpus = Corpus.root {
            let data = try? Data(
                contentsOf: corpus.appendingPathComponent("opds/opds2/problem-detail-unavailable.json"))
            XCTAssertNotNil(data.flatMap(ProblemDetail.init(data:)))
        }
    }
}
