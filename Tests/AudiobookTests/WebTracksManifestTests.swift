import Foundation
import TestSupport
import XCTest

/// A manifest file whose tracks are on the web (a patron saved one, as the corpus has them): shelf says where the
/// tracks are and the command that plays it from its address, not `shelf fetch URL` of a URL it does not give
/// (fetch refuses the file).
final class WebTracksManifestTests: ShelfTestCase {
    func manifest(selfLink: Bool) throws -> String {
        let links =
            selfLink
            ? #""links": [{"rel": "self", "href": "https://example.org/books/flatland.json", "type": "application/audiobook+json"}],"#
            : ""
        let json = """
            {"@context": "https://readium.org/webpub-manifest/context.jsonld",
             "metadata": {"@type": "http://schema.org/Audiobook", "title": "Flatland", "identifier": "urn:test:web-tracks"},
             \(links)
             "readingOrder": [{"href": "http://127.0.0.1:9/flatland_1.mp3", "type": "audio/mpeg", "duration": 1371},
                              {"href": "http://127.0.0.1:9/flatland_2.mp3", "type": "audio/mpeg", "duration": 1669}]}
            """
        let path = shelf.home.appendingPathComponent(
            selfLink ? "flatland.audiobook-manifest.json" : "bare.audiobook-manifest.json"
        ).path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAManifestWithItsTracksOnTheWebSaysToPlayItFromItsAddress() throws {
        let named = try run(["play", try manifest(selfLink: true), "--null"], expect: 69)
        XCTAssertTrue(
            named.stderr.contains("the tracks of this audiobook are on the web and none is on this computer"),
            named.stderr)
        XCTAssertTrue(named.stderr.contains("`shelf play https://example.org/books/flatland.json`"), named.stderr)
        XCTAssertFalse(named.stderr.contains("`shelf fetch URL` downloads it"), named.stderr)
        let bare = try run(["play", try manifest(selfLink: false), "--null"], expect: 69)
        XCTAssertTrue(bare.stderr.contains("`shelf play URL`"), bare.stderr)
        XCTAssertTrue(bare.stderr.contains("URL being the address this manifest came from."), bare.stderr)
    }
}
