import CZip
import EPUBCore
import Foundation
import PluginAPI
import PluginKit
import XCTest

/// Books the tests write themselves: well-formed ones checked field by field, and every hostile
/// case of issue 3 point 7 with its exact outcome.
final class EPUBFixtureTests: XCTestCase {
    var dir: FixtureDir!

    override func setUpWithError() throws { dir = try FixtureDir() }
    override func tearDown() { dir = nil }

    func failure(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> PluginFailure? {
        do { try body() } catch let f as PluginFailure { return f } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
        XCTFail("expected a failure", file: file, line: line)
        return nil
    }

    // MARK: EPUB 2

    func testEPUB2Metadata() throws {
        let p = try dir.zip("b2.epub", Books.epub2Entries())
        let pub = try EPUBPublication(path: p)
        let m = try pub.manifest()
        XCTAssertEqual(m.title, "A Little Book")
        XCTAssertEqual(m.metadata["identifier"], .string("urn:uuid:12345678-1234-1234-1234-123456789abc"))
        XCTAssertEqual(m.metadata["altIdentifier"], .array([.string("isbn:9780000000001")]))
        XCTAssertEqual(m.metadata["language"], .string("en"))
        XCTAssertEqual(
            m.metadata["author"], .array([.object(["name": .string("Ann Writer"), "sortAs": .string("Writer, Ann")])]))
        XCTAssertEqual(m.metadata["translator"], .array([.object(["name": .string("Tom Translator")])]))
        XCTAssertEqual(m.metadata["publisher"], .array([.object(["name": .string("Small Press")])]))
        XCTAssertEqual(m.metadata["published"], .string("2001-02-03"))
        XCTAssertEqual(m.metadata["description"], .string("A book for tests."))
        XCTAssertEqual(m.metadata["subject"], .array([.object(["name": .string("Fiction")])]))
        XCTAssertEqual(
            m.metadata["belongsTo"],
            .object(["series": .array([.object(["name": .string("Test Series"), "position": .number(2)])])]))
        // Reading order: linear items only; the non-linear notes are a resource.
        XCTAssertEqual(
            m.readingOrder.map(\.href), ["OEBPS/cover.xhtml", "OEBPS/text/chapter%201.xhtml", "OEBPS/text/ch2.xhtml"])
        XCTAssertTrue(
            m.resources?.contains { $0.href == "OEBPS/text/notes.xhtml" && $0.properties?["linear"] == .bool(false) }
                ?? false)
        XCTAssertEqual(m.links.first { $0.rel?.contains("cover") == true }?.href, "OEBPS/images/cover.png")
        // TOC with full nesting from the NCX.
        let toc = try XCTUnwrap(m.toc)
        XCTAssertEqual(toc.count, 1)
        XCTAssertEqual(toc[0].title, "Part One")
        XCTAssertEqual(toc[0].children?.map(\.title), ["Chapter 1", "Chapter 2"])
        XCTAssertEqual(toc[0].children?[0].children?[0].href, "OEBPS/text/chapter%201.xhtml#s11")
        XCTAssertEqual(pub.book.navigation.pageList.map(\.href), ["OEBPS/text/chapter%201.xhtml#p1"])
        XCTAssertEqual(m.links(in: "pageList").map(\.title), ["1"])
        XCTAssertEqual(
            m.links(in: "landmarks").map { $0.rel ?? [] }, [["cover"], ["bodymatter"]], "the guide as landmarks")
        XCTAssertTrue(pub.warnings.isEmpty, "\(pub.warnings)")
        // Resources by href: percent-encoding, fragments, non-ASCII-safe names.
        XCTAssertEqual(try pub.resource(href: "OEBPS/images/cover.png"), Books.png)
        XCTAssertEqual(try pub.resource(href: "OEBPS/text/chapter%201.xhtml#c1"), Data(Books.chapter1.utf8))
        XCTAssertEqual(failure { _ = try pub.resource(href: "OEBPS/nothing.png") }?.status, SHELF_E_NOT_FOUND)
    }

    func testEPUB2RenderStartsAtGuideTextAndRendersReadableText() throws {
        let pub = try EPUBPublication(path: try dir.zip("b2.epub", Books.epub2Entries()))
        let r = try pub.render(at: nil, settings: RenderSettings(as: .text, width: 40))
        XCTAssertEqual(r.locator.href, "OEBPS/text/chapter%201.xhtml")
        XCTAssertEqual(r.locator.title, "Part One")
        XCTAssertEqual(
            r.locator.text?.highlight?.hasPrefix("Chapter One Call me Ishmael."), true,
            "\(String(describing: r.locator.text))")
        let text = String(decoding: r.content, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("Chapter One\n==========="), text)
        XCTAssertTrue(text.contains("Call me Ishmael."), text)
        XCTAssertTrue(text.contains("[1]"), "footnote reference: \(text)")
        XCTAssertTrue(text.contains("• First point"), text)
        XCTAssertTrue(text.contains("  1. Nested one"), text)
        XCTAssertTrue(text.contains("> A quoted line"), text)
        XCTAssertTrue(text.contains("Name | Value"), text)
        XCTAssertTrue(text.contains("[Image: A whale]"), text)
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 40, String(line)) }
        // Source line breaks are white space; <br> breaks the line.
        let ch2 = String(
            decoding: try pub.render(
                at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings(as: .text, width: 72)
            ).content, as: UTF8.self)
        XCTAssertEqual(
            ch2,
            "Chapter Two\n===========\n\nThe second chapter is here, with a whale of a tale.\n\nLine one\nline two\n")
    }

    func testWrappingCountsWideCharactersAndNeverLosesText() throws {
        let ja = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。"
        let mixed =
            "Mixed 日本語 text with Latin words and 漢字かな交じり文 that must wrap cleanly at the given width without losing anything."
        let chapter = Books.xhtml(
            "JA", "<p>\(ja)</p><p>\(mixed)</p><p>Supercalifragilisticexpialidocious-and-then-some-more-letters</p>")
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/text/ch2.xhtml" ? ($0.0, Data(chapter.utf8)) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("ja.epub", entries))
        let text = String(
            decoding: try pub.render(
                at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings(as: .text, width: 20)
            ).content, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let w = line.unicodeScalars.reduce(0) {
                $0 + (($1.value >= 0x3000 && $1.value <= 0x9FFF) || ($1.value >= 0xFF00 && $1.value <= 0xFF60) ? 2 : 1)
            }
            XCTAssertLessThanOrEqual(w, 20, String(line))
        }
        let joined = text.replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(joined.contains(ja), text)
        XCTAssertEqual(joined.filter { !$0.isWhitespace }.contains(mixed.filter { !$0.isWhitespace }), true, text)
        XCTAssertTrue(joined.contains("Supercalifragilisticexpialidocious-and-then-some-more-letters"), text)
    }

    func testHTMLRenderAppliesSettingsAndRefersToResourcesByHref() throws {
        let pub = try EPUBPublication(path: try dir.zip("b2.epub", Books.epub2Entries()))
        let r = try pub.render(
            at: Locator(href: "OEBPS/text/chapter%201.xhtml", type: ""),
            settings: RenderSettings(as: .html, fontScale: 150, font: "sans", theme: "night"))
        let html = String(decoding: r.content, as: UTF8.self)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("font-size: 150%"))
        XCTAssertTrue(html.contains("sans-serif"))
        XCTAssertTrue(html.contains("background-color: #000000"))
        XCTAssertTrue(html.contains("column-count: 1"))
        XCTAssertTrue(html.contains("src=\"OEBPS/images/cover.png\""), html)
        XCTAssertTrue(html.contains("href=\"OEBPS/css/style.css\""), html)
        XCTAssertTrue(html.contains("href=\"OEBPS/text/notes.xhtml#n1\""), html)
        XCTAssertFalse(html.contains("<script"))
        // A footnote file outside the reading order renders too.
        let notes = try pub.render(at: Locator(href: "OEBPS/text/notes.xhtml#n1", type: ""), settings: RenderSettings())
        XCTAssertEqual(notes.locator.href, "OEBPS/text/notes.xhtml")
        XCTAssertEqual(notes.locator.locations.fragments, ["n1"])
        XCTAssertTrue(String(decoding: notes.content, as: UTF8.self).contains("1. A note."))
        let day = String(
            decoding: try pub.render(at: nil, settings: RenderSettings(as: .html, font: "serif", theme: "day")).content,
            as: UTF8.self)
        XCTAssertTrue(day.contains("background-color: #ffffff") && day.contains("Times New Roman"))
    }

    // MARK: EPUB 3

    func testEPUB3MetadataRefinementsNavAndOverlays() throws {
        let pub = try EPUBPublication(path: try dir.zip("b3.epub", Books.epub3Entries()))
        let m = try pub.manifest()
        XCTAssertEqual(pub.book.majorVersion, 3)
        XCTAssertEqual(m.title, "The Main Title")
        XCTAssertEqual(m.metadata["sortAs"], .string("Main Title, The"))
        XCTAssertEqual(m.metadata["subtitle"], .string("A Subtitle"))
        XCTAssertEqual(
            m.metadata["author"], .array([.object(["name": .string("Jane Author"), "sortAs": .string("Author, Jane")])])
        )
        XCTAssertEqual(m.metadata["editor"], .array([.object(["name": .string("Ed Itor")])]))
        XCTAssertEqual(m.metadata["illustrator"], .array([.object(["name": .string("Ill Ustrator")])]))
        XCTAssertEqual(m.metadata["identifier"], .string("urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
        XCTAssertEqual(m.metadata["modified"], .string("2021-01-01T00:00:00Z"))
        XCTAssertEqual(m.metadata["language"], .string("fr"))
        XCTAssertEqual(
            m.metadata["belongsTo"],
            .object(["series": .array([.object(["name": .string("Great Series"), "position": .number(3)])])]))
        XCTAssertEqual(m.metadata["accessibility"]?["feature"], .array([.string("structuralNavigation")]))
        XCTAssertEqual(m.metadata["accessibility"]?["summary"], .string("Fully accessible."))
        XCTAssertEqual(m.metadata["presentation"]?["layout"], .string("reflowable"))
        XCTAssertEqual(m.metadata["readingProgression"], .string("ltr"))
        XCTAssertEqual(m.metadata["duration"], .number(90))
        let ch1 = try XCTUnwrap(m.readingOrder.first { $0.href == "OEBPS/text/chapter%201.xhtml" })
        XCTAssertEqual(ch1.properties?["page"], .string("right"))
        XCTAssertEqual(ch1.properties?["mediaOverlay"], .string("OEBPS/smil/ch1.smil"))
        // The overlay's clips, in the manifest, as an alternate of the item it narrates.
        let overlay = try XCTUnwrap(ch1.extra["alternate"]?.array?.first)
        XCTAssertEqual(overlay["href"], .string("OEBPS/smil/ch1.smil"))
        XCTAssertEqual(overlay["duration"], .number(5.5))
        XCTAssertEqual(
            overlay["properties"]?["clips"],
            .array([
                .object([
                    "text": .string("OEBPS/text/chapter%201.xhtml#c1"), "audio": .string("OEBPS/audio/a.mp3"),
                    "clipBegin": .number(0), "clipEnd": .number(5)
                ])
            ]))
        XCTAssertEqual(m.resources?.first { $0.href == "OEBPS/smil/ch1.smil" }?.duration, 5.5)
        XCTAssertEqual(
            m.readingOrder.first { $0.href == "OEBPS/text/ch2.xhtml" }?.properties?["contains"],
            .array([.string("mathml")]))
        XCTAssertEqual(m.links.first?.href, "OEBPS/images/cover.png")
        let toc = try XCTUnwrap(m.toc)
        XCTAssertEqual(Navigation.count(toc), 5)
        XCTAssertEqual(toc[0].children?[1].title, "Group")
        XCTAssertEqual(toc[0].children?[1].children?[0].href, "OEBPS/text/ch2.xhtml")
        XCTAssertEqual(pub.book.navigation.landmarks.map { $0.rel ?? [] }, [["cover"], ["bodymatter"]])
        XCTAssertEqual(m.links(in: "landmarks").map(\.href), ["OEBPS/cover.xhtml", "OEBPS/text/ch2.xhtml"])
        XCTAssertEqual(m.links(in: "pageList").map(\.title), ["1", "2"])
        XCTAssertEqual(pub.book.navigation.pageList.count, 2)
        // Starts at the bodymatter landmark.
        XCTAssertEqual(try pub.render(at: nil, settings: RenderSettings()).locator.href, "OEBPS/text/ch2.xhtml")
    }

    func testNonASCIIAndRelativeHrefsResolve() throws {
        let p = try dir.zip(
            "names.epub",
            Books.epub3Entries(extra: [("OEBPS/images/café été.png", Books.png), ("OEBPS/odd%name.css", Data("x".utf8))]
            ))
        let pub = try EPUBPublication(path: p)
        XCTAssertEqual(try pub.resource(href: "OEBPS/images/caf%C3%A9%20%C3%A9t%C3%A9.png"), Books.png)
        XCTAssertEqual(try pub.resource(href: "OEBPS/images/café été.png#x"), Books.png)
        XCTAssertEqual(try pub.resource(href: "./OEBPS/text/../images/caf%C3%A9%20%C3%A9t%C3%A9.png?q=1"), Books.png)
        XCTAssertEqual(try pub.resource(href: "OEBPS/odd%25name.css"), Data("x".utf8))
        XCTAssertEqual(Paths.percentDecode("a%2Fb%zz%C3%A9"), "a/b%zzé")
        XCTAssertEqual(Paths.splitFragment("a/b.xhtml?x=1#frag").path, "a/b.xhtml")
        XCTAssertEqual(Paths.splitFragment("a/b.xhtml?x=1#frag").fragment, "frag")
        XCTAssertNil(Paths.resolve("../../x", against: "OEBPS/"))
        XCTAssertEqual(Paths.normalise("a/../b"), "b")
        XCTAssertEqual(Paths.normalise("./a//b/./c"), "a/b/c")
        XCTAssertEqual(Paths.normalise("a/b.c/..d"), "a/b.c/..d")
        XCTAssertEqual(Paths.normalise("a/.."), "")
        XCTAssertNil(Paths.normalise("../a"))
        for ext in ["http://x", "https://x/y", "mailto:a@b", "//cdn/x", "urn:isbn:1"] {
            XCTAssertTrue(Paths.isExternal(ext), ext)
        }
        for local in ["a.xhtml", "a/b:c.xhtml", "../x", "#f", "a%3Ab", "./http:x", ""] {
            XCTAssertFalse(Paths.isExternal(local), local)
        }
        for bad in ["..", "a/..", "a/../b", "/abs", "a\\b", "C:x", "a\u{0}b", ""] {
            XCTAssertNotNil(ZipArchive.unsafeReason(bad), bad)
        }
        for good in ["..a", "a..b", "a/b..", "OEBPS/x.xhtml", "é/ü.png"] {
            XCTAssertNil(ZipArchive.unsafeReason(good), good)
        }
    }

    /// The shortcut open takes for plain relative hrefs gives what the general rules give, and
    /// leaves every other href to them.
    func testPlainRelativeHrefsResolveAsTheGeneralRulesDo() throws {
        let plain = [
            "ch1.xhtml", "text/ch1.xhtml#p3", "a/b.c/..d", "...x/y", "%40public%40a.html#x", "a%2Fb.xhtml",
            "a%20b.xhtml#f g", "x.xhtml#", "a@b!$&'()*+,=-_~.html", "ch%3A1.xhtml"
        ]
        let general = [
            "", "#f", "./a.xhtml", "../a.xhtml", "a//b.xhtml", "a/./b", "a/../b", "/abs.xhtml", "a/", ".", "..",
            " a.xhtml", "a.xhtml ", "a.xhtml#f ", "a b.xhtml", "a?q=1#f", "http://x/y", "//cdn/x", "caf\u{E9}.xhtml",
            "%C3%A9.xhtml", "%zz.xhtml", "%2e%2E/a.xhtml", "a/%2E/b", "%2Fabs", "50%"
        ]
        for base in ["", "OEBPS/", "OEBPS/text/"] {
            for href in plain {
                let p = try XCTUnwrap(Paths.PlainRelative(href), href)
                XCTAssertEqual(base + p.path, Paths.resolve(href, against: base), href)
                XCTAssertEqual(p.fragment, Paths.splitFragment(href).fragment, href)
                XCTAssertEqual(
                    Paths.href(forEntry: base) + p.href + p.rest,
                    Paths.href(forEntry: base + p.path) + (p.fragment.map { "#" + $0 } ?? ""), href)
            }
        }
        for href in general { XCTAssertNil(Paths.PlainRelative(href), href) }
    }

    func testNonFiniteNumbersInMetadataNeverBreakTheManifest() throws {
        let opf = Books.epub3OPF.replacingOccurrences(of: ">3</meta>", with: ">nan</meta>")
            .replacingOccurrences(of: ">0:01:30</meta>", with: ">1e400:99</meta>")
            .replacingOccurrences(of: ">0:00:05.500</meta>", with: ">inf</meta>")
        let smil = Books.smil.replacingOccurrences(of: "clipEnd=\"5s\"", with: "clipEnd=\"1e999s\"")
        let entries = Books.epub3Entries().map {
            $0.0 == "OEBPS/content.opf"
                ? ($0.0, Data(opf.utf8)) : $0.0 == "OEBPS/smil/ch1.smil" ? ($0.0, Data(smil.utf8)) : $0
        }
        let pub = try EPUBPublication(path: try dir.zip("nan.epub", entries))
        let m = try pub.manifest()
        let json = ReadiumJSON.encode(m)
        XCTAssertNotEqual(json, "null")
        let back = try Manifest.parse(Data(json.utf8))
        XCTAssertEqual(back.title, "The Main Title")
        XCTAssertNil(back.metadata["duration"])
        XCTAssertEqual(back.metadata["belongsTo"]?["series"]?.array?.first?["position"], nil)
    }

    func testProbeReadsThePackageVersion() throws {
        let p2 = try dir.zip("b2.epub", Books.epub2Entries())
        let p3 = try dir.zip("b3.epub", Books.epub3Entries())
        func input(_ p: String) throws -> PluginInput {
            let d = try Data(contentsOf: URL(fileURLWithPath: p))
            return PluginInput(
                path: p, uri: p, mediaType: "application/epub+zip", head: Array(d.prefix(65536)),
                fileSize: UInt64(d.count))
        }
        XCTAssertEqual(EPUBProbe.confidence(for: try input(p2), major: 2), 100)
        XCTAssertEqual(EPUBProbe.confidence(for: try input(p2), major: 3), 0)
        XCTAssertEqual(EPUBProbe.confidence(for: try input(p3), major: 3), 100)
        XCTAssertEqual(EPUBProbe.confidence(for: try input(p3), major: 2), 0)
        // No version attribute: an old package, EPUB 2's.
        let noVersion = Books.epub2Entries().map {
            $0.0 == "OEBPS/content.opf"
                ? ($0.0, Data(Books.epub2OPF.replacingOccurrences(of: " version=\"2.0\"", with: "").utf8)) : $0
        }
        let pv = try dir.zip("noversion.epub", noVersion)
        XCTAssertEqual(EPUBProbe.confidence(for: try input(pv), major: 2), 100)
        XCTAssertEqual(EPUBProbe.confidence(for: try input(pv), major: 3), 0)
        // A zip that is not an EPUB: only the media type speaks for it.
        let notEPUB = try dir.zip("plain.zip", [("readme.txt", Data("hi".utf8))])
        XCTAssertLessThan(EPUBProbe.confidence(for: try input(notEPUB), major: 3), 25)
        let junk = try dir.write("junk.bin", Data("hello".utf8))
        XCTAssertEqual(
            EPUBProbe.confidence(
                for: PluginInput(path: junk, uri: junk, mediaType: nil, head: Array("hello".utf8), fileSize: 5),
                major: 3), 0)
    }

    // MARK: Positions, locate, search

    func testPositionsFollowReadiumFromEntryLengths() throws {
        let p = try dir.zip("b3.epub", Books.epub3Entries(extra: [("OEBPS/text/big.xhtml", Data())]))
        let pub = try EPUBPublication(path: p)
        // Independent: the compressed sizes libzip reports for the reading-order entries.
        var code: Int32 = 0
        let za = try XCTUnwrap(zip_open(p, ZIP_RDONLY, &code))
        defer { zip_discard(za) }
        var expected: [Int] = []
        for name in ["OEBPS/cover.xhtml", "OEBPS/text/chapter 1.xhtml", "OEBPS/text/ch2.xhtml"] {
            var st = zip_stat_t()
            XCTAssertEqual(zip_stat(za, name, 0, &st), 0)
            expected.append(max(1, Int((st.comp_size + 1023) / 1024)))
        }
        let positions = try pub.positions()
        XCTAssertEqual(positions.count, expected.reduce(0, +))
        XCTAssertEqual(positions.map { $0.locations.position }, (1...positions.count).map { $0 })
        XCTAssertEqual(positions.first?.locations.totalProgression, 0)
        XCTAssertEqual(
            positions.last?.locations.totalProgression, Double(positions.count - 1) / Double(positions.count))
        for l in positions {
            let back = try pub.locate(l)
            XCTAssertEqual(back.href, l.href)
            XCTAssertEqual(back.locations.position, l.locations.position)
        }
        XCTAssertEqual(failure { _ = try pub.locate(Locator(href: "nope.xhtml", type: "")) }?.status, SHELF_E_NOT_FOUND)
        // Render by position.
        let last = try XCTUnwrap(positions.last?.locations.position)
        XCTAssertEqual(
            try pub.render(
                at: Locator(href: "", type: "", locations: .init(position: last)), settings: RenderSettings()
            ).locator.href, "OEBPS/text/ch2.xhtml")
    }

    func testSearchIgnoresCaseAndDiacritics() throws {
        let pub = try EPUBPublication(path: try dir.zip("b3.epub", Books.epub3Entries()))
        let hits = try pub.search("ISHMAEL", limit: 100)
        XCTAssertEqual(hits.count, 1)
        XCTAssertEqual(hits.first?.href, "OEBPS/text/chapter%201.xhtml")
        XCTAssertEqual(hits.first?.text?.highlight, "Ishmael")
        XCTAssertTrue(
            hits.first?.text?.before?.hasSuffix("Call me ") ?? false, "\(String(describing: hits.first?.text))")
        XCTAssertNotNil(hits.first?.locations.position)
        let accents = try pub.search("cafe and the naive resume", limit: 10)
        XCTAssertEqual(accents.first?.text?.highlight, "café and the naïve résumé")
        XCTAssertEqual(try pub.search("zebra", limit: 10).count, 0)
        XCTAssertEqual(try pub.search("", limit: 10).count, 0)
        XCTAssertEqual(try pub.search("  ", limit: 10).count, 0)
        XCTAssertEqual(try pub.search("a", limit: 3).count, 3, "the limit holds")
    }

    // MARK: Fonts and DRM

    func sha1Hex(_ s: String) throws -> [UInt8] {
        // Independent SHA-1: the system's sha1sum.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha1sum")
        let inPipe = Pipe(), outPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        try p.run()
        inPipe.fileHandleForWriting.write(Data(s.utf8))
        try inPipe.fileHandleForWriting.close()
        p.waitUntilExit()
        let hex = String(decoding: outPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(40)
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex { let j = hex.index(i, offsetBy: 2); out.append(UInt8(hex[i..<j], radix: 16)!); i = j }
        return out
    }

    func testObfuscatedFontsAreRestored() throws {
        let uid = "urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
        let key = try sha1Hex(uid)
        var idpf = [UInt8](Books.font)
        for i in 0..<1040 { idpf[i] ^= key[i % key.count] }
        let uuidBytes: [UInt8] = [
            0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0
        ]
        var adobe = [UInt8](Books.font)
        for i in 0..<1024 { adobe[i] ^= uuidBytes[i % 16] }
        let enc = """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
              <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
                <enc:CipherData><enc:CipherReference URI="OEBPS/fonts/font.otf"/></enc:CipherData></enc:EncryptedData>
              <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://ns.adobe.com/pdf/enc#RC"/>
                <enc:CipherData><enc:CipherReference URI="OEBPS/fonts/adobe.otf"/></enc:CipherData></enc:EncryptedData>
            </encryption>
            """
        let p = try dir.zip(
            "fonts.epub",
            Books.epub3Entries(extra: [
                ("META-INF/encryption.xml", Data(enc.utf8)),
                ("OEBPS/fonts/font.otf", Data(idpf)),
                ("OEBPS/fonts/adobe.otf", Data(adobe))
            ]))
        let pub = try EPUBPublication(path: p)
        XCTAssertEqual(try pub.resource(href: "OEBPS/fonts/font.otf"), Books.font)
        XCTAssertEqual(try pub.resource(href: "OEBPS/fonts/adobe.otf"), Books.font)
        let font = try pub.manifest().resources?.first { $0.href == "OEBPS/fonts/font.otf" }
        XCTAssertEqual(font?.properties?["encrypted"]?["algorithm"], .string("http://www.idpf.org/2008/embedding"))
    }

    func testAdobeADEPTItemsAreProtectedAndTheBookStillOpens() throws {
        let enc = """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
              <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#"><EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
                <CipherData><CipherReference URI="OEBPS/text/ch2.xhtml"/></CipherData></EncryptedData>
            </encryption>
            """
        let p = try dir.zip(
            "adept.epub",
            Books.epub2Entries() + [
                ("META-INF/encryption.xml", Data(enc.utf8)),
                ("META-INF/rights.xml", Data("<adept:rights xmlns:adept=\"http://ns.adobe.com/adept\"/>".utf8))
            ])
        let pub = try EPUBPublication(path: p)
        let f = failure { _ = try pub.resource(href: "OEBPS/text/ch2.xhtml") }
        XCTAssertEqual(f?.status, SHELF_E_PROTECTED)
        XCTAssertTrue(f?.message.contains("protected by Adobe ADEPT") ?? false, f?.message ?? "")
        XCTAssertEqual(
            failure {
                _ = try pub.render(at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings())
            }?.status, SHELF_E_PROTECTED)
        XCTAssertNoThrow(try pub.render(at: nil, settings: RenderSettings()))
        XCTAssertEqual(
            try pub.search("whale of a tale", limit: 10).count, 0, "protected text is never searched as garbage")
        let ch2 = try pub.manifest().readingOrder.first { $0.href == "OEBPS/text/ch2.xhtml" }
        XCTAssertEqual(ch2?.properties?["encrypted"]?["scheme"], .string("http://ns.adobe.com/adept"))
    }

    func testLCPLicenseIsNamed() throws {
        let enc = """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/><CipherData><CipherReference URI="OEBPS/text/ch2.xhtml"/></CipherData></EncryptedData></encryption>
            """
        let pub = try EPUBPublication(
            path: try dir.zip(
                "lcp.epub",
                Books.epub2Entries() + [
                    ("META-INF/encryption.xml", Data(enc.utf8)), ("META-INF/license.lcpl", Data("{}".utf8))
                ]))
        XCTAssertTrue(
            failure { _ = try pub.resource(href: "OEBPS/text/ch2.xhtml") }?.message.contains("Readium LCP") ?? false)
    }

    // MARK: Hostile input (issue 3, point 7)

    func testTruncatedArchiveIsBadData() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: try dir.zip("b2.epub", Books.epub2Entries())))
        let p = try dir.write("truncated.epub", good.prefix(good.count / 2))
        let f = failure { _ = try EPUBPublication(path: p) }
        XCTAssertEqual(f?.status, SHELF_E_BAD_DATA)
        XCTAssertTrue(f?.message.contains("truncated") ?? false, f?.message ?? "")
    }

    func testZipBombIsRefusedByRatio() throws {
        let p = try dir.zip(
            "bomb.epub", Books.epub2Entries().map { ($0.0, $0.1) } + [("OEBPS/zeros.bin", Data(count: 40 << 20))])
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: p)[.size] as! Int, 1 << 20)
        let f = failure { _ = try EPUBPublication(path: p) }
        XCTAssertEqual(f?.status, SHELF_E_LIMIT)
        XCTAssertTrue(f?.message.contains("compression ratio") ?? false, f?.message ?? "")
    }

    func testTotalSizeAndEntryCountLimits() throws {
        let p = try dir.zip("b2.epub", Books.epub2Entries())
        var small = ZipLimits()
        small.maxTotalSize = 1000
        XCTAssertEqual(failure { _ = try EPUBPublication(path: p, limits: small) }?.status, SHELF_E_LIMIT)
        var few = ZipLimits()
        few.maxEntries = 3
        XCTAssertEqual(failure { _ = try EPUBPublication(path: p, limits: few) }?.status, SHELF_E_LIMIT)
    }

    func rawBook(_ extra: [RawZip.Entry], replacing: [String: Data] = [:]) -> RawZip {
        var z = RawZip()
        for (n, d) in Books.epub2Entries() { z.entries.append(.init(name: n, data: replacing[n] ?? d)) }
        z.entries.append(contentsOf: extra)
        return z
    }

    func testEscapingNamesAreRefused() throws {
        let z = rawBook([
            .init(name: "../evil.xhtml", data: Data("x".utf8)), .init(name: "/etc/abs.xhtml", data: Data("x".utf8)),
            .init(name: "OEBPS\\..\\..\\win.xhtml", data: Data("x".utf8))
        ])
        let pub = try EPUBPublication(path: try dir.write("escape.epub", z.bytes()))
        XCTAssertEqual(pub.warnings.filter { $0.contains("refused") }.count, 3, "\(pub.warnings)")
        XCTAssertEqual(failure { _ = try pub.resource(href: "../evil.xhtml") }?.status, SHELF_E_NOT_FOUND)
        XCTAssertEqual(failure { _ = try pub.resource(href: "/etc/abs.xhtml") }?.status, SHELF_E_NOT_FOUND)
        XCTAssertEqual(failure { _ = try pub.resource(href: "OEBPS/../../evil.xhtml") }?.status, SHELF_E_NOT_FOUND)
    }

    func testDuplicateEntriesAreRefused() throws {
        let z = rawBook([.init(name: "OEBPS/content.opf", data: Data(Books.epub3OPF.utf8))])
        let f = failure { _ = try EPUBPublication(path: try dir.write("dup.epub", z.bytes())) }
        XCTAssertEqual(f?.status, SHELF_E_BAD_DATA)
        XCTAssertTrue(f?.message.contains("two entries named 'OEBPS/content.opf'") ?? false, f?.message ?? "")
    }

    func testSplitArchiveIsNamed() throws {
        var z = rawBook([])
        z.diskNumber = 1
        let f = failure { _ = try EPUBPublication(path: try dir.write("split.epub", z.bytes())) }
        XCTAssertEqual(f?.status, SHELF_E_BAD_DATA)
        XCTAssertTrue(f?.message.contains("split") ?? false, f?.message ?? "")
    }

    func testNonDeflateMethodIsAClearErrorForThatEntryOnly() throws {
        var z = rawBook([])
        if let i = z.entries.firstIndex(where: { $0.name == "OEBPS/text/ch2.xhtml" }) { z.entries[i].method = 12 }
        let pub = try EPUBPublication(path: try dir.write("bzip.epub", z.bytes()))
        let f = failure { _ = try pub.resource(href: "OEBPS/text/ch2.xhtml") }
        XCTAssertEqual(f?.status, SHELF_E_UNSUPPORTED)
        XCTAssertTrue(f?.message.contains("compression method 12") ?? false, f?.message ?? "")
        XCTAssertNoThrow(try pub.render(at: nil, settings: RenderSettings()))
    }

    func testMimetypeNotFirstOpensWithAWarning() throws {
        var entries = Books.epub2Entries()
        let m = entries.removeFirst()
        entries.append(m)
        let pub = try EPUBPublication(path: try dir.zip("late.epub", entries))
        XCTAssertTrue(pub.warnings.contains { $0.contains("mimetype entry is not the first") }, "\(pub.warnings)")
    }

    func testExternalEntitiesAreNeverLoaded() throws {
        let secret = try dir.write("secret.txt", Data("TOP-SECRET-CONTENT".utf8))
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE html [ <!ENTITY xxe SYSTEM "file://\(secret)"> <!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote; ]>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body><h1>Chapter Two</h1><p>before &xxe; after</p></body></html>
            """
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/text/ch2.xhtml" ? ($0.0, Data(xxe.utf8)) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("xxe.epub", entries))
        let text = String(
            decoding: try pub.render(at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings())
                .content, as: UTF8.self)
        XCTAssertFalse(text.contains("TOP-SECRET"), text)
        XCTAssertTrue(text.contains("before") && text.contains("after"), text)
    }

    func testBillionLaughsIsHarmless() throws {
        var dtd = "<!ENTITY lol \"lol\">"
        for i in 1...9 {
            dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">"
        }
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE package [ \(dtd) ]>
            """
            + Books.epub2OPF.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: "")
            .replacingOccurrences(of: "A book for tests.", with: "&lol9;")
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/content.opf" ? ($0.0, Data(bomb.utf8)) : $0 }
        let start = Date()
        let pub = try EPUBPublication(path: try dir.zip("lol.epub", entries))
        let description = try pub.manifest().metadata["description"]?.string ?? ""
        XCTAssertLessThan(description.count, 1000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(try pub.manifest().title, "A Little Book")
    }

    func testMissingContainerAndMissingPackage() throws {
        let noContainer = Books.epub2Entries().filter { $0.0 != "META-INF/container.xml" }
        let f1 = failure { _ = try EPUBPublication(path: try dir.zip("nocontainer.epub", noContainer)) }
        XCTAssertEqual(f1?.status, SHELF_E_BAD_DATA)
        XCTAssertTrue(f1?.message.contains("META-INF/container.xml is missing") ?? false, f1?.message ?? "")
        let noOPF = Books.epub2Entries().filter { $0.0 != "OEBPS/content.opf" }
        let f2 = failure { _ = try EPUBPublication(path: try dir.zip("noopf.epub", noOPF)) }
        XCTAssertEqual(f2?.status, SHELF_E_BAD_DATA)
        XCTAssertTrue(
            f2?.message.contains("'OEBPS/content.opf' named by META-INF/container.xml is missing") ?? false,
            f2?.message ?? "")
        let notZip = try dir.write("plain.epub", Data("just text, not a zip".utf8))
        XCTAssertEqual(failure { _ = try EPUBPublication(path: notZip) }?.status, SHELF_E_BAD_DATA)
    }

    func testMissingSpineItemsAreSkippedWithWarnings() throws {
        let opf = Books.epub2OPF.replacingOccurrences(
            of: "<itemref idref=\"ch2\"/>",
            with: "<itemref idref=\"ghost\"/><itemref idref=\"ch2\"/><itemref idref=\"lost\"/>"
        )
        .replacingOccurrences(
            of: "</manifest>",
            with: "<item id=\"lost\" href=\"text/lost.xhtml\" media-type=\"application/xhtml+xml\"/></manifest>")
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/content.opf" ? ($0.0, Data(opf.utf8)) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("ghost.epub", entries))
        XCTAssertTrue(
            pub.warnings.contains { $0.contains("spine item 'ghost' is not in the manifest") }, "\(pub.warnings)")
        XCTAssertTrue(pub.warnings.contains { $0.contains("which the archive does not hold") }, "\(pub.warnings)")
        XCTAssertEqual(try pub.manifest().readingOrder.count, 4)
        XCTAssertEqual(
            failure {
                _ = try pub.render(at: Locator(href: "OEBPS/text/lost.xhtml", type: ""), settings: RenderSettings())
            }?.status, SHELF_E_NOT_FOUND)
        XCTAssertNoThrow(try pub.positions())
        XCTAssertNoThrow(try pub.search("whale", limit: 10))
        let onlyGhosts = Books.epub2OPF.replacingOccurrences(of: "idref=\"", with: "idref=\"x")
        let f = failure {
            _ = try EPUBPublication(
                path: try dir.zip(
                    "ghosts.epub",
                    Books.epub2Entries().map { $0.0 == "OEBPS/content.opf" ? ($0.0, Data(onlyGhosts.utf8)) : $0 }))
        }
        XCTAssertEqual(f?.status, SHELF_E_BAD_DATA)
    }

    func testCyclicFallbacksAreDetected() throws {
        let opf = Books.epub2OPF.replacingOccurrences(
            of: "</manifest>",
            with: """
                <item id="odd" href="text/odd.foo" media-type="application/x-foo" fallback="odd2"/>
                <item id="odd2" href="text/odd2.foo" media-type="application/x-bar" fallback="odd"/></manifest>
                """
        ).replacingOccurrences(of: "<itemref idref=\"ch2\"/>", with: "<itemref idref=\"ch2\"/><itemref idref=\"odd\"/>")
        let entries =
            Books.epub2Entries().map { $0.0 == "OEBPS/content.opf" ? ($0.0, Data(opf.utf8)) : $0 }
            + [("OEBPS/text/odd.foo", Data("foo".utf8)), ("OEBPS/text/odd2.foo", Data("bar".utf8))]
        let pub = try EPUBPublication(path: try dir.zip("cycle.epub", entries))
        XCTAssertTrue(pub.warnings.contains { $0.contains("fallback chain of 'odd' loops") }, "\(pub.warnings)")
        XCTAssertNoThrow(try pub.manifest())
        XCTAssertNoThrow(try pub.search("foo", limit: 5))
    }

    func testDeepAndLoopingNavigationIsBounded() throws {
        var deep = ""
        for i in 0..<2000 {
            deep += "<navPoint id=\"d\(i)\"><navLabel><text>L\(i)</text></navLabel><content src=\"text/ch2.xhtml\"/>"
        }
        deep += String(repeating: "</navPoint>", count: 2000)
        let ncx = Books.ncx.replacingOccurrences(of: "<navMap>", with: "<navMap>" + deep)
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/toc.ncx" ? ($0.0, Data(ncx.utf8)) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("deep.epub", entries))
        let toc = try XCTUnwrap(try pub.manifest().toc)
        XCTAssertLessThanOrEqual(Navigation.count(toc), 200)
        XCTAssertGreaterThan(Navigation.count(toc), 10)
        // A nav whose entries point at each other and at itself: links, never followed.
        let loopNav = Books.xhtml(
            "Nav",
            "<nav epub:type=\"toc\"><ol><li><a href=\"nav.xhtml\">Me</a><ol><li><a href=\"nav.xhtml#x\">Me again</a></li></ol></li></ol></nav>"
        )
        let p3 = try dir.zip(
            "loop3.epub", Books.epub3Entries().map { $0.0 == "OEBPS/nav.xhtml" ? ($0.0, Data(loopNav.utf8)) : $0 })
        XCTAssertEqual(Navigation.count(try EPUBPublication(path: p3).manifest().toc ?? []), 2)
    }

    func testDeepNestingOnASmallThreadStack() throws {
        // 5000 nested elements, not well-formed (so the HTML parser, which has no depth limit, reads
        // it), rendered on a thread with a 512 KiB stack, as a host's worker thread may have.
        let deep =
            "<html><body>" + String(repeating: "<div><blockquote><ul><li>", count: 1250) + "deep text" + "<p>unclosed"
        var deepNCX = ""
        for i in 0..<3000 {
            deepNCX += "<navPoint id=\"d\(i)\"><navLabel><text>L\(i)</text></navLabel><content src=\"text/ch2.xhtml\"/>"
        }
        let ncx = Books.ncx.replacingOccurrences(of: "<navMap>", with: "<navMap>" + deepNCX)
        // 200 levels: within libxml2's own limit (256), beyond ours (40 to render, 128 to copy).
        let kept = Books.xhtml(
            "Deep",
            String(repeating: "<div><span>", count: 100) + "deep text" + String(repeating: "</span></div>", count: 100))
        let entries = Books.epub2Entries().map {
            $0.0 == "OEBPS/text/ch2.xhtml"
                ? ($0.0, Data(deep.utf8))
                : $0.0 == "OEBPS/toc.ncx"
                    ? ($0.0, Data(ncx.utf8))
                    : $0.0 == "OEBPS/text/notes.xhtml" ? ($0.0, Data(kept.utf8)) : $0
        }
        let path = try dir.zip("deep-html.epub", entries)
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var text = ""; var html = 0; var error: Error? }
        let box = Box()
        let thread = Thread {
            do {
                let pub = try EPUBPublication(path: path)
                _ = try pub.manifest()
                let at = Locator(href: "OEBPS/text/ch2.xhtml", type: "")
                box.text = String(
                    decoding: try pub.render(at: at, settings: RenderSettings(as: .text, width: 60)).content,
                    as: UTF8.self)
                box.html = try pub.render(at: at, settings: RenderSettings(as: .html)).content.count
                _ = try pub.search("deep", limit: 10)
                let notes = Locator(href: "OEBPS/text/notes.xhtml", type: "")
                box.text = String(
                    decoding: try pub.render(at: notes, settings: RenderSettings(as: .text, width: 60)).content,
                    as: UTF8.self)
                box.html = try pub.render(at: notes, settings: RenderSettings(as: .html)).content.count
            } catch { box.error = error }
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(box.error)
        XCTAssertGreaterThan(box.html, 0)
        XCTAssertTrue(box.text.contains("deep text"), "text below the depth limit is kept")
    }

    func capturingStandardError(_ body: () throws -> Void) rethrows -> String {
        try dir.capturingStandardError(body)
    }

    func testAPluginNeverPrintsEvenWhenLibxml2Complains() throws {
        // Bytes that are not Shift_JIS make libxml2's encoder report through its global handler.
        var bad = Data(
            "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>".utf8)
        bad.append(contentsOf: [0x82, 0xFF, 0x82])
        bad.append(Data("</p><p>after</p></body></html>".utf8))
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/text/ch2.xhtml" ? ($0.0, bad) : $0 }
        let path = try dir.zip("sjis.epub", entries)
        let printed = try capturingStandardError {
            _ = try XML.parse(bad, name: "bad.xhtml", htmlFallback: true)
            let pub = try EPUBPublication(path: path)
            _ = try? pub.render(at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings())
            _ = try pub.search("after", limit: 5)
        }
        XCTAssertEqual(printed, "", "the plugin wrote to standard error")
    }

    func testInvalidUTF8IsRecovered() throws {
        var bytes = Data(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>Bad</title></head><body><h1>Bad Bytes</h1><p>left "
                .utf8)
        bytes.append(contentsOf: [0xFF, 0xFE, 0xC3])
        bytes.append(Data(" right side text</p><p>Second paragraph survives.</p></body></html>".utf8))
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/text/ch2.xhtml" ? ($0.0, bytes) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("utf8.epub", entries))
        let text = String(
            decoding: try pub.render(at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings())
                .content, as: UTF8.self)
        XCTAssertTrue(text.contains("left"), text)
        XCTAssertTrue(text.contains("Second paragraph survives."), text)
    }

    func testHTMLishXHTMLIsRecovered() throws {
        let sloppy =
            "<html><head><title>t</title></head><body><p>Unclosed &nbsp;para<br><p>Another &eacute;t&eacute; <b>bold</body>"
        let entries = Books.epub2Entries().map { $0.0 == "OEBPS/text/ch2.xhtml" ? ($0.0, Data(sloppy.utf8)) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("sloppy.epub", entries))
        let text = String(
            decoding: try pub.render(at: Locator(href: "OEBPS/text/ch2.xhtml", type: ""), settings: RenderSettings())
                .content, as: UTF8.self)
        XCTAssertTrue(text.contains("Unclosed") && text.contains("para"), text)
        XCTAssertTrue(text.contains("été"), text)
    }

    func testMultipleRenditionsTakeTheFirst() throws {
        let container = Books.container.replacingOccurrences(
            of: "</rootfiles>",
            with: "<rootfile full-path=\"OEBPS/other.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles>")
        let entries = Books.epub2Entries().map { $0.0 == "META-INF/container.xml" ? ($0.0, Data(container.utf8)) : $0 }
        let pub = try EPUBPublication(path: try dir.zip("multi.epub", entries))
        XCTAssertEqual(pub.book.otherRenditions, ["OEBPS/other.opf"])
        XCTAssertTrue(pub.warnings.contains { $0.contains("2 renditions") })
    }
}
