import Foundation
import TestSupport
import Web
import XCTest

/// A remote audiobook (`shelf fetch URL`) in the browser's player: the shelf keeps its cached manifest, whose hrefs
/// name the publisher's files, while the parts are stored under the downloader's names; the player API serves the
/// stored part for each track.
final class RemotePlayerTests: WebServerTestCase {
    var publisher: LoopbackHTTPServer!

    override func tearDown() {
        publisher?.stop()
        super.tearDown()
    }

    /// A second of a 440 Hz tone, 16-bit mono PCM at 8000 Hz, as a WAV file.
    static func toneWAV() -> Data {
        let rate = 8000
        let samples = (0..<rate).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 2));
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(rate)); append(UInt32(rate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 2))
        for s in samples { append(s) }
        return data
    }

    func testAFetchedRemoteBooksTrackIsServedToThePlayer() throws {
        let tone = Self.toneWAV()
        publisher = try LoopbackHTTPServer()
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "A Remote Tone", "duration": 1],
            "readingOrder": [["href": "tone-one.wav", "type": "audio/wav", "title": "The tone", "duration": 1]]
        ]
        publisher.route(
            "GET", "/book/manifest.json",
            .data(
                try JSONSerialization.data(withJSONObject: manifest),
                contentType: "application/audiobook+json"))
        publisher.route("GET", "/book/tone-one.wav", .data(tone, contentType: "audio/wav"))
        let fetched = try shelf.run(["fetch", publisher.url("/book/manifest.json").absoluteString])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        // The cached manifest, put on the shelf as the patron's remote book is.
        let cached = try XCTUnwrap(
            FileManager.default.enumerator(at: shelf.home, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first {
                    $0.lastPathComponent == "manifest.json" && $0.path.contains("/audiobooks/")
                })
        let added = try shelf.run(["add", cached.path])
        XCTAssertEqual(added.status, 0, added.stderr)

        let session = try signIn()
        let onShelf = try http.send("GET", "/api/shelf", headers: ["X-Shelf-Session": session]).json()
        let books = try XCTUnwrap(onShelf["items"] as? [[String: Any]], "\(onShelf)")
        let id = try XCTUnwrap(
            books.first { ($0["title"] as? String) == "A Remote Tone" }?["id"] as? String, "\(books)")
        let player = try http.send(
            "GET", "/api/player?book=" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id),
            headers: ["X-Shelf-Session": session])
        XCTAssertEqual(player.status, 200, player.text)
        let tracks = try XCTUnwrap(try player.json()["tracks"] as? [[String: Any]])
        let url = try XCTUnwrap(tracks.first?["url"] as? String, "\(tracks)")
        let track = try http.send("GET", url, headers: ["X-Shelf-Session": session])
        XCTAssertEqual(track.status, 200, "the downloaded part is served: \(track.text)")
        XCTAssertEqual(track.body, tone)
    }
}
