import Foundation
import TestSupport
import XCTest

/// A local audiobook manifest's tracks are inside the audiobook's folder or on the web (issue 30, item 8): a
/// manifest naming ../../.ssh/id_rsa, /etc/passwd or file:///etc/passwd as a track is refused, as an EPUB's hrefs
/// are, so no plugin (and no `/audio/...` route) ever decodes or serves a file the manifest reaches out to.
final class ManifestHrefTests: XCTestCase {
    func testTracksOutsideTheAudiobookAreRefused() throws {
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let folder = shelf.home.appendingPathComponent("books/escape")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, href, words) in [
            ("dotdot", "../../.ssh/id_rsa", "leaves the audiobook's folder"),
            ("absolute", "/etc/passwd", "leaves the audiobook's folder"),
            ("scheme", "file:///etc/passwd", "has a file: href")
        ] {
            let manifest = folder.appendingPathComponent("\(name).json")
            let json: [String: Any] = [
                "@context": "https://readium.org/webpub-manifest/context.jsonld",
                "metadata": [
                    "@type": "http://schema.org/Audiobook", "title": "Escape \(name)",
                    "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook"
                ],
                "readingOrder": [["href": "01.mp3", "type": "audio/mpeg"], ["href": href, "type": "audio/mpeg"]]
            ]
            try JSONSerialization.data(withJSONObject: json).write(to: manifest)
            let result = try shelf.run(["manifest", manifest.path])
            XCTAssertEqual(result.status, 65, "\(name): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(words), "\(name): \(result.stderr)")
        }
    }
}
