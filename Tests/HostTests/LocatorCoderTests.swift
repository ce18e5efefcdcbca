import Foundation
@testable import Host
import XCTest

/// The compact form publication memos keep positions in: every field of a locator survives, and a damaged
/// file is refused rather than read as something else.
final class LocatorCoderTests: XCTestCase {
    let locators = [
        Locator(href: "ch1.xhtml", type: "application/xhtml+xml", title: "Chapter 1",
                locations: .init(position: 1, progression: 0, totalProgression: 0)),
        Locator(href: "ch1.xhtml", type: "application/xhtml+xml",
                locations: .init(position: 2, progression: 0.5, totalProgression: 1.0 / 3, fragments: ["p3", "t=12"]),
                text: .init(before: "Call me ", highlight: "Ishmaël", after: nil)),
        Locator(href: "Chapitre é/2.xhtml", type: "", locations: .init()),
    ]

    /// The whole of `data` as locators: nothing may follow them.
    func decode(_ data: Data) throws -> [Locator] {
        var reader = ByteReader(data)
        let locators = try LocatorCoder.decode(&reader)
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return locators
    }

    func encoded() -> Data {
        var writer = ByteWriter()
        LocatorCoder.encode(locators, to: &writer)
        return Data(writer.bytes)
    }

    func testEveryFieldSurvivesARoundTrip() throws {
        XCTAssertEqual(try decode(encoded()), locators)
        var empty = ByteWriter()
        LocatorCoder.encode([], to: &empty)
        XCTAssertEqual(try decode(Data(empty.bytes)), [])
    }

    func testADamagedFormIsRefused() {
        let data = encoded()
        for cut in [0, 3, data.count / 2, data.count - 1] {
            XCTAssertThrowsError(try decode(data.prefix(cut)), "cut at \(cut)")
        }
        XCTAssertThrowsError(try decode(data + [0]), "trailing bytes")
        // A string index past the table, and a count far larger than the file.
        var bad = ByteWriter()
        bad.u32(0); bad.u32(1); bad.u32(7); bad.u32(7); bad.u32(UInt32.max); bad.bytes.append(0)
        XCTAssertThrowsError(try decode(Data(bad.bytes)))
        var huge = ByteWriter()
        huge.u32(UInt32.max)
        XCTAssertThrowsError(try decode(Data(huge.bytes)))
    }
}

/// The plugin registry's file: what a plugin said of itself comes back exactly, and a file from
/// another shelf or a damaged one is refused.
final class PluginRegistryFileTests: XCTestCase {
    func testEntriesSurviveARoundTripAndDamageIsRefused() throws {
        let descriptor = PluginDescriptor(
            id: "org.example.text", name: "Text", version: "1.2.0", license: "MIT", vendor: nil,
            url: "https://example.org", description: nil, abiMajor: 1, abiMinor: 0, structSize: 120,
            concurrentHandles: true, mediaTypes: ["text/plain", "text/markdown"], fileExtensions: ["txt", "md"],
            services: [])
        let key = FileIdentity(size: 4096, modified: 1_764_400_000_123_456_789, changed: 1_764_400_000_987_654_321, inode: 1 << 60)
        let entries = ["/usr/lib/shelf/plugins/libshelf-text.so":
            PluginRegistryCache.Entry(key: key, descriptor: descriptor, capabilities: ["shelf.format/1", "shelf.render/1"])]
        let bytes = PluginRegistryCache.encode(entries)
        let back = try PluginRegistryCache.decode(Data(bytes))
        let entry = try XCTUnwrap(back["/usr/lib/shelf/plugins/libshelf-text.so"])
        XCTAssertEqual(entry.descriptor, descriptor)
        XCTAssertEqual(entry.key, key, "nanosecond times and large inodes are kept exactly")
        XCTAssertEqual(entry.capabilities, ["shelf.format/1", "shelf.render/1"])
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            XCTAssertThrowsError(try PluginRegistryCache.decode(Data(bytes.prefix(cut))), "cut at \(cut)")
        }
        var foreign = bytes
        foreign[30] ^= 0x20  // inside the host tag: written by another shelf
        XCTAssertThrowsError(try PluginRegistryCache.decode(Data(foreign)))
    }
}

/// The cache folder of publication memos stays bounded: the memos written longest ago go first.
final class PublicationMemoPruningTests: XCTestCase {
    func testOnlyTheNewestMemosAreKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memo-prune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for i in 0..<12 {
            let file = folder.appendingPathComponent("m\(i).memo")
            try Data([UInt8(i)]).write(to: file)
            // Written one second apart, oldest first.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(i))],
                                                  ofItemAtPath: file.path)
        }
        try Data("not a memo".utf8).write(to: folder.appendingPathComponent("other.txt"))
        PublicationMemo.prune(folder, limit: 5)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(left, ["m10.memo", "m11.memo", "m7.memo", "m8.memo", "m9.memo", "other.txt"])
        PublicationMemo.prune(folder, limit: 5)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 6, "nothing more goes under the limit")
    }
}
