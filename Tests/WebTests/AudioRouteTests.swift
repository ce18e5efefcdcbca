import Foundation
import TestSupport
import Web
import XCTest

/// The player's track route (`/audio/TOKEN/KEY/HREF`) serves the tracks the manifest names, each its own, and
/// nothing else of the book's folder.
final class AudioRouteTests: WebServerTestCase {
    var session = ""
    var folder: URL!

    /// An audiobook manifest in a folder of its own, naming `tracks` (href: bytes), beside a file it does not name.
    func addAudiobook(_ tracks: [(String, Data)]) throws -> String {
        folder = shelf.home.appendingPathComponent("books/tone")
        for (href, data) in tracks {
            let file = folder.appendingPathComponent(href)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        try Data("not a track of the book".utf8).write(to: folder.appendingPathComponent("secret.wav"))
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Tones", "duration": tracks.count],
            "readingOrder": tracks.map { ["href": $0.0, "type": "audio/wav", "duration": 1] }
        ]
        let path = folder.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: path)
        let added = try shelf.run(["add", path.path, "--link"])
        XCTAssertEqual(added.status, 0, added.stderr)
        session = try signIn()
        let books = try XCTUnwrap(try get("/api/shelf").json()["items"] as? [[String: Any]])
        return try XCTUnwrap(books.first { ($0["title"] as? String) == "Tones" }?["id"] as? String, "\(books)")
    }

    func get(_ path: String) throws -> RawHTTP.Answer {
        try http.send("GET", path, headers: ["X-Shelf-Session": session])
    }

    /// The URLs the player API gives for the book's tracks.
    func trackURLs(_ id: String) throws -> [String] {
        let player = try get("/api/player?book=" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        XCTAssertEqual(player.status, 200, player.text)
        return try XCTUnwrap(try player.json()["tracks"] as? [[String: Any]]).compactMap { $0["url"] as? String }
    }

    func testOnlyTheTracksTheManifestNamesAreServed() throws {
        let tone = RemotePlayerTests.toneWAV()
        let id = try addAudiobook([("tone-one.wav", tone)])
        let url = try XCTUnwrap(try trackURLs(id).first)
        let track = try get(url)
        XCTAssertEqual(track.status, 200, track.text)
        XCTAssertEqual(track.body, tone)
        let base = String(url.dropLast("tone-one.wav".count))
        // Beside the manifest, not named by it; and the ways out of the book's folder, encoded or not.
        for attempt in [
            "secret.wav", "manifest.json", "..%2ftone%2fsecret.wav", "..%2Ftone%2Fsecret.wav", "%2e%2e/tone/secret.wav",
            "tone-one.wav%2f..%2fsecret.wav", "./secret.wav", "%2fetc%2fpasswd"
        ] {
            let refused = try get(base + attempt)
            XCTAssertEqual(refused.status, 404, "\(attempt): \(refused.text)")
            XCTAssertFalse(refused.text.contains("not a track of the book\""), attempt)
            XCTAssertNotEqual(refused.body, Data("not a track of the book".utf8), attempt)
        }
    }

    /// Two tracks whose hrefs end alike are two files: the route kept each in its cache under the last 120 hex
    /// digits of the book's id and the href, so the second was served the first's bytes.
    func testTracksWhoseNamesEndAlikeAreEachTheirOwn() throws {
        let tone = RemotePlayerTests.toneWAV()
        var other = tone
        other.replaceSubrange(44..<1044, with: Data(repeating: 0, count: 1000))
        let name = "a-chapter-whose-name-is-long-enough-to-fill-the-whole-key.wav"
        let id = try addAudiobook([("disc-1/" + name, tone), ("disc-2/" + name, other)])
        let urls = try trackURLs(id)
        XCTAssertEqual(urls.count, 2)
        XCTAssertEqual(try get(urls[0]).body, tone)
        XCTAssertEqual(try get(urls[1]).body, other)
    }
}
