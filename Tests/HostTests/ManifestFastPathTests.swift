import Foundation
@testable import Host
@testable import ShelfPlugins
@testable import Readium
import XCTest

/// The shortcuts of a manifest's subcollections against the plain `JSONValue` they stand for. Objects are
/// written with their members in name order, so a shortcut must write the very bytes of the plain path.
final class ManifestFastPathTests: XCTestCase {
    func testObjectsAreWrittenInNameOrderWhateverTheHashSeed() throws {
        let names = ["title", "author", "language", "identifier", "publisher", "modified", "subject", "description"]
        let metadata = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, JSONValue.number(Double($0))) })
        let text = String(decoding: ReadiumJSON.wire(JSONValue.object(["metadata": .object(metadata), "a": .null])), as: UTF8.self)
        let expected = "{\"a\":null,\"metadata\":{" + names.sorted().map { name in
            "\"\(name)\":\(names.firstIndex(of: name)!)"
        }.joined(separator: ",") + "}}"
        XCTAssertEqual(text, expected)
    }

    func randomLinks(_ rng: inout SplitMix, depth: Int = 0) -> [Link] {
        (0..<Int(rng.next() % 5)).map { i in
            func maybe<T>(_ value: @autoclosure () -> T) -> T? { rng.next() % 2 == 0 ? value() : nil }
            var link = Link(href: "ch\(i).xhtml#p\(rng.next() % 100)", type: maybe("application/xhtml+xml"),
                            title: maybe("Titre « \(i) » \"quoted\" \\ \u{1}"))
            link.rel = maybe((0..<Int(rng.next() % 3)).map { ["cover", "bodymatter", "toc"][$0] })
            link.properties = maybe(["page": .string("left"), "n": .number(Double(i)), "on": .bool(true)])
            link.duration = maybe(12.5)
            link.extra = rng.next() % 4 == 0 ? ["width": .number(600)] : [:]
            if depth < 3 { link.children = maybe(randomLinks(&rng, depth: depth + 1)) }
            return link
        }
    }

    func testLinkObjectsAreWrittenAsTheirJSONValue() throws {
        var rng = SplitMix(seed: 3)
        for round in 0..<300 {
            let landmarks = randomLinks(&rng)
            let pages = randomLinks(&rng)
            var plain = Manifest(metadata: ["title": .string("T")], readingOrder: [Link(href: "a.xhtml")])
            plain.subcollections["x-other"] = .array([.number(1)])
            plain.subcollections["landmarks"] = JSONValue(linkObjects: landmarks)
            plain.subcollections["pageList"] = JSONValue(linkObjects: pages)
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

    // MARK: Subcollections read as checked text

    /// What `JSONReader.Cursor.value(depth:)` makes of `text` and how far it reads, or nil when it refuses it.
    func readByValue(_ text: [UInt8]) -> (JSONValue, Int)? {
        text.withUnsafeBufferPointer { buffer in
            var c = JSONReader.Cursor(buffer: buffer)
            guard let v = try? c.value(depth: 1) else { return nil }
            return (v, c.i)
        }
    }

    /// How far `skipChecked` steps over `text`, or nil when it does not take it.
    func readBySkipping(_ text: [UInt8]) -> Int? {
        text.withUnsafeBufferPointer { buffer in
            var c = JSONReader.Cursor(buffer: buffer)
            return c.skipChecked(depth: 1) ? c.i : nil
        }
    }

    let fragments: [String] = [
        #"[{"href":"OPS/cover.xml","type":"application/xhtml+xml","title":"Cover","rel":"cover"},{"href":"a.xhtml#x","rel":["toc","x"],"children":[{"href":"b"}]}]"#,
        #"[{"href":"é.xhtml","title":"Titre « un » \u00e9 \ud83d\ude00 \" \\ \/ \n","properties":{"page":"left","n":-1.5e3,"on":true,"off":false,"no":null}}]"#,
        #"{"a":[1,2.5,-0,0.125,1E+2,[],{},[[[]]]],"b":{"c":{"d":"e"}},"f":"\t"}"#,
        #" [ { "href" : "x" , "title" : "y" } , 12 , "z" , null ] "#,
        #"[{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8}]"#,
        #"[{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9}]"#,
        #"[{"href":"a","href":"b"}]"#, #"[{"a":1,"b":{"a":2},"a":3}]"#, #"[{"hr\u0065f":"a","href":"b"}]"#,
        #"[{"é":1,"e\u0301":2}]"#, #"[{"é":1,"é":2}]"#, #"[{"ab":1,"a":2,"abc":3}]"#,
        #"["\ud800"]"#, #"["\udc00x"]"#, #"["\x"]"#, "[\"\u{01}\"]", #"[1e999]"#, #"[01]"#, #"[1.]"#, #"[-]"#, #"[tru]"#,
        #"[nul]"#, #"[1,]"#, #"[,1]"#, #"{"a" 1}"#, #"{"a":1,}"#, #"{1:2}"#, #"[1 2]"#, #"["abc"#, "[",
        String(repeating: "[", count: 520) + String(repeating: "]", count: 520),
        String(repeating: "[", count: 505) + String(repeating: "]", count: 505),
        String(repeating: "[", count: 511) + String(repeating: "]", count: 511),
    ]

    func assertAgrees(_ text: [UInt8], _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        let skipped = readBySkipping(text)
        let read = readByValue(text)
        if let skipped {
            // Taken by the check: the reader takes it too, the same bytes of it, and the kept text reads as the same value.
            guard let (value, end) = read else { return XCTFail("checked but refused: \(what())", file: file, line: line) }
            XCTAssertEqual(skipped, end, what(), file: file, line: line)
            XCTAssertEqual(Manifest.Member.text(Array(text[..<skipped])).value, value, what(), file: file, line: line)
        }
        if read == nil { XCTAssertNil(skipped, "refused by the reader, so by the check: \(what())", file: file, line: line) }
    }

    func testTheCheckTakesOnlyWhatTheReaderTakes() {
        for f in fragments { assertAgrees(Array(f.utf8), f) }
        // Invalid UTF-8 in strings and in keys.
        for bytes: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xC3, 0xA9]] {
            assertAgrees(Array("[\"".utf8) + bytes + Array("\"]".utf8), "\(bytes)")
            assertAgrees(Array("[{\"".utf8) + bytes + Array("\":1}]".utf8), "key \(bytes)")
        }
        // Every fragment with random damage: bytes replaced, dropped or doubled.
        var rng = SplitMix(seed: 5)
        let damage: [UInt8] = Array("\"\\{}[],:0123456789.eE+-tfnu \t\nxé".utf8) + [0x00, 0x1F, 0x80, 0xBF, 0xC3, 0xED, 0xFF]
        for round in 0..<20_000 {
            var text = Array(fragments[Int(rng.next() % UInt64(fragments.count))].utf8)
            for _ in 0...(rng.next() % 3) where !text.isEmpty {
                let at = Int(rng.next() % UInt64(text.count))
                switch rng.next() % 3 {
                case 0: text[at] = damage[Int(rng.next() % UInt64(damage.count))]
                case 1: text.remove(at: at)
                default: text.insert(text[at], at: at)
                }
            }
            assertAgrees(text, "round \(round): \(String(decoding: text, as: UTF8.self))")
        }
    }

    func testStringsAreReadWhereverTheirSpecialBytesStand() throws {
        // A byte that ends or breaks the plain run of a string at every offset of strings of up to 40 bytes:
        // before, inside and after the eight-byte blocks the reader checks at once.
        let probes: [(bytes: [UInt8], decoded: String?)] = [
            (Array(#"\n"#.utf8), "\n"), (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"), (Array(#"\u00e9"#.utf8), "é"),
            ([0xC3, 0xA9], "é"), ([0x7F], "\u{7F}"), ([0x20], " "), ([0x1F], nil), ([0x00], nil), ([0x09], nil), ([0xFF], nil),
            ([0xC3], nil), (Array(#"\x"#.utf8), nil),
        ]
        for length in 0...40 {
            for offset in 0...length {
                for probe in probes {
                    let before = String(repeating: "a", count: offset), after = String(repeating: "b", count: length - offset)
                    let text = Array("[\"".utf8) + Array(before.utf8) + probe.bytes + Array(after.utf8) + Array("\"]".utf8)
                    let expected = probe.decoded.map { JSONValue.array([.string(before + $0 + after)]) }
                    XCTAssertEqual(try? JSONReader.parse(Data(text)), expected, "\(probe.bytes) at \(offset) of \(length)")
                    assertAgrees(text, "\(probe.bytes) at \(offset) of \(length)")
                }
            }
        }
        // Unterminated, with and without special bytes near the end.
        for tail in ["", "a", "abcdefgh", "abcdefghi", "\\", "é"] {
            XCTAssertThrowsError(try JSONReader.parse("[\"" + tail), tail)
            assertAgrees(Array(("[\"" + tail).utf8), tail)
        }
    }

    func testTheUTF8CheckAgreesWithString() {
        func agrees(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { JSONReader.isValidUTF8($0) } == (String(validating: bytes, as: UTF8.self) != nil)
        }
        for a in 0...255 { XCTAssertTrue(agrees([UInt8(a)]), "\(a)") }
        for a in 0...255 { for b in 0...255 where !agrees([UInt8(a), UInt8(b)]) { XCTFail("\(a) \(b)") } }
        let tails: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF]
        for lead in 0xC0...0xFF {
            for b in tails { for c in tails where !agrees([UInt8(lead), b, c]) { XCTFail("\(lead) \(b) \(c)") } }
            for b in tails { for c in tails { for d in tails where !agrees([UInt8(lead), b, c, d]) { XCTFail("\(lead) \(b) \(c) \(d)") } } }
        }
        var rng = SplitMix(seed: 9)
        for _ in 0..<20_000 {
            let bytes = (0..<Int(rng.next() % 12)).map { _ in UInt8(truncatingIfNeeded: rng.next() | (rng.next() % 2 == 0 ? 0x80 : 0)) }
            XCTAssertTrue(agrees(bytes), "\(bytes)")
        }
    }

    func testAManifestKeepsItsSubcollectionsAsTextAndReadsThemAsTheTreeReaderDoes() throws {
        var rng = SplitMix(seed: 13)
        for round in 0..<100 {
            var m = Manifest(metadata: ["title": .string("T")], readingOrder: [Link(href: "a.xhtml")])
            m.subcollections["x-number"] = .number(3)
            m.setLinkObjects(randomLinks(&rng), in: "landmarks")
            m.setLinkObjects(randomLinks(&rng), in: "pageList")
            let wire = ReadiumJSON.wire(m)
            let read = try Manifest.parse(wire)
            guard case .text? = read.others["landmarks"], case .text? = read.others["pageList"] else {
                return XCTFail("kept as text, round \(round)")
            }
            guard case .value(.number(3))? = read.others["x-number"] else { return XCTFail("a number is read at once") }
            let tree = try Manifest(json: JSONReader.parse(wire))
            XCTAssertEqual(read, tree, "round \(round)")
            XCTAssertEqual(read.subcollections, tree.subcollections)
            XCTAssertEqual(read.links(in: "pageList"), tree.links(in: "pageList"))
            XCTAssertEqual(ReadiumJSON.encode(read), ReadiumJSON.encode(tree), "Codable, sorted keys")
            let again = ReadiumJSON.wire(read)
            XCTAssertEqual(try JSONReader.parse(again), try JSONReader.parse(ReadiumJSON.wire(tree)))
            XCTAssertEqual(again, ReadiumJSON.wire(tree), "round \(round)")
        }
        // What the check leaves to the reader is read at once, as before.
        let escapedKey = Data(#"{"metadata":{},"readingOrder":[],"landmarks":[{"hr\u0065f":"a"}]}"#.utf8)
        guard case .value? = try Manifest.parse(escapedKey).others["landmarks"] else { return XCTFail("read at once") }
        XCTAssertEqual(try Manifest.parse(escapedKey).subcollections["landmarks"], .array([.object(["href": .string("a")])]))
        // What neither takes goes to Foundation, as before.
        let duplicate = Data(#"{"metadata":{},"readingOrder":[],"landmarks":[{"href":"a","href":"b"}]}"#.utf8)
        XCTAssertEqual(try Manifest.parse(duplicate), try JSONDecoder().decode(Manifest.self, from: duplicate))
    }

    func testRepeatedMediaTypesReadAsTheTreeReaderReadsThem() throws {
        // The same bytes again, and near misses: longer, shorter, escaped, with a quote or a control character
        // inside, not a string at all.
        let types = [#""application/xhtml+xml""#, #""application/xhtml+xml""#, #""application/xhtml+xmlx""#,
                     #""application/xhtml+xm""#, #""application\/xhtml+xml""#, #""application/xhtml+xml""#, "null",
                     #""a\"b""#, #""a\"b""#, #""a\nb""#, #""a\nb""#, #""é/ü""#, #""é/ü""#, #""""#, #""""#, #""a""#,
                     #""a""#, #""a\u0000""#, #""a""#, "1", #""image/png""#]
        var rng = SplitMix(seed: 17)
        for round in 0..<200 {
            let links = (0..<Int(rng.next() % 12)).map { i in
                #"{"href":"\#(i)","type":"# + types[Int(rng.next() % UInt64(types.count))] + "}"
            }
            let text = Data((#"{"metadata":{},"readingOrder":["# + links.joined(separator: ",") + "]}").utf8)
            let tree = try? Manifest(json: JSONReader.parse(text))
            XCTAssertEqual(try? JSONReader.manifest(text), tree, "round \(round): \(String(decoding: text, as: UTF8.self))")
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
