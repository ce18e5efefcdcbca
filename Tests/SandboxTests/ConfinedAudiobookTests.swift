import Foundation
import TestSupport
import XCTest

/// The bundled audiobook plugin run confined (SHELF_PLUGINS_OUT_OF_PROCESS names it, as a plugin shelf does not ship
/// runs): it may read the manifest alone, and has its tracks beside it from the host (files.h).
final class ConfinedAudiobookTests: XCTestCase {
    var shelf: ShelfProcess!
    var folder: URL!

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        shelf.environment["SHELF_PLUGINS_OUT_OF_PROCESS"] = "org.shelf.audiobook"
        folder = shelf.home.appendingPathComponent("books/tones")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { shelf.cleanUp() }

    /// `seconds` of a `hertz` tone, 16-bit mono PCM at 8000 Hz, as a WAV file.
    static func tone(hertz: Double, seconds: Int) -> Data {
        let rate = 8000
        let samples = (0..<rate * seconds).map { Int16(8000 * sin(2 * Double.pi * hertz * Double($0) / Double(rate))) }
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + samples.count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(rate))
        append(UInt32(rate * 2))
        append(UInt16(2))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return data
    }

    /// Before: every track was "not audio that FFmpeg can read (Permission denied)" (the plugin opened them itself,
    /// and Landlock refused), its length unknown, and `shelf resource` and `shelf play` could not read one.
    func testAManifestWithLocalTracksOpensConfined() throws {
        let one = Self.tone(hertz: 440, seconds: 1), two = Self.tone(hertz: 660, seconds: 2)
        try one.write(to: folder.appendingPathComponent("one.wav"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("part 2"), withIntermediateDirectories: true)
        try two.write(to: folder.appendingPathComponent("part 2/two.wav"))
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Tones"],
            "readingOrder": [
                ["href": "one.wav", "type": "audio/wav"], ["href": "part%202/two.wav", "type": "audio/wav"]
            ]
        ]
        let path = folder.appendingPathComponent("manifest.json").path
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))

        let plugins = try shelf.run(["plugins"])
        XCTAssertTrue(plugins.stdout.contains("confined, in a process of its own"), plugins.stdout)
        let written = try shelf.run(["manifest", path])
        XCTAssertEqual(written.status, 0, written.stderr)
        let document = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(written.stdout.utf8)) as? [String: Any])
        let tracks = try XCTUnwrap(document["readingOrder"] as? [[String: Any]])
        // Measured from the tracks themselves: the manifest declares no length.
        XCTAssertEqual(tracks.compactMap { ($0["duration"] as? NSNumber)?.doubleValue }, [1, 2], "\(tracks)")
        XCTAssertFalse(written.stdout.contains("missing"), written.stdout)
        let out = shelf.home.appendingPathComponent("two.wav")
        let resource = try shelf.run(["resource", path, "part%202/two.wav", "-o", out.path])
        XCTAssertEqual(resource.status, 0, resource.stderr)
        XCTAssertEqual(try Data(contentsOf: out), two)
        // Played through the plugin's decoder, both tracks: 3 s at the output's rate.
        let sound = shelf.home.appendingPathComponent("played.wav")
        let played = try shelf.run(["play", path, "--out", sound.path], timeout: 60)
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stdout.contains("0:03 of 0:03"), played.stdout)
    }

    /// The host hands over only the book's own files: a manifest naming a hidden file beside it (which the host
    /// refuses, files.h) has that track missing, not read.
    func testAHiddenFileBesideTheManifestIsNotHandedOver() throws {
        try Self.tone(hertz: 440, seconds: 1).write(to: folder.appendingPathComponent(".hidden.wav"))
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["@type": "http://schema.org/Audiobook", "title": "Hidden"],
            "readingOrder": [["href": ".hidden.wav", "type": "audio/wav", "duration": 1]]
        ]
        let path = folder.appendingPathComponent("manifest.json").path
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        let out = shelf.home.appendingPathComponent("hidden.wav")
        let resource = try shelf.run(["resource", path, ".hidden.wav", "-o", out.path])
        XCTAssertNotEqual(resource.status, 0, resource.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }
}
