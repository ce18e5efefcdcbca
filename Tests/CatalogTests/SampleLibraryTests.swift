import Foundation
@testable import Host
@testable import ShelfLibrary
import TestSupport
import XCTest

/// The bundled library (`samples/library`, what `make sample` browses) and the parser's fast paths.
final class SampleLibraryTests: XCTestCase {
    let library = ShelfProcess.packageRoot.appendingPathComponent("samples/library")

    func feed(_ name: String) throws -> CatalogFeed {
        let url = library.appendingPathComponent(name)
        return try CatalogDocument.parse(try Data(contentsOf: url), url: url)
    }

    func testTheBundledLibraryHasFormatTabsEPUBsAndAudiobooks() throws {
        let all = try feed("catalog.xml")
        XCTAssertEqual(all.title, "Shelf Sample Library")
        XCTAssertEqual(all.entryPoints.map(\.tab), [.all, .ebook, .audiobook])
        XCTAssertEqual(all.entryPoints.filter(\.active).map(\.tab), [.all])
        XCTAssertEqual(all.entries.map(\.format), [.ebook, .ebook, .audiobook, .audiobook])
        let audio = try feed("audiobooks.xml")
        XCTAssertEqual(audio.entries.map(\.title), ["Harbour Bells", "The Lamp Room Clock"])
        XCTAssertEqual(try feed("ebooks.xml").entries.map(\.title), ["The Lighthouse Keeper", "A Winter Crossing"])
        for entry in all.entries {
            XCTAssertEqual(entry.availability.state, .openAccess, entry.title)
            let href = try XCTUnwrap(entry.links.first { $0.isAcquisition }?.href)
            let path = try XCTUnwrap(URL(string: href)).path
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(entry.title): \(path)")
        }
        // The manifests point at tracks that are there.
        for name in ["harbour-bells.json", "lamp-room-clock.json"] {
            let folder = library.appendingPathComponent("audio")
            let manifest = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name)))
                    as? [String: Any])
            let order = try XCTUnwrap(manifest["readingOrder"] as? [[String: Any]])
            XCTAssertFalse(order.isEmpty)
            for item in order {
                XCTAssertTrue(
                    FileManager.default.fileExists(
                        atPath: folder.appendingPathComponent(item["href"] as? String ?? "").path))
            }
        }
    }

    func testFastPathsAgreeWithFoundation() {
        let iso = ISO8601DateFormatter()
        for text in [
            "2026-01-31T10:00:00Z", "2024-02-29T23:59:59+02:00", "1999-12-31T00:00:00-05:30", "2026-06-01t08:15:30z"
        ] {
            XCTAssertEqual(FastText.rfc3339(text), iso.date(from: text.uppercased()), text)
        }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        XCTAssertEqual(
            FastText.rfc3339("2026-01-31T10:00:00.250Z")!.timeIntervalSince1970,
            fractional.date(from: "2026-01-31T10:00:00.250Z")!.timeIntervalSince1970, accuracy: 0.0005)
        for bad in [
            "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01", "2026-01-01T00:00:00",
            "2026-01-01T00:00:00+0200", "x"
        ] {
            XCTAssertNil(FastText.rfc3339(bad), bad)
        }
        XCTAssertEqual(
            FeedDate.parse("2026-01-01"), iso.date(from: "2026-01-01T00:00:00Z"),
            "a bare day still parses (Foundation's path)")

        XCTAssertEqual(FastText.trimmed("  a b \n\t"), "a b")
        XCTAssertEqual(FastText.trimmed("\u{00A0}Café\u{3000}"), "Café")
        XCTAssertEqual(FastText.trimmed(" \n "), "")
        XCTAssertEqual(FastText.trimmed("plain"), "plain")

        let base = URL(string: "https://library.example.org/feeds/groups")!
        for href in [
            "https://a.example.org/works/1?x=1&y=%20#top", "http://127.0.0.1:8080/loans",
            "https://h.example/a(b)c;d=e,f",
            "works/2", "/works/3", "https://user@host.example/x", "https://host.example/a b", "https://host.example/é",
            "https://[::1]/x", "mailto:x@example.org", "ftp://host/x", "https://:80/x", "https:///x", "http://h:8a/x"
        ] {
            XCTAssertEqual(CatalogAddress.resolve(href, against: base), Self.slowResolve(href, against: base), href)
        }
    }

    /// The general path, as it was before the fast one.
    static func slowResolve(_ href: String, against base: URL) -> String? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == " " }),
            let url = URL(string: trimmed, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased()
        else { return nil }
        switch scheme {
        case "http", "https": return url.host?.isEmpty == false ? url.absoluteString : nil
        case "file": return base.isFileURL ? url.absoluteString : nil
        default: return nil
        }
    }
}
