import Foundation
@testable import Host
@testable import ShelfPlugins
@testable import Readium
import XCTest

/// A manifest's subcollections kept as links against the plain `JSONValue` they stand for, and the reader on
/// damaged text. Objects are written with their members in name order, so a shortcut must write the very bytes
/// of the plain path.
final class ManifestJSONTests: XCTestCase {
    func testObjectsAreWrittenInNameOrderWhateverTheHashSeed() throws {
        let names = ["title", "author", "language", "identifier", "publisher", "modified", "subject", "description"]
        let metadata = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, JSONValue.number(Double($0))) })
        let text = String(
            decoding: ReadiumJSON.wire(JSONValue.object(["metadata": .object(metadata), "a": .null])), as: UTF8.self)
        let expected =
            "{\"a\":null,\"metadata\":{"
            + names.sorted().map { name in
                "\"\(name)\":\(names.firstIndex(of: name)!)"
            }.joined(separator: ",") + "}}"
        XCTAssertEqual(text, expected)
    }

    func randomLinks(_ rng: inout SplitMix, depth: Int = 0) -> [Link] {
        (0..<Int(rng.next() % 5)).map { i in
            func maybe<T>(_ value: @autoclosure () -> T) -> T? { rng.next() % 2 == 0 ? value() : nil }
            var link = Link(
                href: "ch\(i).xhtml#p\(rng.next() % 100)", type: maybe("application/xhtml+xml"),
                title: maybe("Titre « \(i) » \"quoted\" \\ \u{1}"))
            link.rel = maybe((0..<Int(rng.next() % 3)).map { ["cover", "bodymatter", "toc"][$0] })
            link.properties = maybe(["page": .string("left"), "n": .number(Double(i)), "on": .bool(true)])
            link.duration = maybe(12.5)
            link.extra = rng.next() % 4 == 0 ? ["width": .number(600)] : [:]
            if depth < 3 { link.children = maybe(randomLinks(&rng, depth: depth + 1)) }
            return link
        }
    }

    /// Link objects as the subcollection format describes them, built plainly: "href", and "type", "title",
    /// "rel" (a string when there is one), "properties" and "children" (when not empty).
    func plainLinkObjects(_ links: [Link]) -> JSONValue {
        .array(
            links.map { l in
                var o: [String: JSONValue] = ["href": .string(l.href)]
                if let t = l.type { o["type"] = .string(t) }
                if let t = l.title { o["title"] = .string(t) }
                if let r = l.rel { o["rel"] = r.count == 1 ? .string(r[0]) : .array(r.map { .string($0) }) }
                if let p = l.properties { o["properties"] = .object(p) }
                if let c = l.children, !c.isEmpty { o["children"] = plainLinkObjects(c) }
                return .object(o)
            })
    }

    func testLinkObjectsAreWrittenAsTheirJSONValue() throws {
        var rng = SplitMix(seed: 3)
        for round in 0..<300 {
            let landmarks = randomLinks(&rng)
            let pages = randomLinks(&rng)
            var plain = Manifest(metadata: ["title": .string("T")], readingOrder: [Link(href: "a.xhtml")])
            plain.subcollections["x-other"] = .array([.number(1)])
            plain.subcollections["landmarks"] = plainLinkObjects(landmarks)
            plain.subcollections["pageList"] = plainLinkObjects(pages)
            var fast = Manifest(metadata: ["title": .string("T")], readingOrder: [Link(href: "a.xhtml")])
            fast.subcollections["x-other"] = .array([.number(1)])
            fast.setLinkObjects(landmarks, in: "landmarks")
            fast.setLinkObjects(pages, in: "pageList")
            guard case .linkObjects? = fast.others["landmarks"], case .linkObjects? = fast.others["pageList"] else {
                return XCTFail("the links are kept as links")
            }

            let plainWire = ReadiumJSON.wire(plain), fastWire = ReadiumJSON.wire(fast)
            XCTAssertEqual(try JSONReader.parse(fastWire), try JSONReader.parse(plainWire), "round \(round)")
            XCTAssertEqual(fastWire, plainWire, "round \(round)")
            XCTAssertEqual(ReadiumJSON.encode(fast), ReadiumJSON.encode(plain), "Codable, sorted keys")
            XCTAssertEqual(fast, plain)
            XCTAssertEqual(fast.subcollections, plain.subcollections)
            XCTAssertEqual(fast.links(in: "landmarks"), plain.links(in: "landmarks"))
            XCTAssertEqual(try Manifest.parse(fastWire), plain)
            // Setting `subcollections` as a whole turns every member into a value, and changes nothing else.
            var set = fast
            set.subcollections["x-other"] = .array([.number(2)])
            guard case .value? = set.others["landmarks"] else { return XCTFail("a value") }
            set.subcollections["x-other"] = .array([.number(1)])
            XCTAssertEqual(try JSONReader.parse(ReadiumJSON.wire(set)), try JSONReader.parse(plainWire))
            XCTAssertEqual(ReadiumJSON.wire(set), plainWire, "round \(round)")
        }
    }

    // MARK: Damaged text

    let fragments: [String] = [
        #"[{"href":"OPS/cover.xml","type":"application/xhtml+xml","title":"Cover","rel":"cover"},{"href":"a.xhtml#x","rel":["toc","x"],"children":[{"href":"b"}]}]"#,
        #"[{"href":"é.xhtml","title":"Titre « un » \u00e9 \ud83d\ude00 \" \\ \/ \n","properties":{"page":"left","n":-1.5e3,"on":true,"off":false,"no":null}}]"#,
        #"{"a":[1,2.5,-0,0.125,1E+2,[],{},[[[]]]],"b":{"c":{"d":"e"}},"f":"\t"}"#,
        #" [ { "href" : "x" , "title" : "y" } , 12 , "z" , null ] "#,
        #"[{"href":"a","href":"b"}]"#, #"[{"a":1,"b":{"a":2},"a":3}]"#, #"[{"hr\u0065f":"a","href":"b"}]"#,
        #"[{"é":1,"e\u0301":2}]"#, #"["\ud800"]"#, #"["\udc00x"]"#, #"["\x"]"#, "[\"\u{01}\"]", #"[1e999]"#, #"[01]"#,
        #"[1.]"#, #"[-]"#, #"[tru]"#, #"[nul]"#, #"[1,]"#, #"[,1]"#, #"{"a" 1}"#, #"{"a":1,}"#, #"{1:2}"#, #"[1 2]"#,
        #"["abc"#, "[", String(repeating: "[", count: 520) + String(repeating: "]", count: 520),
        String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
    ]

    /// Every fragment, whole and damaged (bytes replaced, dropped or doubled), as a whole document and as a
    /// manifest's landmarks: read, or refused with a reason, never a crash; what the value reader takes, the
    /// manifest reader reads as the same value (nested one level deeper, only the depth bound may refuse it).
    func testDamagedTextIsReadOrRefusedAndNeverCrashes() {
        var rng = SplitMix(seed: 5)
        let damage: [UInt8] =
            Array("\"\\{}[],:0123456789.eE+-tfnu \t\nxé".utf8) + [0x00, 0x1F, 0x80, 0xBF, 0xC3, 0xED, 0xFF]
        for round in 0..<20_000 {
            var text = Array(fragments[round % fragments.count].utf8)
            if round >= fragments.count {
                for _ in 0...(rng.next() % 3) where !text.isEmpty {
                    let at = Int(rng.next() % UInt64(text.count))
                    switch rng.next() % 3 {
                    case 0: text[at] = damage[Int(rng.next() % UInt64(damage.count))]
                    case 1: text.remove(at: at)
                    default: text.insert(text[at], at: at)
                    }
                }
            }
            let what = "round \(round): \(String(decoding: text, as: UTF8.self))"
            var value: JSONValue?
            do { value = try JSONReader.parse(Data(text)) } catch {
                XCTAssertFalse((error as? JSONError)?.reason.isEmpty ?? true, what)
            }
            let manifest = Data(#"{"metadata":{},"readingOrder":[],"landmarks":"#.utf8) + Data(text) + Data("}".utf8)
            do {
                let read = try Manifest.parse(manifest)
                // (Text refused alone may make a manifest with the "}" after it, as a fragment that lost its own.)
                if let value { XCTAssertEqual(read.subcollections["landmarks"], value, what) }
            } catch {
                XCTAssertFalse((error as? JSONError)?.reason.isEmpty ?? true, what)
                if value != nil { XCTAssertTrue("\(error)".contains("nested deeper"), "\(what): \(error)") }
            }
        }
    }

    func testStringsAreReadWhereverTheirSpecialBytesStand() throws {
        // A byte that ends or breaks the plain run of a string at every offset of strings of up to 40 bytes:
        // before, inside and after the eight-byte blocks the reader checks at once.
        let probes: [(bytes: [UInt8], decoded: String?)] = [
            (Array(#"\n"#.utf8), "\n"), (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"),
            (Array(#"\u00e9"#.utf8), "é"),
            ([0xC3, 0xA9], "é"), ([0x7F], "\u{7F}"), ([0x20], " "), ([0x1F], nil), ([0x00], nil), ([0x09], nil),
            ([0xFF], nil),
            ([0xC3], nil), (Array(#"\x"#.utf8), nil)
        ]
        for length in 0...40 {
            for offset in 0...length {
                for probe in probes {
                    let before = String(repeating: "a", count: offset),
                        after = String(repeating: "b", count: length - offset)
                    let text =
                        Array("[\"".utf8) + Array(before.utf8) + probe.bytes + Array(after.utf8) + Array("\"]".utf8)
                    let expected = probe.decoded.map { JSONValue.array([.string(before + $0 + after)]) }
                    XCTAssertEqual(
                        try? JSONReader.parse(Data(text)), expected, "\(probe.bytes) at \(offset) of \(length)")
                }
            }
        }
        // Unterminated, with and without special bytes near the end.
        for tail in ["", "a", "abcdefgh", "abcdefghi", "\\", "é"] {
            XCTAssertThrowsError(try JSONReader.parse("[\"" + tail), tail)
        }
    }

    func testSubcollectionsReadBackAsTheValuesThatWereWritten() throws {
        var rng = SplitMix(seed: 13)
        for round in 0..<100 {
            var m = Manifest(metadata: ["title": .string("T")], readingOrder: [Link(href: "a.xhtml")])
            m.subcollections["x-number"] = .number(3)
            let landmarks = randomLinks(&rng), pages = randomLinks(&rng)
            m.setLinkObjects(landmarks, in: "landmarks")
            m.setLinkObjects(pages, in: "pageList")
            let wire = ReadiumJSON.wire(m)
            let read = try Manifest.parse(wire)
            XCTAssertEqual(read, m, "round \(round)")
            XCTAssertEqual(read.subcollections["landmarks"], plainLinkObjects(landmarks))
            XCTAssertEqual(read.subcollections["x-number"], .number(3))
            XCTAssertEqual(read.links(in: "pageList"), m.links(in: "pageList"))
            XCTAssertEqual(ReadiumJSON.encode(read), ReadiumJSON.encode(m), "Codable, sorted keys")
            XCTAssertEqual(ReadiumJSON.wire(read), wire, "round \(round)")
        }
        let escapedKey = Data(#"{"metadata":{},"readingOrder":[],"landmarks":[{"hr\u0065f":"a"}]}"#.utf8)
        XCTAssertEqual(
            try Manifest.parse(escapedKey).subcollections["landmarks"], .array([.object(["href": .string("a")])]))
        XCTAssertEqual(try Manifest.parse(escapedKey).links(in: "landmarks"), [Link(href: "a")])
        let duplicate = Data(#"{"metadata":{},"readingOrder":[],"landmarks":[{"href":"a","href":"b"}]}"#.utf8)
        XCTAssertEqual(try Manifest.parse(duplicate).links(in: "landmarks"), [Link(href: "b")], "the last one wins")
        let notLinks = Data(#"{"metadata":{},"readingOrder":[],"landmarks":{"href":"a"}}"#.utf8)
        XCTAssertEqual(
            try Manifest.parse(notLinks).links(in: "landmarks"), [],
            "a subcollection that is no array of links has none")
    }

    func testRepeatedMediaTypesReadAsTheValueReaderReadsThem() throws {
        // The same bytes again, and near misses: longer, shorter, escaped, with a quote or a control character
        // inside, not a string at all.
        let types = [
            #""application/xhtml+xml""#, #""application/xhtml+xml""#, #""application/xhtml+xmlx""#,
            #""application/xhtml+xm""#, #""application\/xhtml+xml""#, #""application/xhtml+xml""#, "null",
            #""a\"b""#, #""a\"b""#, #""a\nb""#, #""a\nb""#, #""é/ü""#, #""é/ü""#, #""""#, #""""#, #""a""#,
            #""a""#, #""a\u0000""#, #""a""#, "1", #""image/png""#
        ]
        var rng = SplitMix(seed: 17)
        for round in 0..<200 {
            let links = (0..<Int(rng.next() % 12)).map { i in
                #"{"href":"\#(i)","type":"# + types[Int(rng.next() % UInt64(types.count))] + "}"
            }
            let text = Data((#"{"metadata":{},"readingOrder":["# + links.joined(separator: ",") + "]}").utf8)
            // What each link's type is in the plain value: a string, null (none), or anything else (refused).
            let plain = try? JSONReader.parse(text)
            var expected: [String?]? = []
            for link in plain?["readingOrder"]?.array ?? [] {
                switch link["type"] {
                case .string(let s)?: expected?.append(s)
                case .null?: expected?.append(nil)
                default: expected = nil
                }
            }
            if plain == nil { expected = nil }
            XCTAssertEqual(
                (try? JSONReader.manifest(text))?.readingOrder.map(\.type), expected,
                "round \(round): \(String(decoding: text, as: UTF8.self))")
        }
    }

    func testSubcollectionsSetAsAWholeOrOneByOneAreWrittenInNameOrder() {
        var m = Manifest(metadata: [:], readingOrder: [])
        var plain: [String: JSONValue] = [:]
        for i in 0..<40 {
            m.subcollections["k\(i)"] = .number(Double(i))
            plain["k\(i)"] = .number(Double(i))
        }
        XCTAssertEqual(m.subcollections, plain)
        m.subcollections = plain
        XCTAssertEqual(Array(m.subcollections.keys), Array(plain.keys))
        var w = JSONWriter()
        try? m.write(to: &w)
        let text = String(decoding: w.bytes, as: UTF8.self)
        let positions = plain.keys.sorted().map { text.range(of: "\"\($0)\":")!.lowerBound }
        XCTAssertEqual(positions, positions.sorted(), "written in name order")
    }
}
