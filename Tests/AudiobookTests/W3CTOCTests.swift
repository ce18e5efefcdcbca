import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// W3C audiobooks whose table of contents is an HTML document (`resources` with `rel: contents`):
/// its `nav` of links with `#t=` times becomes the TOC.
final class W3CTOCTests: XCTestCase {
    static let html = """
        <!DOCTYPE html>
        <html lang="en"><head><title>Contents</title><style>nav a { color: red; }</style></head>
        <body>
          <nav id="landmarks"><ol><li><a href="track1.mp3">Not the TOC</a></li></ol></nav>
          <nav role="doc-toc">
            <h2>Table of Contents</h2>
            <!-- <a href="track3.mp3">commented out</a> -->
            <ol>
              <li><a href="track1.mp3#t=0">One</a></li>
              <li><a href='track2.mp3'>Two &amp; more</a>
                <ol>
                  <li><a href="track2.mp3#t=2.5">Two,
                      later</a></li>
                </ol>
              </li>
              <li><span>Part &#8220;B&#8221;</span>
                <ol><li><a href=track3.mp3#t=0.5>Three</a></li></ol>
              </li>
            </ol>
          </nav>
        </body></html>
        """

    /// A W3C manifest (no JSON `toc`) over the MP3 fixture, with `toc.html` next to it.
    func fixture(in folder: URL, htmlName: String = "toc.html") throws -> URL {
        let source = try AudioFixtures.mp3Book().deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 1...3 {
            let dest = folder.appendingPathComponent("track\(i).mp3")
            if !FileManager.default.fileExists(atPath: dest.path) {
                try FileManager.default.copyItem(at: source.appendingPathComponent("track\(i).mp3"), to: dest)
            }
        }
        let manifest: [String: Any] = [
            "@context": ["https://schema.org", "https://www.w3.org/ns/pub-context"],
            "conformsTo": "https://www.w3.org/TR/audiobooks/", "type": "Audiobook", "name": "Contents In HTML",
            "readingOrder": (1...3).map {
                ["url": "track\($0).mp3", "encodingFormat": "audio/mpeg", "name": "Track \($0)"]
            },
            "resources": [["url": htmlName, "encodingFormat": "text/html", "rel": ["contents"]]]
        ]
        let html =
            htmlName.contains("/")
            ? Self.html.replacingOccurrences(of: "href=\"track", with: "href=\"../track")
                .replacingOccurrences(of: "href='track", with: "href='../track").replacingOccurrences(
                    of: "href=track", with: "href=../track")
            : Self.html
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(htmlName).deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try Data(html.utf8).write(to: folder.appendingPathComponent(htmlName))
        let url = folder.appendingPathComponent("publication.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)
        return url
    }

    func assertTOC(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let book = try TestHost.book(url)
        let engine = try PlaybackEngine(book: book)
        XCTAssertEqual(
            engine.chapters.map(\.title), ["One", "Two & more", "Two, later", "Three"], file: file, line: line)
        let t = engine.timeline
        XCTAssertEqual(t.seconds(engine.chapterStart(0)), 0, accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(
            t.seconds(engine.chapterStart(1)), t.seconds(t.lengths[0]), accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(
            t.seconds(engine.chapterStart(2)), t.seconds(t.lengths[0]) + 2.5, accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(
            t.seconds(engine.chapterStart(3)), t.seconds(t.lengths[0] + t.lengths[1]) + 0.5, accuracy: 0.001,
            file: file, line: line)
        // The heading without a link keeps its child; nesting is kept.
        XCTAssertEqual(book.manifest.toc?.map(\.title), ["One", "Two & more", "Three"], file: file, line: line)
        XCTAssertEqual(book.manifest.toc?[1].children?.first?.href, "track2.mp3#t=2.5", file: file, line: line)
    }

    func testHTMLTableOfContentsBesideTheManifest() throws {
        let folder = AudioFixtures.directory.appendingPathComponent("w3c-html-toc")
        try assertTOC(try fixture(in: folder))
    }

    func testHTMLTableOfContentsInASubfolderResolvesItsLinks() throws {
        let folder = AudioFixtures.directory.appendingPathComponent("w3c-html-toc-sub")
        try assertTOC(try fixture(in: folder, htmlName: "nav/contents.html"))
    }

    func testHTMLTableOfContentsInsideAnLPFPackage() throws {
        try AudioFixtures.require("zip")
        let folder = AudioFixtures.directory.appendingPathComponent("w3c-html-toc-lpf")
        _ = try fixture(in: folder)
        let lpf = AudioFixtures.directory.appendingPathComponent("html-toc.lpf")
        try? FileManager.default.removeItem(at: lpf)
        _ = try AudioFixtures.run(
            "zip",
            ["-q", "-j", lpf.path]
                + ["publication.json", "toc.html", "track1.mp3", "track2.mp3", "track3.mp3"]
                .map { folder.appendingPathComponent($0).path })
        try assertTOC(lpf)
    }

    /// The corpus's W3C manifests name an HTML table of contents but the corpus does not hold those
    /// files: each is given one written from its own reading order (links with `#t=`), and its TOC
    /// must come from that HTML.
    func testCorpusW3CManifestsWithAnHTMLContentsResource() throws {
        guard let root = Corpus.root?.appendingPathComponent("audiobook/w3c"),
            FileManager.default.fileExists(atPath: root.path)
        else { throw XCTSkip("../shared/corpus/audiobook is absent") }
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".json") }
            .sorted()
        var checked: [String] = []
        for name in names {
            let data = try Data(contentsOf: root.appendingPathComponent(name))
            guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any], json["toc"] == nil else {
                continue
            }
            let resources = (json["resources"] as? [[String: Any]]) ?? []
            guard
                let contents = resources.first(where: { r in
                    (r["rel"] as? String) == "contents" || ((r["rel"] as? [String])?.contains("contents") ?? false)
                }), let htmlURL = contents["url"] as? String, !htmlURL.contains("://")
            else { continue }
            let order = (json["readingOrder"] as? [[String: Any]]) ?? []
            let hrefs = order.compactMap { $0["url"] as? String }
            XCTAssertFalse(hrefs.isEmpty, name)
            var items = hrefs.enumerated().map { i, h in
                #"<li><a href="\#(h)#t=0">Entry \#(i + 1) of \#(name)</a></li>"#
            }
            items[0] =
                #"<li><a href="\#(hrefs[0])">Entry 1 of \#(name)</a><ol><li><a href="\#(hrefs[0])#t=30">Entry 1, later</a></li></ol></li>"#
            let folder = AudioFixtures.directory.appendingPathComponent("corpus-w3c/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent(name))
            try Data("<html><body><nav role=\"doc-toc\"><ol>\(items.joined())</ol></nav></body></html>".utf8)
                .write(to: folder.appendingPathComponent(htmlURL))
            let book = try TestHost.book(folder.appendingPathComponent(name))
            let toc = try XCTUnwrap(book.manifest.toc, name)
            XCTAssertEqual(toc.map(\.title), (1...hrefs.count).map { "Entry \($0) of \(name)" }, name)
            XCTAssertEqual(toc.first?.children?.first?.title, "Entry 1, later", name)
            XCTAssertTrue(toc.first?.children?.first?.href.hasSuffix("#t=30") ?? false, name)
            checked.append(name)
        }
        // audiobooks-flatland and the six LibriVox books; wpub-toc-as-json has a JSON toc, tennyson no contents.
        XCTAssertGreaterThanOrEqual(checked.count, 7, "\(checked)")
    }
}
