import CZip
import Foundation
import XCTest

/// Writes EPUB fixtures with libzip into a temporary folder the test owns.
final class FixtureDir {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("epubtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A zip written by libzip: entries in order; `stored` names are not compressed.
    func zip(_ name: String, _ entries: [(String, Data)], stored: Set<String> = ["mimetype"]) throws -> String {
        let p = path(name)
        var code: Int32 = 0
        guard let za = zip_open(p, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            throw XCTSkip("libzip cannot create \(p): \(code)")
        }
        for (entryName, data) in entries {
            let buffer = malloc(max(1, data.count))!
            data.withUnsafeBytes { raw in if let b = raw.baseAddress { memcpy(buffer, b, data.count) } }
            guard let src = zip_source_buffer(za, buffer, UInt64(data.count), 1) else { free(buffer); continue }
            let idx = zip_file_add(za, entryName, src, UInt32(ZIP_FL_ENC_UTF_8))
            if idx < 0 { zip_source_free(src); continue }
            if stored.contains(entryName) {
                zip_set_file_compression(za, UInt64(idx), ZIP_CM_STORE, 0)
            } else {
                zip_set_file_compression(za, UInt64(idx), ZIP_CM_DEFLATE, 9)
            }
        }
        guard zip_close(za) == 0 else { zip_discard(za); throw XCTSkip("libzip cannot write \(p)") }
        return p
    }

    func zip(_ name: String, _ entries: [(String, String)], stored: Set<String> = ["mimetype"]) throws -> String {
        try zip(name, entries.map { ($0.0, Data($0.1.utf8)) }, stored: stored)
    }

    /// Runs `body` with the process's standard error redirected to a file; returns what was written.
    func capturingStandardError(_ body: () throws -> Void) rethrows -> String {
        let file = path("stderr-\(UUID().uuidString).txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: nil))
        fflush(stderr)
        let saved = dup(2)
        let fd = open(file, O_WRONLY)
        dup2(fd, 2)
        defer {
            fflush(stderr)
            dup2(saved, 2)
            close(saved)
            close(fd)
        }
        try body()
        fflush(stderr)
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let p = path(name)
        try data.write(to: URL(fileURLWithPath: p))
        return p
    }
}

/// A zip writer that writes exactly what it is told, for structures libzip refuses to produce
/// (duplicate names, escaping names, unknown methods, multi-disk markers). Stored entries only.
struct RawZip {
    struct Entry {
        var name: String
        var data: Data
        var method: UInt16 = 0
        var declaredSize: UInt32? = nil
        /// The name as bytes, when it must not be UTF-8 (then `flags` says whether it claims to be).
        var rawName: Data? = nil
        var flags: UInt16 = 0x0800
        var crc: UInt32? = nil
    }
    var entries: [Entry] = []
    var diskNumber: UInt16 = 0
    var comment = Data()
    /// Writes the directory the zip64 way: saturated fields, the numbers in extra fields and a
    /// zip64 end record with its locator.
    var zip64 = false

    private static let crcTable: [UInt32] = (0..<256).map { i in
        var c = UInt32(i)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: Data) -> UInt32 {
        let table = crcTable
        var crc: UInt32 = 0xFFFFFFFF
        for b in data { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFFFFFF
    }

    func bytes() -> Data {
        var out = Data()
        var central = Data()
        func u16(_ v: UInt16, _ d: inout Data) { d.append(UInt8(v & 0xFF)); d.append(UInt8(v >> 8)) }
        func u32(_ v: UInt32, _ d: inout Data) { for i in 0..<4 { d.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
        func u64(_ v: UInt64, _ d: inout Data) { for i in 0..<8 { d.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
        for e in entries {
            let offset = UInt32(out.count)
            let name = e.rawName ?? Data(e.name.utf8)
            let crc = e.crc ?? RawZip.crc32(e.data)
            let size = e.declaredSize ?? UInt32(e.data.count)
            u32(0x04034b50, &out); u16(20, &out); u16(e.flags, &out); u16(e.method, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(UInt32(e.data.count), &out); u32(size, &out); u16(UInt16(name.count), &out);
            u16(0, &out)
            out.append(name); out.append(e.data)
            var extra = Data()
            if zip64 {
                u16(1, &extra); u16(24, &extra); u64(UInt64(size), &extra); u64(UInt64(e.data.count), &extra);
                u64(UInt64(offset), &extra)
            }
            u32(0x02014b50, &central); u16(45, &central); u16(45, &central); u16(e.flags, &central);
            u16(e.method, &central)
            u16(0, &central); u16(0, &central); u32(crc, &central)
            u32(zip64 ? 0xFFFF_FFFF : UInt32(e.data.count), &central); u32(zip64 ? 0xFFFF_FFFF : size, &central)
            u16(UInt16(name.count), &central); u16(UInt16(extra.count), &central); u16(0, &central);
            u16(diskNumber, &central); u16(0, &central)
            u32(0, &central); u32(zip64 ? 0xFFFF_FFFF : offset, &central); central.append(name); central.append(extra)
        }
        let cdOffset = UInt32(out.count)
        out.append(central)
        if zip64 {
            let recordOffset = UInt64(out.count)
            u32(0x06064b50, &out); u64(44, &out); u16(45, &out); u16(45, &out); u32(UInt32(diskNumber), &out);
            u32(UInt32(diskNumber), &out)
            u64(UInt64(entries.count), &out); u64(UInt64(entries.count), &out); u64(UInt64(central.count), &out);
            u64(UInt64(cdOffset), &out)
            u32(0x07064b50, &out); u32(UInt32(diskNumber), &out); u64(recordOffset, &out); u32(1, &out)
        }
        u32(0x06054b50, &out); u16(diskNumber, &out); u16(diskNumber, &out)
        u16(zip64 ? 0xFFFF : UInt16(entries.count), &out); u16(zip64 ? 0xFFFF : UInt16(entries.count), &out)
        u32(zip64 ? 0xFFFF_FFFF : UInt32(central.count), &out); u32(zip64 ? 0xFFFF_FFFF : cdOffset, &out)
        u16(UInt16(comment.count), &out); out.append(comment)
        return out
    }
}

/// Minimal books.
enum Books {
    static let container = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """

    static func xhtml(_ title: String, _ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>\(title)</title><link rel="stylesheet" href="../css/style.css" type="text/css"/></head>
        <body>\(body)</body></html>
        """
    }

    static let epub2OPF = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="bookid">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
            <dc:title>A Little Book</dc:title>
            <dc:creator opf:role="aut" opf:file-as="Writer, Ann">Ann Writer</dc:creator>
            <dc:contributor opf:role="trl">Tom Translator</dc:contributor>
            <dc:identifier id="bookid">urn:uuid:12345678-1234-1234-1234-123456789abc</dc:identifier>
            <dc:identifier>isbn:9780000000001</dc:identifier>
            <dc:language>en</dc:language>
            <dc:publisher>Small Press</dc:publisher>
            <dc:date opf:event="publication">2001-02-03</dc:date>
            <dc:subject>Fiction</dc:subject>
            <dc:description>A book for tests.</dc:description>
            <meta name="cover" content="cover-img"/>
            <meta name="calibre:series" content="Test Series"/>
            <meta name="calibre:series_index" content="2"/>
          </metadata>
          <manifest>
            <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
            <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
            <item id="cover-img" href="images/cover.png" media-type="image/png"/>
            <item id="ch1" href="text/chapter%201.xhtml" media-type="application/xhtml+xml"/>
            <item id="ch2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>
            <item id="notes" href="text/notes.xhtml" media-type="application/xhtml+xml"/>
            <item id="css" href="css/style.css" media-type="text/css"/>
          </manifest>
          <spine toc="ncx">
            <itemref idref="cover"/>
            <itemref idref="ch1"/>
            <itemref idref="ch2"/>
            <itemref idref="notes" linear="no"/>
          </spine>
          <guide>
            <reference type="cover" title="Cover" href="cover.xhtml"/>
            <reference type="text" title="Start" href="text/chapter%201.xhtml"/>
          </guide>
        </package>
        """

    static let ncx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
          <head/><docTitle><text>A Little Book</text></docTitle>
          <navMap>
            <navPoint id="p1" playOrder="1"><navLabel><text>Part One</text></navLabel><content src="text/chapter%201.xhtml"/>
              <navPoint id="p2" playOrder="2"><navLabel><text>Chapter 1</text></navLabel><content src="text/chapter%201.xhtml#c1"/>
                <navPoint id="p3" playOrder="3"><navLabel><text>Section 1.1</text></navLabel><content src="text/chapter%201.xhtml#s11"/></navPoint>
              </navPoint>
              <navPoint id="p4" playOrder="4"><navLabel><text>Chapter 2</text></navLabel><content src="text/ch2.xhtml"/></navPoint>
            </navPoint>
          </navMap>
          <pageList><pageTarget type="normal" value="1"><navLabel><text>1</text></navLabel><content src="text/chapter%201.xhtml#p1"/></pageTarget></pageList>
        </ncx>
        """

    static let chapter1 = xhtml(
        "Chapter 1",
        """
        <h1 id="c1">Chapter One</h1>
        <p>Call me <em>Ishmael</em>. Some years ago, never mind how long precisely, I went to sea.<a epub:type="noteref" href="notes.xhtml#n1">1</a></p>
        <h2 id="s11">Section 1.1</h2>
        <ul><li>First point</li><li>Second point<ol><li>Nested one</li></ol></li></ul>
        <blockquote><p>A quoted line about the café and the naïve résumé.</p></blockquote>
        <table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>
        <p><img src="../images/cover.png" alt="A whale"/></p>
        """)

    static let chapter2 = xhtml(
        "Chapter 2",
        "<h1>Chapter Two</h1><p>The second chapter is here,\nwith a whale\n   of a tale.</p><p>Line one<br/>line two</p>"
    )
    static let notes = xhtml("Notes", "<aside epub:type=\"footnote\" id=\"n1\"><p>1. A note.</p></aside>")
    static let cover = xhtml("Cover", "<div><img src=\"images/cover.png\" alt=\"Cover\"/></div>")
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 100))

    static func epub2Entries() -> [(String, Data)] {
        [
            ("mimetype", Data("application/epub+zip".utf8)),
            ("META-INF/container.xml", Data(container.utf8)),
            ("OEBPS/content.opf", Data(epub2OPF.utf8)),
            ("OEBPS/toc.ncx", Data(ncx.utf8)),
            ("OEBPS/cover.xhtml", Data(cover.utf8)),
            ("OEBPS/images/cover.png", png),
            ("OEBPS/text/chapter 1.xhtml", Data(chapter1.utf8)),
            ("OEBPS/text/ch2.xhtml", Data(chapter2.utf8)),
            ("OEBPS/text/notes.xhtml", Data(notes.utf8)),
            ("OEBPS/css/style.css", Data("body { color: red; background: url(../images/cover.png); }".utf8))
        ]
    }

    static let epub3OPF = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" dir="ltr"
                 prefix="rendition: http://www.idpf.org/vocab/rendition/#">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title id="t1">The Main Title</dc:title>
            <meta refines="#t1" property="title-type">main</meta>
            <meta refines="#t1" property="file-as">Main Title, The</meta>
            <dc:title id="t2">A Subtitle</dc:title>
            <meta refines="#t2" property="title-type">subtitle</meta>
            <dc:creator id="c1">Jane Author</dc:creator>
            <meta refines="#c1" property="role" scheme="marc:relators">aut</meta>
            <meta refines="#c1" property="file-as">Author, Jane</meta>
            <dc:creator id="c2">Ed Itor</dc:creator>
            <meta refines="#c2" property="role" scheme="marc:relators">edt</meta>
            <dc:contributor id="c3">Ill Ustrator</dc:contributor>
            <meta refines="#c3" property="role" scheme="marc:relators">ill</meta>
            <dc:identifier id="uid">urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0</dc:identifier>
            <dc:identifier id="isbn">9781111111111</dc:identifier>
            <dc:language>fr</dc:language>
            <dc:publisher>Éditions Test</dc:publisher>
            <dc:date>2020-05-06</dc:date>
            <meta property="dcterms:modified">2021-01-01T00:00:00Z</meta>
            <meta property="belongs-to-collection" id="s1">Great Series</meta>
            <meta refines="#s1" property="collection-type">series</meta>
            <meta refines="#s1" property="group-position">3</meta>
            <meta property="schema:accessMode">textual</meta>
            <meta property="schema:accessibilityFeature">structuralNavigation</meta>
            <meta property="schema:accessibilityHazard">none</meta>
            <meta property="schema:accessibilitySummary">Fully accessible.</meta>
            <meta property="rendition:layout">reflowable</meta>
            <meta property="rendition:spread">none</meta>
            <meta property="media:duration">0:01:30</meta>
            <meta property="media:duration" refines="#mo1">0:00:05.500</meta>
          </metadata>
          <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
            <item id="cover-img" href="images/cover.png" media-type="image/png" properties="cover-image"/>
            <item id="ch1" href="text/chapter%201.xhtml" media-type="application/xhtml+xml" media-overlay="mo1"/>
            <item id="ch2" href="text/ch2.xhtml" media-type="application/xhtml+xml" properties="mathml"/>
            <item id="notes" href="text/notes.xhtml" media-type="application/xhtml+xml"/>
            <item id="mo1" href="smil/ch1.smil" media-type="application/smil+xml"/>
            <item id="font" href="fonts/font.otf" media-type="application/vnd.ms-opentype"/>
            <item id="afont" href="fonts/adobe.otf" media-type="application/vnd.ms-opentype"/>
            <item id="css" href="css/style.css" media-type="text/css"/>
          </manifest>
          <spine page-progression-direction="ltr">
            <itemref idref="cover" linear="yes"/>
            <itemref idref="ch1" properties="page-spread-right"/>
            <itemref idref="ch2"/>
            <itemref idref="notes" linear="no"/>
          </spine>
        </package>
        """

    static let nav = xhtml(
        "Contents",
        """
        <nav epub:type="toc"><h1>Contents</h1><ol>
          <li><a href="text/chapter%201.xhtml">Part One</a><ol>
            <li><a href="text/chapter%201.xhtml#c1">Chapter 1</a><ol><li><a href="text/chapter%201.xhtml#s11">Section 1.1</a></li></ol></li>
            <li><span>Group</span><ol><li><a href="text/ch2.xhtml">Chapter 2</a></li></ol></li>
          </ol></li></ol></nav>
        <nav epub:type="landmarks"><ol>
          <li><a epub:type="cover" href="cover.xhtml">Cover</a></li>
          <li><a epub:type="bodymatter" href="text/ch2.xhtml">Start here</a></li>
        </ol></nav>
        <nav epub:type="page-list"><ol><li><a href="text/chapter%201.xhtml#p1">1</a></li><li><a href="text/ch2.xhtml#p2">2</a></li></ol></nav>
        """)

    static let smil = """
        <smil xmlns="http://www.w3.org/ns/SMIL" version="3.0"><body><par id="p1"><text src="../text/chapter%201.xhtml#c1"/><audio src="../audio/a.mp3" clipBegin="0s" clipEnd="5s"/></par></body></smil>
        """

    /// A fake font whose first bytes are recognisable once de-obfuscated.
    static let font = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })

    static func epub3Entries(extra: [(String, Data)] = []) -> [(String, Data)] {
        [
            ("mimetype", Data("application/epub+zip".utf8)),
            ("META-INF/container.xml", Data(container.utf8)),
            ("OEBPS/content.opf", Data(epub3OPF.utf8)),
            ("OEBPS/nav.xhtml", Data(nav.utf8)),
            ("OEBPS/cover.xhtml", Data(cover.utf8)),
            ("OEBPS/images/cover.png", png),
            ("OEBPS/text/chapter 1.xhtml", Data(chapter1.utf8)),
            ("OEBPS/text/ch2.xhtml", Data(chapter2.utf8)),
            ("OEBPS/text/notes.xhtml", Data(notes.utf8)),
            ("OEBPS/smil/ch1.smil", Data(smil.utf8)),
            ("OEBPS/css/style.css", Data("body { color: red; }".utf8))
        ] + extra
    }
}
