import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

final class BookmarkTests: BookshelfTestCase {
    /// A bookmark made in one file lands on the same passage after the book is replaced by an edition with an extra
    /// chapter in front and its files renamed; a passage the new edition lacks is reported, not jumped to.
    func testBookmarkSurvivesAReplacedEdition() throws {
        let first = FixtureBooks.chapters(3)
        try ok(["add", try fixture(chapters: first)])
        let mark = try json(["bookmark", "add", "Tide", "--page", "6", "--note", "the gale"])
        let id = try XCTUnwrap(mark["id"] as? Int)
        let quote = try XCTUnwrap(
            (mark["locator"] as? [String: Any]).flatMap { $0["text"] as? [String: Any] }?["highlight"] as? String)
        let marked = try page(["read", "Tide", "--goto", "6"])
        XCTAssertTrue(Self.squeeze(marked.text).hasPrefix(quote), "the quote is the page's first words")
        // A second bookmark on a passage the new edition rewrites.
        let doomed = try json(["bookmark", "add", "Tide", "--page", "9"])
        let doomedID = try XCTUnwrap(doomed["id"] as? Int)
        let doomedPage = try page(["read", "Tide", "--goto", "9"])
        try ok(["read", "Tide", "--goto", "6"])

        // The new edition: a foreword in front, files renamed, and chapter 3 rewritten.
        var second = [
            FixtureBooks.Chapter(
                file: "foreword.xhtml", title: "Foreword",
                paragraphs: (1...6).map { FixtureBooks.paragraph(0, $0, tag: " (foreword)") })
        ]
        second += FixtureBooks.chapters(2, filePrefix: "part")
        second.append(
            FixtureBooks.Chapter(
                file: "part-3.xhtml", title: "Chapter 3",
                paragraphs: (1...9).map { FixtureBooks.paragraph(3, $0, tag: " revised") }))
        let edition = try fixture("tide-2nd.epub", chapters: second)
        let replaced = try json(["add", edition])
        XCTAssertEqual((replaced["added"] as? [[String: Any]])?.first?["replacedEdition"] as? Bool, true)

        let shift = FixtureBooks.pages(second[0])
        let list = try XCTUnwrap(try ok(["bookmarks", "Tide", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(list.count, 2)
        let kept = try XCTUnwrap(list.first { $0["id"] as? Int == id })
        XCTAssertEqual(kept["found"] as? Bool, true)
        XCTAssertEqual(kept["page"] as? Int, 6 + shift)
        XCTAssertEqual(kept["note"] as? String, "the gale")
        let lost = try XCTUnwrap(list.first { $0["id"] as? Int == doomedID })
        XCTAssertEqual(lost["found"] as? Bool, false)
        XCTAssertNotNil(lost["problem"])

        // The saved place follows the passage too.
        let resumed = try page(["read", "Tide"])
        XCTAssertEqual(resumed.number, 6 + shift)
        XCTAssertEqual(Self.squeeze(resumed.text), Self.squeeze(marked.text))
        let jumped = try page(["read", "Tide", "--bookmark", "\(id)"])
        XCTAssertEqual(jumped.number, 6 + shift)
        XCTAssertTrue(Self.squeeze(jumped.text).hasPrefix(quote))

        let refused = try shelf.run(["read", "Tide", "--bookmark", "\(doomedID)"])
        XCTAssertEqual(refused.status, 65)
        XCTAssertTrue(refused.stderr.contains("cannot be found"), refused.stderr)
        XCTAssertFalse(refused.stdout.contains(String(doomedPage.text.prefix(30))))
        XCTAssertEqual(try page(["read", "Tide"]).number, 6 + shift, "the place is unchanged")

        try ok(["bookmark", "remove", "\(doomedID)"])
        XCTAssertEqual(try XCTUnwrap(try ok(["bookmarks", "Tide", "--json"]).json() as? [Any]).count, 1)
        XCTAssertEqual(try shelf.run(["bookmark", "remove", "\(doomedID)"]).status, 66)
    }

    func testBookmarkFromALocator() throws {
        try ok(["add", try fixture()])
        let hit = try XCTUnwrap(
            try ok(["search", try fixture(), "part 3 passage 5", "--json"]).json() as? [[String: Any]]
        ).first
        let data = try JSONSerialization.data(withJSONObject: try XCTUnwrap(hit))
        let mark = try json(["bookmark", "add", "Tide", "--locator", String(decoding: data, as: UTF8.self)])
        let jumped = try page(["read", "Tide", "--bookmark", "\(mark["id"] as? Int ?? 0)"])
        XCTAssertTrue(Self.squeeze(jumped.text).contains("part 3 passage 5"), jumped.text)
        XCTAssertEqual(try shelf.run(["bookmark", "add", "Tide", "--locator", "{nope"]).status, 64)
    }
}

final class SettingsTests: BookshelfTestCase {
    func testSettingsChangeTheHTMLRender() throws {
        let book = try fixture()
        try ok(["add", book, sample])
        var html = try ok(["render", book, "--as", "html"]).stdout
        XCTAssertTrue(html.contains("font scale 117%, publisher, day"), "default: 14 pt, the book's own font")
        XCTAssertFalse(html.contains("font-family: \"Times"), "the publisher's font: no family forced")
        let shown = try json(["settings"])
        XCTAssertEqual((shown["defaults"] as? [String: Any])?["fontScaleSmallScreen"] as? Int, 100)
        XCTAssertEqual((shown["defaults"] as? [String: Any])?["fontScaleLargeScreen"] as? Int, 117)

        try ok(["settings", "--font-scale", "150", "--font", "sans", "--theme", "night"])
        html = try ok(["render", book, "--as", "html"]).stdout
        XCTAssertTrue(html.contains("font scale 150%, sans, night"), String(html.prefix(600)))
        XCTAssertTrue(html.contains("background-color: #000000"))

        // One book's own theme wins for that book only; the command line wins over both.
        let own = try json(["settings", "Tide", "--theme", "sepia"])
        XCTAssertEqual((own["effective"] as? [String: Any])?["theme"] as? String, "sepia")
        XCTAssertEqual((own["effective"] as? [String: Any])?["fontScale"] as? Int, 150)
        XCTAssertTrue(try ok(["render", book, "--as", "html"]).stdout.contains("font scale 150%, sans, sepia"))
        XCTAssertTrue(try ok(["render", sample, "--as", "html"]).stdout.contains("font scale 150%, sans, night"))
        XCTAssertTrue(
            try ok(["render", book, "--as", "html", "--theme", "day"]).stdout.contains("font scale 150%, sans, day"))

        try ok(["settings", "--font-scale", "default", "--theme", "default"])
        XCTAssertTrue(try ok(["render", sample, "--as", "html"]).stdout.contains("font scale 117%, sans, day"))
        XCTAssertEqual(try shelf.run(["settings", "--font-scale", "9000"]).status, 64)
        XCTAssertEqual(try shelf.run(["settings", "--theme", "neon"]).status, 64)
    }

    /// Issue 31 item 4: one rule for the settings, whichever command is given them (the web API stores through the
    /// same check, and the browser's reader takes its bounds from the defaults). Before, `settings` and `render`
    /// each had a sentence and a range of their own, and neither took the publisher's font.
    func testEveryCommandChecksTheSettingsByTheHostsOneRule() throws {
        let book = try fixture()
        try ok(["add", book])
        let refusal = "the font scale is a percentage from 25 to 800, not 900"
        for arguments in [["settings", "--font-scale", "900"], ["render", book, "--as", "html", "--font-scale", "900"]]
        {
            let refused = try shelf.run(arguments)
            XCTAssertEqual(refused.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains(refusal), refused.stderr)
        }
        for arguments in [["settings", "--font", "fancy"], ["render", book, "--as", "html", "--font", "fancy"]] {
            let refused = try shelf.run(arguments)
            XCTAssertEqual(refused.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(
                refused.stderr.contains("the font is publisher, serif or sans, not \"fancy\""), refused.stderr)
        }
        XCTAssertTrue(
            try ok(["render", book, "--as", "html", "--font-scale", "25%", "--font", "sans"]).stdout.contains(
                "font scale 25%, sans, day"))
        try ok(["settings", "--font", "sans"])
        try ok(["settings", "Tide", "--font", "publisher"])
        XCTAssertTrue(try ok(["render", book, "--as", "html"]).stdout.contains("font scale 117%, publisher, day"))
        let defaults = try XCTUnwrap(try json(["settings"])["defaults"] as? [String: Any])
        XCTAssertEqual(defaults["fontScaleMin"] as? Int, 25)
        XCTAssertEqual(defaults["fontScaleMax"] as? Int, 800)
        XCTAssertEqual(defaults["fonts"] as? [String], ["publisher", "serif", "sans"])
        XCTAssertEqual(defaults["font"] as? String, "publisher")
    }
}

final class ShareTests: BookshelfTestCase {
    func testShareHoldsTheExactPassage() throws {
        let chapters = FixtureBooks.chapters(3)
        try ok(["add", try fixture(chapters: chapters)])
        let shared = try json(["share", "Tide", "--page", "2"])
        let passage = try XCTUnwrap(shared["passage"] as? String)
        XCTAssertTrue(passage.contains(chapters[0].paragraphs[0]), passage)
        let text = try XCTUnwrap(shared["text"] as? String)
        XCTAssertTrue(text.contains("“"), text)
        XCTAssertTrue(text.contains("The Tide Tables, Ines Marlow"), text)
        XCTAssertTrue(text.contains("page 2 of"), text)

        // From a search hit's locator, the passage starts at the hit.
        let hits = try XCTUnwrap(
            try ok(["search", try fixture(), "part 2 passage 7", "--json"]).json() as? [[String: Any]])
        let locator = String(
            decoding: try JSONSerialization.data(withJSONObject: try XCTUnwrap(hits.first)), as: UTF8.self)
        let fromHit = try json(["share", "Tide", "--locator", locator])
        let words = try XCTUnwrap(fromHit["passage"] as? String)
        XCTAssertTrue(words.hasPrefix("part 2 passage 7 the keeper noted"), words)
        XCTAssertTrue(chapters[1].paragraphs[6].hasSuffix(String(words.prefix(while: { $0 != "\n" }))), words)

        let plain = try ok(["share", "Tide", "--page", "2"]).stdout
        XCTAssertTrue(plain.contains(chapters[0].paragraphs[0]))
        // No desktop here: --copy says so, and the passage is printed all the same.
        shelf.environment["DISPLAY"] = nil
        shelf.environment["WAYLAND_DISPLAY"] = nil
        let copy = try shelf.run(["share", "Tide", "--copy"])
        XCTAssertEqual(copy.status, 69)
        XCTAssertTrue(copy.stderr.contains("not copied"), copy.stderr)
        XCTAssertTrue(copy.stdout.contains("The Tide Tables"))
    }
}

final class SampleTests: BookshelfTestCase {
    /// A catalog on disk whose entry has a sample link: `shelf sample` puts it on the shelf marked as a sample and
    /// opens it; `share` links to the catalog's page for the book.
    func testSampleIsDownloadedMarkedAndRead() throws {
        let copy = folder.appendingPathComponent("winter-sample.epub")
        try FileManager.default.copyItem(
            at: ShelfProcess.packageRoot.appendingPathComponent("samples/a-winter-crossing.epub"), to: copy)
        let feed = folder.appendingPathComponent("feed.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:feed</id><title>Test</title><updated>2024-01-01T00:00:00Z</updated>
          <entry><id>urn:test:winter</id><title>A Winter Crossing</title><author><name>Jon Ellery</name></author>
            <updated>2024-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition/borrow" type="application/epub+zip" href="http://127.0.0.1:9/borrow"/>
            <link rel="http://opds-spec.org/acquisition/sample" type="application/epub+zip" href="\(copy.absoluteString)"/>
            <link rel="alternate" type="text/html" href="https://library.example/book/winter"/>
          </entry>
        </feed>
        """.write(to: feed, atomically: true, encoding: .utf8)
        try ok(["browse", feed.path])
        let read = try ok(["sample", "urn:test:winter"]).stdout
        XCTAssertTrue(read.contains("[Sample of “A Winter Crossing”"), read)
        XCTAssertTrue(read.contains("Sample · Departure · page 1 of 3"), read)
        let books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.first?["sample"] as? Bool, true)
        XCTAssertEqual(books.first?["storage"] as? String, "sample")
        let shared = try json(["share", "Winter"])
        XCTAssertTrue(
            (shared["link"] as? String ?? "").hasPrefix("https://library.example/book/winter#locator=%7B"), "\(shared)")
        XCTAssertTrue(
            (shared["passage"] as? String ?? "").hasPrefix("Departure\n\nThey left the village before dawn"),
            "\(shared)")
        XCTAssertEqual(try page(["read", "Winter", "--next"]).number, 2)
    }
}
