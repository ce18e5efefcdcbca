import CZip
import EPUBCore
import Foundation
import PluginKit

/// One fuzz input, as libFuzzer hands it over: the first byte picks what the rest of the bytes
/// become, the remainder is that document (or archive). Every outcome must be a value or a thrown
/// error; a crash, a sanitizer report or a hang is a finding.
///
///   0  META-INF/container.xml          3  the EPUB 3 nav document
///   1  the EPUB 2 package (OPF)         4  the EPUB 3 package (OPF)
///   2  the NCX                          5+ the whole archive's bytes
enum FuzzTarget {
    static let folder: String = {
        var template = Array("/tmp/shelf-fuzz-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("no temporary folder for the fuzz target") }
        return String(cString: made)
    }()
    static let book = folder + "/input.epub"

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        if selector >= 5 {
            guard FileManager.default.createFile(atPath: book, contents: Data(body)) else { return }
        } else {
            var entries = selector >= 3 ? Skeleton.epub3 : Skeleton.epub2
            let replaced = ["META-INF/container.xml", "OEBPS/content.opf", "OEBPS/toc.ncx", "OEBPS/nav.xhtml", "OEBPS/content.opf"][Int(selector)]
            entries = entries.map { $0.0 == replaced ? ($0.0, body) : $0 }
            guard Skeleton.write(entries, to: book) else { return }
        }
        exercise(book)
    }

    /// Every call a reader makes of an open book.
    static func exercise(_ path: String) {
        guard let publication = try? EPUBPublication(path: path) else { return }
        if let manifest = try? publication.manifest() {
            _ = ReadiumJSON.wire(manifest)
            for link in (manifest.toc ?? []).prefix(8) + manifest.readingOrder.prefix(8) {
                _ = try? publication.resource(href: link.href)
            }
        }
        if let positions = try? publication.positions() {
            if let first = positions.first { _ = try? publication.locate(first) }
            if let last = positions.last { _ = try? publication.render(at: last, settings: RenderSettings(as: .html)) }
        }
        _ = try? publication.render(at: nil, settings: RenderSettings(as: .text, width: 30))
        _ = try? publication.search("the", limit: 5)
    }
}

/// The smallest EPUB 2 and EPUB 3 that open, so that a fuzzed document is reached through a real
/// container, and a writer for them.
enum Skeleton {
    static let container = """
        <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
        """
    static let chapter = """
        <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>
        <body><h1 id="c1">Chapter One</h1><p>It was the best of times, the worst of <em>times</em>.</p>
        <ul><li>a list</li></ul><table><tr><td>cell</td></tr></table><img src="x.png" alt="picture"/></body></html>
        """
    static let ncx = """
        <?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/>
        <docTitle><text>T</text></docTitle><navMap><navPoint id="n1" playOrder="1"><navLabel><text>One</text></navLabel>
        <content src="chapter.xhtml#c1"/></navPoint></navMap></ncx>
        """
    static let nav = """
        <?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
        <nav epub:type="toc"><ol><li><a href="chapter.xhtml#c1">One</a><ol><li><a href="chapter.xhtml">Inner</a></li></ol></li></ol></nav>
        <nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="chapter.xhtml">Start</a></li></ol></nav></body></html>
        """
    static func opf(version: String, nav: Bool) -> String {
        """
        <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="\(version)" unique-identifier="id">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:fuzz</dc:identifier>
        <dc:title id="t">Fuzz</dc:title><meta refines="#t" property="title-type">main</meta><dc:language>en</dc:language>
        <dc:creator id="a">Ann</dc:creator><meta refines="#a" property="role" scheme="marc:relators">aut</meta></metadata>
        <manifest><item id="ch" href="chapter.xhtml" media-type="application/xhtml+xml"/>
        <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
        \(nav ? #"<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>"# : "")</manifest>
        <spine toc="ncx"><itemref idref="ch"/></spine></package>
        """
    }

    static let epub2: [(String, [UInt8])] = [
        ("mimetype", Array("application/epub+zip".utf8)), ("META-INF/container.xml", Array(container.utf8)),
        ("OEBPS/content.opf", Array(opf(version: "2.0", nav: false).utf8)), ("OEBPS/toc.ncx", Array(ncx.utf8)),
        ("OEBPS/chapter.xhtml", Array(chapter.utf8)),
    ]
    static let epub3: [(String, [UInt8])] = [
        ("mimetype", Array("application/epub+zip".utf8)), ("META-INF/container.xml", Array(container.utf8)),
        ("OEBPS/content.opf", Array(opf(version: "3.0", nav: true).utf8)), ("OEBPS/toc.ncx", Array(ncx.utf8)),
        ("OEBPS/nav.xhtml", Array(nav.utf8)), ("OEBPS/chapter.xhtml", Array(chapter.utf8)),
    ]

    static func write(_ entries: [(String, [UInt8])], to path: String) -> Bool {
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else { return false }
        for (name, bytes) in entries {
            let buffer = malloc(max(1, bytes.count))!
            bytes.withUnsafeBytes { raw in if let base = raw.baseAddress { memcpy(buffer, base, bytes.count) } }
            guard let source = zip_source_buffer(archive, buffer, UInt64(bytes.count), 1) else { free(buffer); continue }
            let index = zip_file_add(archive, name, source, UInt32(ZIP_FL_ENC_UTF_8))
            if index < 0 { zip_source_free(source); continue }
            // Stored, not deflated: writing is the harness's cost, not the code under test.
            zip_set_file_compression(archive, UInt64(index), ZIP_CM_STORE, 0)
        }
        guard zip_close(archive) == 0 else { zip_discard(archive); return false }
        return true
    }
}

public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
