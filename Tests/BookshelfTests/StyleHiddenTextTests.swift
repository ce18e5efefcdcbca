import Foundation
import TestSupport
import XCTest

/// Text the book's style sheet hides (a class with `display: none`, as accessible books keep image descriptions) is
/// not shown in the terminal rendering, nor found by search, as the `hidden` attribute's is not. Failed before: the
/// description and every other hidden passage were printed among the page's text.
final class StyleHiddenTextTests: BookshelfTestCase {
    func book() throws -> String {
        let css = """
            /* The page's look; .longdesc is read by screen readers through aria-describedby. */
            body { margin: 1em; }
            .longdesc, .sr.only { display: none; }
            .note { color: #333; }
            @media print { .shown { display: none } }
            @font-face { font-family: "Tide"; src: url(tide.woff); }
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
            <head><title>One</title>
            <link rel="stylesheet" type="text/css" href="../css/book.css"/>
            <style>p.extra { display : none !important }</style>
            </head>
            <body>
              <h1>One</h1>
              <p>The lighthouse stood on the point.</p>
              <img src="tower.png" alt="The tower" aria-describedby="d1"/>
              <p id="d1" class="figure longdesc">A drawing of a white tower on a rock.</p>
              <div><span class="only sr">Words for screen readers alone.</span></div>
              <p class="note">A visible note.</p>
              <p class="shown">Shown on screen, hidden in print.</p>
              <p style="color: red; display: none">Hidden inline.</p>
              <p class="extra">Hidden by the style element.</p>
              <h2 class="extra">A heading of class extra stays.</h2>
              <p hidden="">Hidden by the attribute.</p>
              <p>The keeper climbed the stairs.</p>
            </body>
            </html>

            """
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="uid">urn:uuid:style-hidden-1</dc:identifier>
                <dc:title>Described Tower</dc:title>
                <dc:language>en</dc:language>
                <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="css" href="css/book.css" media-type="text/css"/>
                <item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>
              </manifest>
              <spine><itemref idref="c1"/></spine>
            </package>

            """
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
            <body><nav epub:type="toc"><ol><li><a href="text/one.xhtml">One</a></li></ol></nav></body></html>

            """
        let container = """
            <?xml version="1.0" encoding="UTF-8"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
              <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
            </container>

            """
        let path = folder.appendingPathComponent("described.epub").path
        try FixtureBooks.zip(
            path: path,
            entries: [
                ("mimetype", Data("application/epub+zip".utf8)), ("META-INF/container.xml", Data(container.utf8)),
                ("OEBPS/content.opf", Data(opf.utf8)), ("OEBPS/nav.xhtml", Data(nav.utf8)),
                ("OEBPS/css/book.css", Data(css.utf8)), ("OEBPS/text/one.xhtml", Data(chapter.utf8))
            ])
        return path
    }

    func testTextTheStyleSheetHidesIsNotShown() throws {
        let path = try book()
        let text = try ok(["render", path, "--as", "text", "--width", "200"]).stdout
        for shown in [
            "The lighthouse stood on the point.", "[Image: The tower]", "A visible note.",
            "Shown on screen, hidden in print.", "A heading of class extra stays.", "The keeper climbed the stairs."
        ] {
            XCTAssertTrue(text.contains(shown), "\(shown) is shown:\n\(text)")
        }
        for hidden in [
            "white tower", "screen readers alone", "Hidden inline", "Hidden by the style element",
            "Hidden by the attribute"
        ] {
            XCTAssertFalse(text.contains(hidden), "\(hidden) is hidden:\n\(text)")
        }
        let hits = try XCTUnwrap(try ok(["search", path, "white tower", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(hits.count, 0, "search reads the text the page shows")
        XCTAssertEqual(
            (try ok(["search", path, "keeper climbed", "--json"]).json() as? [[String: Any]])?.count, 1)
    }
}
