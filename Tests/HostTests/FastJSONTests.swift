import Foundation
import Readium
import XCTest

/// The hand-written JSON writer and reader (Sources/Readium/FastJSON.swift) against Foundation's.
final class FastJSONTests: XCTestCase {
    let tricky = "quote \" backslash \\ slash / tab \t newline \n cr \r bell \u{07} nul \u{00} unit \u{1F} del \u{7F} "
        + "é ü 日本語 עברית 😀 \u{2028}"

    func sampleLocators() -> [Locator] {
        [
            Locator(href: "OEBPS/ch1.xhtml", type: "application/xhtml+xml", title: "Chapitre 1 — « début »",
                    locations: .init(position: 1, progression: 0, totalProgression: 0)),
            Locator(href: "ch 2.xhtml#frag", type: "", locations: .init(position: 42, progression: 0.125, totalProgression: 1e-05,
                                                                          fragments: ["a", tricky]),
                    text: .init(before: tricky, highlight: "mid", after: nil)),
            Locator(href: "x", type: "text/html"),
            Locator(href: "", type: "t", locations: .init(progression: 0.3333333333333333, totalProgression: 1)),
        ]
    }

    func sampleManifest() -> Manifest {
        var m = Manifest(metadata: ["title": .string(tricky), "n": .number(3), "big": .number(1e20), "neg": .number(-2.5),
                                    "flags": .array([.bool(true), .bool(false), .null]),
                                    "author": .object(["name": .object(["en": .string("A"), "fr": .string("É")])])],
                         links: [Link(href: "self.json", type: "application/webpub+json", rel: ["self"])],
                         readingOrder: [Link(href: "c1.xhtml", type: "application/xhtml+xml", title: "One",
                                             properties: ["page": .string("right")], duration: 12.5,
                                             children: [Link(href: "c1.xhtml#a", title: tricky)])],
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
        XCTAssertEqual(try JSONDecoder().decode([Locator].self, from: wire), locators, "Foundation reads what the fast writer wrote")
        XCTAssertEqual(try ReadiumJSON.decode([Locator].self, from: wire), locators)
        XCTAssertEqual(try [Locator](json: JSONReader.parse(wire)), locators, "the fast reader itself")
        // And the fast reader reads what Foundation wrote.
        let foundation = try JSONEncoder().encode(locators)
        XCTAssertEqual(try [Locator](json: JSONReader.parse(foundation)), locators)
        XCTAssertEqual(try Locator.parse(locators[1].jsonString()), locators[1])
    }

    func testTheStreamingLocatorReaderAgreesWithTheTreeReader() throws {
        let locators = sampleLocators()
        for wire in [ReadiumJSON.wire(locators), try JSONEncoder().encode(locators)] {
            XCTAssertEqual(try JSONReader.locators(wire), locators)
            XCTAssertEqual(try JSONReader.locators(wire), try [Locator](json: JSONReader.parse(wire)))
        }
        let odd = #" [ {"extra":{"a":[1,{"b":null}]},"href":"a\u00e9","type":null,"locations":{"position":7,"other":"x","fragments":null},"#
            + #""text":{"highlight":"h\n","more":1},"href":"b"} , {"href":"c","locations":null,"text":null}] "#
        XCTAssertThrowsError(try JSONReader.locators(Data(odd.utf8)), "duplicate members are left to JSONDecoder")
        XCTAssertThrowsError(try JSONReader.parse(Data(odd.utf8)), "duplicate members are left to JSONDecoder")
        let parsed = try ReadiumJSON.decode([Locator].self, from: Data(odd.utf8))
        XCTAssertEqual(parsed, try JSONDecoder().decode([Locator].self, from: Data(odd.utf8)))
        XCTAssertEqual(parsed.first?.href, "a\u{e9}", "JSONDecoder keeps the first of duplicate members")
        let unique = odd.replacingOccurrences(of: #","href":"b""#, with: "")
        XCTAssertEqual(try JSONReader.locators(Data(unique.utf8)), try JSONDecoder().decode([Locator].self, from: Data(unique.utf8)))
        XCTAssertEqual(try JSONReader.locators(Data(unique.utf8)), try [Locator](json: JSONReader.parse(Data(unique.utf8))))
        XCTAssertEqual(parsed.first?.text?.highlight, "h\n")
        XCTAssertEqual(try JSONReader.locators(Data("[]".utf8)), [])
        for bad in ["[{}]", "[{\"href\":1}]", "[{\"href\":\"a\",\"locations\":{\"position\":1.5}}]", "[{\"href\":\"a\"}", "{\"href\":\"a\"}",
                    "[{\"href\":\"a\",\"text\":{\"after\":2}}]"] {
            XCTAssertThrowsError(try JSONReader.locators(Data(bad.utf8)), bad)
        }
        XCTAssertEqual(try JSONReader.locator(Data(locators[1].jsonString().utf8)), locators[1])
    }

    func testManifestsRoundTripWhole() throws {
        let manifest = sampleManifest()
        let wire = ReadiumJSON.wire(manifest)
        XCTAssertEqual(try JSONDecoder().decode(Manifest.self, from: wire), manifest)
        XCTAssertEqual(try Manifest.parse(wire), manifest)
        XCTAssertEqual(try Manifest(json: JSONReader.parse(try JSONEncoder().encode(manifest))), manifest)
        XCTAssertEqual(manifest.links(in: "landmarks").first?.rel, ["bodymatter"])
        // Same JSON as Foundation's, member for member.
        let ours = try JSONSerialization.jsonObject(with: wire) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(manifest)) as? NSDictionary
        XCTAssertEqual(ours, theirs)
    }

    func testTheStreamingManifestReaderAgreesWithTheTreeReaderAndFoundation() throws {
        let manifest = sampleManifest()
        for wire in [ReadiumJSON.wire(manifest), try JSONEncoder().encode(manifest)] {
            XCTAssertEqual(try JSONReader.manifest(wire), manifest)
            XCTAssertEqual(try JSONReader.manifest(wire), try Manifest(json: JSONReader.parse(wire)))
        }
        // Nulls, a lone rel, a duration that is no number, unknown members, nested children.
        let odd = #"{"metadata":{"title":"T"},"@context":null,"links":null,"resources":[{"href":"r","rel":"cover","duration":"x","#
            + #""properties":null,"x":[1]}],"readingOrder":[{"href":"a","type":null,"children":[{"href":"b","children":null}]}],"#
            + #""toc":null,"landmarks":[{"href":"a"}]}"#
        let fast = try JSONReader.manifest(Data(odd.utf8))
        XCTAssertEqual(fast, try JSONDecoder().decode(Manifest.self, from: Data(odd.utf8)))
        XCTAssertEqual(fast, try Manifest(json: JSONReader.parse(Data(odd.utf8))))
        XCTAssertEqual(fast.resources?.first?.rel, ["cover"])
        XCTAssertEqual(fast.resources?.first?.extra["x"], .array([.number(1)]))
        XCTAssertEqual(fast.readingOrder.first?.children?.first?.href, "b")
        // What the fast path must not decide: left to the exact, slower path (which may still accept it).
        for bad in [#"{"metadata":{},"readingOrder":[{"href":"a","href":"b"}]}"#,          // duplicate member
                    #"{"metadata":{},"readingOrder":[{"hr\u0065f":"a"}]}"#,          // a known key spelled with escapes
                    #"{"metadata":[],"readingOrder":[]}"#, #"{"readingOrder":[]}"#, #"{"metadata":{}}"#,
                    #"{"metadata":{},"readingOrder":[{"title":"no href"}]}"#, #"{"metadata":{},"readingOrder":[],"toc":{}}"#,
                    #"{"metadata":{},"readingOrder":[{"href":"a","properties":[]}]}"#] {
            XCTAssertThrowsError(try JSONReader.manifest(Data(bad.utf8)), bad)
            XCTAssertEqual(try? ReadiumJSON.decode(Manifest.self, from: Data(bad.utf8)),
                           try? JSONDecoder().decode(Manifest.self, from: Data(bad.utf8)), bad)
        }
        let deep = #"{"metadata":{},"readingOrder":["# + String(repeating: #"{"href":"a","children":["#, count: 600)
            + String(repeating: "]}", count: 600) + "]}"
        XCTAssertThrowsError(try JSONReader.manifest(Data(deep.utf8)), "nesting is bounded")
    }

    func testStringEscaping() throws {
        var writer = JSONWriter()
        writer.string(tricky)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#""quote \" backslash \\ slash / tab \t newline \n cr \r bell \u0007 nul \u0000 unit \u001f"#), text)
        XCTAssertTrue(text.contains("é ü 日本語 עברית 😀"), "non-ASCII is written as UTF-8")
        XCTAssertFalse(writer.bytes.contains { $0 < 0x20 }, "no raw control character")
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String, tricky)
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
        let values: [JSONValue] = [.number(0), .number(1), .number(-7), .number(0.5), .number(1e-7), .number(123456789012345),
                                   .number(1e15), .number(1.7976931348623157e308), .number(-0.1)]
        let wire = ReadiumJSON.wire(values)
        XCTAssertEqual(String(decoding: wire, as: UTF8.self).prefix(10), "[0,1,-7,0.")
        XCTAssertEqual(try JSONReader.parse(wire), .array(values))
        XCTAssertEqual(try JSONDecoder().decode([JSONValue].self, from: wire), values)
        XCTAssertEqual(try JSONReader.parse("[-0.25e2, 1E3, 12]"), .array([.number(-25), .number(1000), .number(12)]))
    }

    func testTheReaderIsStrict() {
        for bad in ["", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[+1]", "\"\u{01}\"", "\"\\x\"", "[1] x", "{a:1}",
                    "[\"\\ud800\"]", "tru", "[1e999]", String(repeating: "[", count: 600) + String(repeating: "]", count: 600)] {
            XCTAssertThrowsError(try JSONReader.parse(bad), bad)
        }
        XCTAssertThrowsError(try JSONReader.parse(Data([0x22, 0xFF, 0x22])), "invalid UTF-8")
        XCTAssertEqual(try JSONReader.parse(" \n\t{ \"a\" : [ true , null ] } \r\n"), .object(["a": .array([.bool(true), .null])]))
    }

    func testShapesTheFastPathDoesNotTakeFallBackToFoundation() throws {
        // A position written as 3.0 and a lone "rel" string: read as Foundation reads them.
        let locator = try Locator.parse(#"{"href":"a","locations":{"position":3.0}}"#)
        XCTAssertEqual(locator.locations.position, 3)
        XCTAssertEqual(locator.type, "", "a hand-typed locator may lack a type")
        XCTAssertThrowsError(try Locator.parse(#"{"href":"a","locations":{"position":3.5}}"#))
        XCTAssertThrowsError(try Locator.parse(#"{"type":"a"}"#), "href is required")
        XCTAssertThrowsError(try ReadiumJSON.decode([Locator].self, from: Data("[{\"href\":1}]".utf8)))
        let link = try ReadiumJSON.decode(Link.self, from: Data(#"{"href":"a","rel":"self","duration":"x","bitrate":96}"#.utf8))
        XCTAssertEqual(link.rel, ["self"])
        XCTAssertNil(link.duration, "a duration that is not a number is dropped, as before")
        XCTAssertEqual(link.extra["bitrate"], .number(96))
        XCTAssertEqual(link, try JSONDecoder().decode(Link.self, from: Data(#"{"href":"a","rel":"self","duration":"x","bitrate":96}"#.utf8)))
        // Nulls read as absent.
        let nulls = try Locator.parse(#"{"href":"a","type":null,"title":null,"locations":null,"text":null}"#)
        XCTAssertEqual(nulls, Locator(href: "a", type: ""))
    }
}
