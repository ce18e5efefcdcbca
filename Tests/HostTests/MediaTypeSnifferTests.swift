@testable import Host
@testable import ShelfPlugins
import XCTest

final class MediaTypeSnifferTests: XCTestCase {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    func sniff(_ bytes: [UInt8], name: String = "file") throws -> String? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sniff-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try PublicationInput(path: url.path).mediaType
    }

    func testEPUBIsToldByItsMimetypeEntryNotItsName() throws {
        let bytes = [UInt8](try Data(contentsOf: samples.appendingPathComponent("the-lighthouse-keeper.epub")))
        XCTAssertEqual(try sniff(bytes, name: "book.zip"), "application/epub+zip")
        XCTAssertEqual(try sniff(bytes, name: "book"), "application/epub+zip")
    }

    func testMagicBytesWinOverTheExtension() throws {
        XCTAssertEqual(try sniff(Array("%PDF-1.7\n".utf8), name: "x.epub"), "application/pdf")
        XCTAssertEqual(try sniff(Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0], name: "x.txt"), "audio/mpeg")
        XCTAssertEqual(try sniff([0, 0, 0, 0x20] + Array("ftypM4B ".utf8) + [0, 0, 0, 0], name: "x"), "audio/mp4")
        XCTAssertEqual(try sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8), name: "x"), "audio/wav")
        XCTAssertEqual(try sniff(Array("OggS".utf8) + [0, 2], name: "x.mp3"), "audio/ogg")
    }

    func testJSONManifestsAreToldByTheirProfile() throws {
        let audiobook =
            #"{"metadata": {"conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook", "title": "x"}, "readingOrder": []}"#
        XCTAssertEqual(try sniff(Array(audiobook.utf8), name: "m.json"), "application/audiobook+json")
        let schemaType = #"{"metadata": {"@type": "http://schema.org/Audiobook"}, "readingOrder": []}"#
        XCTAssertEqual(try sniff(Array(schemaType.utf8)), "application/audiobook+json")
        let opds = #"{"metadata": {"title": "Feed"}, "publications": []}"#
        XCTAssertEqual(try sniff(Array(opds.utf8)), "application/opds+json")
        XCTAssertEqual(try sniff(Array(#"{"a": 1}"#.utf8), name: "a.json"), "application/json")
        XCTAssertEqual(try sniff(Array("{ not json".utf8), name: "x"), "application/json")
    }

    func testTextIsRefinedByExtensionOnlyWhenContentIsGeneric() throws {
        XCTAssertEqual(try sniff(Array("# Title\n\nSome words.\n".utf8), name: "book.md"), "text/markdown")
        XCTAssertEqual(try sniff(Array("Some words.\n".utf8), name: "book.txt"), "text/plain")
        XCTAssertEqual(try sniff(Array("Some words.\n".utf8), name: "book"), "text/plain")
        XCTAssertEqual(try sniff([0xC3, 0x28, 0xA0, 0xA1], name: "bad"), "application/octet-stream")
    }

    func testXMLRootElementNamesTheDocument() throws {
        let feed = #"<?xml version="1.0"?><!-- c --><feed xmlns="http://www.w3.org/2005/Atom"></feed>"#
        XCTAssertEqual(try sniff(Array(feed.utf8)), "application/atom+xml")
        XCTAssertEqual(try sniff(Array("<html><body></body></html>".utf8)), "application/xhtml+xml")
    }

    func testEmptyFileHasNoType() throws {
        XCTAssertNil(try sniff([], name: "empty"))
        XCTAssertEqual(try sniff([], name: "empty.epub"), nil, "an empty file is not an EPUB whatever its name")
    }

    func testZipWithoutMimetypeFirstIsStillAnEPUBByItsContainer() throws {
        // A zip whose first entry is not `mimetype` (a packager's mistake seen in the wild).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("book.bin").path
        try ZipWriter.write(
            path: path,
            entries: [
                ("META-INF/container.xml", Data("<container/>".utf8)),
                ("mimetype", Data("application/epub+zip".utf8))
            ])
        XCTAssertEqual(try PublicationInput(path: path).mediaType, "application/epub+zip")
        try ZipWriter.write(path: path, entries: [("manifest.json", Data("{}".utf8))])
        XCTAssertEqual(try PublicationInput(path: path).mediaType, "application/audiobook+zip")
        try ZipWriter.write(path: path, entries: [("notes.txt", Data("hi".utf8))])
        XCTAssertEqual(try PublicationInput(path: path).mediaType, "application/zip")
    }
}
