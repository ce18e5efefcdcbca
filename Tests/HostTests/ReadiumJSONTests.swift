import Foundation
import Readium
import XCTest

/// The Readium shapes' one JSON reader and writer (Sources/Readium: JSONReader, JSONWriter, ShapesJSON) against
/// Foundation's JSONSerialization, and the Codable conformances that go through them.
final class ReadiumJSONTests: XCTestCase {
    let tricky =
        "quote \" backslash \\ slash / tab \t newline \n cr \r bell \u{07} nul \u{00} unit \u{1F} del \u{7F} "
        + "é ü 日本語 עברית 😀 \u{2028}"

    func sampleLocators() -> [Locator] {
        [
            Locator(
                href: "OEBPS/ch1.xhtml", type: "application/xhtml+xml", title: "Chapitre 1 — « début »",
                locations: .init(position: 1, progression: 0, totalProgression: 0)),
            Locator(
                href: "ch 2.xhtml#frag", type: "",
                locations: .init(
                    position: 42, progression: 0.125, totalProgression: 1e-05,
                    fragments: ["a", tricky]),
                text: .init(before: tricky, highlight: "mid", after: nil)),
            Locator(href: "x", type: "text/html"),
            Locator(href: "", type: "t", locations: .init(progression: 0.3333333333333333, totalProgression: 1))
        ]
    }

    func sampleManifest() -> Manifest {
        var m = Manifest(
            metadata: [
                "title": .string(tricky), "n": .number(3), "big": .number(1e20), "neg": .number(-2.5),
                "flags": .array([.bool(true), .bool(false), .null]),
                "author": .object(["name": .object(["en": .string("A"), "fr": .string("É")])])
            ],
            links: [Link(href: "self.json", type: "application/webpub+json", rel: ["self"])],
            readingOrder: [
                Link(
                    href: "c1.xhtml", type: "application/xhtml+xml", title: "One",
                    properties: ["page": .string("right")], duration: 12.5,
                    children: [Link(href: "c1.xhtml#a", title: tricky)])
            ],
            resources: [Link(href: "cover.jpg", type: "image/jpeg", rel: ["cover"])],
            toc: [Link(href: "c1.xhtml", title: "One", children: [Link(href: "c1.xhtml#b")])])
        m.readingOrder[0].extra["width"] = .number(600)
        m.readingOrder[0].extra["language"] = .string("en")
        m.setLinks([Link(href: "c1.xhtml", title: "Start", rel: ["bodymatter"])], in: "landmarks")
        m.subcollections["x-vendor"] = .object(["anything": .array([.number(1), .bool(true), .null])])
        return m
    }

    func testLocatorsRoundTripAndFoundationReadsTheSameValues() throws {
        let locators = sampleLocators()
        let wire = ReadiumJSON.wire(locators)
        XCTAssertEqual(try ReadiumJSON.decode([Locator].self, from: wire), locators)
        XCTAssertEqual(try JSONReader.locators(wire), locators)
        XCTAssertEqual(
            try JSONDecoder().decode([Locator].self, from: wire), locators, "Codable reads through the reader")
        XCTAssertEqual(
            try JSONReader.locators(JSONEncoder().encode(locators)), locators, "Codable writes through the writer")
        XCTAssertEqual(try Locator.parse(locators[1].jsonString()), locators[1])
        XCTAssertEqual(try JSONReader.locator(Data(locators[1].jsonString().utf8)), locators[1])
        // Foundation's own reader sees the same JSON values.
        let ours = try JSONSerialization.jsonObject(with: wire) as? NSArray
        let again = try JSONSerialization.jsonObject(with: JSONEncoder().encode(locators)) as? NSArray
        XCTAssertEqual(ours, again)
        XCTAssertEqual((ours?[1] as? NSDictionary)?["href"] as? String, "ch 2.xhtml#frag")
    }

    func testLocatorsInOddButValidShapes() throws {
        // Members in any order, nulls, unknown members at every level, a name written with escapes, and a member
        // named twice (the last one wins, as in JavaScript).
        let odd =
            #" [ {"extra":{"a":[1,{"b":null}]},"href":"a\u00e9","type":null,"locations":{"position":7,"other":"x","fragments":null},"#
            + #""text":{"highlight":"h\n","more":1},"href":"b"} , {"hr\u0065f":"c","locations":null,"text":null}] "#
        let parsed = try ReadiumJSON.decode([Locator].self, from: Data(odd.utf8))
        XCTAssertEqual(parsed.count, 2)
        XCTAssertEqual(parsed[0].href, "b", "the last of a member named twice")
        XCTAssertEqual(parsed[0].type, "")
        XCTAssertEqual(parsed[0].locations.position, 7)
        XCTAssertEqual(parsed[0].locations.extra["other"], .string("x"))
        XCTAssertEqual(parsed[0].extra["extra"], .object(["a": .array([.number(1), .object(["b": .null])])]))
        XCTAssertEqual(parsed[0].text?.highlight, "h\n")
        XCTAssertEqual(parsed[1], Locator(href: "c", type: ""), "\"hr\\u0065f\" is \"href\"")
        // Through Codable, Foundation's parser comes first and keeps the first of a member named twice.
        XCTAssertEqual(try JSONDecoder().decode([Locator].self, from: Data(odd.utf8)).last, parsed.last)
        XCTAssertEqual(try JSONReader.locators(Data("[]".utf8)), [])
    }

    /// Hostile or broken input: refused with an error that says what is wrong and where, never a crash.
    func testBadLocatorsAreRefusedSayingWhatAndWhere() {
        let bad: [(String, String)] = [
            ("[{}]", "without \"href\""), ("[{\"href\":1}]", "\"href\" is not a string"),
            ("[{\"href\":\"a\",\"locations\":{\"position\":1.5}}]", "\"position\" is not a whole number"),
            ("[{\"href\":\"a\"}", "ends in the middle"), ("{\"href\":\"a\"}", "expected an array"),
            ("[{\"href\":\"a\",\"text\":{\"after\":2}}]", "expected a string"),
            ("[{\"href\":\"a\",\"locations\":{\"fragments\":[1]}}]", "array of strings"),
            ("[{\"href\":\"a\"}] x", "trailing characters"), ("[{\"href\":\"\\ud800\"}]", "lone surrogate"),
            (
                "[{\"href\":\"a\",\"x\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
                    + "}]", "nested deeper"
            )
        ]
        for (text, reason) in bad {
            XCTAssertThrowsError(try ReadiumJSON.decode([Locator].self, from: Data(text.utf8)), text) { error in
                let message = (error as? JSONError)?.reason ?? ""
                XCTAssertTrue(message.contains(reason), "\(text): \(message)")
                if reason != "without \"href\"" && reason != "ends in the middle" {
                    XCTAssertTrue(message.contains("byte"), "where: \(message)")
                }
            }
            XCTAssertThrowsError(
                try JSONDecoder().decode([Locator].self, from: Data(text.utf8)), "Codable refuses it too: \(text)")
        }
        XCTAssertThrowsError(try Locator.parse(#"{"type":"a"}"#), "href is required")
    }

    func testManifestsRoundTripWhole() throws {
        let manifest = sampleManifest()
        let wire = ReadiumJSON.wire(manifest)
        XCTAssertEqual(try Manifest.parse(wire), manifest)
        XCTAssertEqual(try JSONDecoder().decode(Manifest.self, from: wire), manifest)
        XCTAssertEqual(try Manifest.parse(JSONEncoder().encode(manifest)), manifest)
        XCTAssertEqual(manifest.links(in: "landmarks").first?.rel, ["bodymatter"])
        // Codable writes the same JSON values as the writer, whatever the encoder's options.
        let ours = try JSONSerialization.jsonObject(with: wire) as? NSDictionary
        let theirs =
            try JSONSerialization.jsonObject(with: Data(ReadiumJSON.encode(manifest, pretty: true).utf8))
            as? NSDictionary
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(
            (ours?["readingOrder"] as? [NSDictionary])?.first?["width"] as? Int, 600, "unknown members are kept")
    }

    func testManifestsInOddButValidShapes() throws {
        // Nulls, a lone rel, a duration that is no number, unknown members, nested children.
        let odd =
            #"{"metadata":{"title":"T"},"@context":null,"links":null,"resources":[{"href":"r","rel":"cover","duration":"x","#
            + #""properties":null,"x":[1]}],"readingOrder":[{"href":"a","type":null,"children":[{"href":"b","children":null}]}],"#
            + #""toc":null,"landmarks":[{"href":"a"}]}"#
        let read = try JSONReader.manifest(Data(odd.utf8))
        XCTAssertEqual(read, try JSONDecoder().decode(Manifest.self, from: Data(odd.utf8)))
        XCTAssertNil(read.context)
        XCTAssertEqual(read.links, [])
        XCTAssertEqual(read.resources?.first?.rel, ["cover"])
        XCTAssertNil(read.resources?.first?.duration, "a duration that is no number is left out")
        XCTAssertEqual(read.resources?.first?.extra["x"], .array([.number(1)]))
        XCTAssertEqual(read.readingOrder.first?.children?.first?.href, "b")
        XCTAssertEqual(read.links(in: "landmarks"), [Link(href: "a")])
        let twice = try Manifest.parse(
            Data(#"{"metadata":{},"readingOrder":[{"href":"a","href":"b"}],"readingOrder":[{"hr\u0065f":"c"}]}"#.utf8))
        XCTAssertEqual(
            twice.readingOrder, [Link(href: "c")], "the last of a member named twice; a name written with escapes")
    }

    /// Hostile or broken manifests: refused with an error that says what is wrong, never a crash.
    func testBadManifestsAreRefusedSayingWhat() {
        let bad: [(String, String)] = [
            (#"{"metadata":[],"readingOrder":[]}"#, "\"metadata\" is not an object"),
            (#"{"readingOrder":[]}"#, "without \"metadata\""), (#"{"metadata":{}}"#, "without \"readingOrder\""),
            (#"{"metadata":{},"readingOrder":[{"title":"no href"}]}"#, "a link without \"href\""),
            (#"{"metadata":{},"readingOrder":[],"toc":{}}"#, "expected an array"),
            (#"{"metadata":{},"readingOrder":[{"href":"a","properties":[]}]}"#, "\"properties\" is not an object"),
            (#"{"metadata":{},"readingOrder":[1]}"#, "expected a link"),
            (#"{"metadata":{},"readingOrder":[],}"#, "expected a key"),
            ("{\"metadata\":{},\"readingOrder\":[],\"x\":\"\u{01}\"}", "control character"),
            (#"{"metadata":{"n":1e999},"readingOrder":[]}"#, "number out of range"),
            (
                #"{"metadata":{},"readingOrder":["# + String(repeating: #"{"href":"a","children":["#, count: 600)
                    + String(repeating: "]}", count: 600) + "]}", "nested deeper"
            )
        ]
        for (text, reason) in bad {
            XCTAssertThrowsError(try Manifest.parse(Data(text.utf8)), text) { error in
                XCTAssertTrue(((error as? JSONError)?.reason ?? "").contains(reason), "\(text): \(error)")
            }
            // Foundation's parser, which comes first through Codable, takes a trailing comma; the rest it refuses too.
            if reason != "expected a key" {
                XCTAssertThrowsError(
                    try JSONDecoder().decode(Manifest.self, from: Data(text.utf8)), "Codable refuses it too: \(text)")
            }
        }
        XCTAssertThrowsError(
            try Manifest.parse(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])), "a name that is not UTF-8")
    }

    func testStringEscaping() throws {
        var writer = JSONWriter()
        writer.string(tricky)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        XCTAssertTrue(
            text.hasPrefix(
                #""quote \" backslash \\ slash / tab \t newline \n cr \r bell \u0007 nul \u0000 unit \u001f"#), text)
        XCTAssertTrue(text.contains("é ü 日本語 עברית 😀"), "non-ASCII is written as UTF-8")
        XCTAssertFalse(writer.bytes.contains { $0 < 0x20 }, "no raw control character")
        XCTAssertEqual(
            try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String, tricky)
        XCTAssertEqual(try JSONReader.parse(Data(writer.bytes)), .string(tricky))
        // Escapes Foundation writes, and \u surrogate pairs, read back.
        XCTAssertEqual(try JSONReader.parse(#""a\/b \u00e9 \ud83d\ude00 \u0041""#), .string("a/b é 😀 A"))
        XCTAssertEqual(try JSONReader.parse(Data(try JSONEncoder().encode([tricky]))), .array([.string(tricky)]))
    }

    func testNonFiniteNumbersAreRefusedAsJSONEncoderRefusesThem() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let locator = Locator(href: "a", type: "t", locations: .init(progression: bad))
            XCTAssertEqual(String(decoding: ReadiumJSON.wire(locator), as: UTF8.self), "null")
            XCTAssertEqual(String(decoding: ReadiumJSON.wire(JSONValue.array([.number(bad)])), as: UTF8.self), "null")
            XCTAssertNil(try? JSONEncoder().encode(locator), "Foundation refuses it too")
        }
    }

    func testNumbers() throws {
        let values: [JSONValue] = [
            .number(0), .number(1), .number(-7), .number(0.5), .number(1e-7), .number(123456789012345),
            .number(1e15), .number(1.7976931348623157e308), .number(-0.1)
        ]
        let wire = ReadiumJSON.wire(values)
        XCTAssertEqual(String(decoding: wire, as: UTF8.self).prefix(10), "[0,1,-7,0.")
        XCTAssertEqual(try JSONReader.parse(wire), .array(values))
        XCTAssertEqual(try JSONDecoder().decode([JSONValue].self, from: wire), values)
        XCTAssertEqual(try JSONReader.parse("[-0.25e2, 1E3, 12]"), .array([.number(-25), .number(1000), .number(12)]))
    }

    func testTheReaderIsStrict() {
        for bad in [
            "", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[+1]", "\"\u{01}\"", "\"\\x\"", "[1] x", "{a:1}",
            "[\"\\ud800\"]", "tru", "[1e999]", String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        ] {
            XCTAssertThrowsError(try JSONReader.parse(bad), bad)
        }
        XCTAssertThrowsError(try JSONReader.parse(Data([0x22, 0xFF, 0x22])), "invalid UTF-8")
        XCTAssertEqual(
            try JSONReader.parse(" \n\t{ \"a\" : [ true , null ] } \r\n"), .object(["a": .array([.bool(true), .null])]))
    }

    func testShapesReadAsPluginsWriteThem() throws {
        // A position written as 3.0 and a lone "rel" string.
        let locator = try Locator.parse(#"{"href":"a","locations":{"position":3.0}}"#)
        XCTAssertEqual(locator.locations.position, 3)
        XCTAssertEqual(locator.type, "", "a hand-typed locator may lack a type")
        let link = try ReadiumJSON.decode(
            Link.self, from: Data(#"{"href":"a","rel":"self","duration":"x","bitrate":96}"#.utf8))
        XCTAssertEqual(link.rel, ["self"])
        XCTAssertNil(link.duration, "a duration that is not a number is dropped, as before")
        XCTAssertEqual(link.extra["bitrate"], .number(96))
        XCTAssertEqual(
            link,
            try JSONDecoder().decode(
                Link.self, from: Data(#"{"href":"a","rel":"self","duration":"x","bitrate":96}"#.utf8)))
        // Nulls read as absent.
        let nulls = try Locator.parse(#"{"href":"a","type":null,"title":null,"locations":null,"text":null}"#)
        XCTAssertEqual(nulls, Locator(href: "a", type: ""))
    }

    /// A shape inside a document of the host's (a page, a bookmark) is written with the encoder's options, and
    /// read back, through the one writer and reader.
    func testShapesInsideCodableDocuments() throws {
        struct Page: Codable, Equatable { var number: Int; var locator: Locator; var toc: [Link] }
        var locator = sampleLocators()[1]
        locator.locations.extra["cssSelector"] = .string("#c2 > p")
        let page = Page(number: 4, locator: locator, toc: sampleManifest().toc ?? [])
        let pretty = ReadiumJSON.encode(page, pretty: true)
        XCTAssertTrue(pretty.contains("\n  \"locator\" : {\n    \"href\" : \"ch 2.xhtml#frag\","), pretty)
        XCTAssertTrue(pretty.contains(##""cssSelector" : "#c2 > p""##), pretty)
        XCTAssertEqual(try JSONDecoder().decode(Page.self, from: Data(pretty.utf8)), page)
        XCTAssertThrowsError(
            try JSONDecoder().decode(Page.self, from: Data(#"{"number":1,"locator":{"type":"t"},"toc":[]}"#.utf8))
        ) { error in
            guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["locator"], "where")
            XCTAssertTrue(context.debugDescription.contains("without \"href\""), context.debugDescription)
        }
    }
}
