import Foundation
@testable import Readium
import XCTest

/// The shortcuts of a manifest's subcollections against the plain `JSONValue` they stand for.
final class ManifestFastPathTests: XCTestCase {
    /// With SWIFT_DETERMINISTIC_HASHING set, dictionaries iterate in the same order in every process, and the
    /// shortcuts must then write the very bytes of the plain path; otherwise the order of an object's members
    /// is the seed's, and only the JSON values can be compared.
    let deterministic = !(ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] ?? "").isEmpty

    /// Hashing is deterministic for a process from its start or never: the byte-for-byte comparisons of this
    /// class run in a child started with it.
    func testTheBytesAreTheSameUnderDeterministicHashing() throws {
        guard !deterministic else { return }  // the child, or a run that has it already
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["HostTests.ManifestFastPathTests"]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("testLinkObjectsAreWrittenAsTheirJSONValue' passed"), text)
    }

    func randomLinks(_ rng: inout SplitMix64, depth: Int = 0) -> [Link] {
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
        var rng = SplitMix64(seed: 3)
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
            if deterministic { XCTAssertEqual(fastWire, plainWire, "round \(round)") }
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
            if deterministic { XCTAssertEqual(ReadiumJSON.wire(set), plainWire, "round \(round)") }
        }
    }

    func testSubcollectionsSetAsAWholeOrOneByOneKeepTheirOrder() {
        // Members go out in the order of the dictionary they were set in, as when they were one.
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
        let positions = plain.keys.map { text.range(of: "\"\($0)\":")!.lowerBound }
        XCTAssertEqual(positions, positions.sorted(), "written in the dictionary's order")
    }
}
