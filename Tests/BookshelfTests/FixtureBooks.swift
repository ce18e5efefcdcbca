import CZip
import Foundation

/// EPUB 3 books the tests write themselves with libzip: chapters stored uncompressed, so that each chapter's
/// positions (one per 1024 bytes of its file) are known in advance, and every paragraph's words are unique.
enum FixtureBooks {
    struct Chapter {
        var file: String
        var title: String
        var paragraphs: [String]
    }

    /// A paragraph of about 300 bytes whose words name its book part, chapter and paragraph.
    static func paragraph(_ chapter: Int, _ number: Int, tag: String = "") -> String {
        let words = [
            "harbour", "lantern", "ferry", "gull", "tide", "rope", "beacon", "shingle", "mist", "keel",
            "anchor", "reef", "quay", "driftwood", "compass", "gale"
        ]
        var text = "In part \(chapter) passage \(number)\(tag) the keeper noted"
        for i in 0..<34 { text += " " + words[(chapter * 7 + number * 3 + i * (i % 5 + 1)) % words.count] }
        return text + " and closed the log for entry \(chapter)-\(number)."
    }

    static func chapters(_ count: Int, paragraphs: Int = 9, first: Int = 1, filePrefix: String = "chapter") -> [Chapter]
    {
        (first..<(first + count)).map { c in
            Chapter(
                file: "\(filePrefix)-\(c).xhtml", title: "Chapter \(c)",
                paragraphs: (1...paragraphs).map { paragraph(c, $0) })
        }
    }

    static func xhtml(_ chapter: Chapter) -> String {
        let body = chapter.paragraphs.map { "    <p>\($0)</p>" }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
            <head><title>\(chapter.title)</title></head>
            <body>
              <section>
                <h1>\(chapter.title)</h1>
            \(body)
              </section>
            </body>
            </html>

            """
    }

    /// Writes the book: a cover page first (where a reader does not start), then the chapters.
    /// `protected`: the chapters are declared encrypted by Adobe ADEPT (META-INF/rights.xml, encryption.xml), as a
    /// bookshop's copy is: shelf opens the book but cannot read its chapters.
    /// `repacked`: the mimetype entry is not the archive's first, as in a book a packager re-zipped (it opens, with
    /// a warning).
    /// `spine`: the chapters' indexes in spine order, when not each once in order (EPUB lets an item be listed twice).
    static func write(
        to path: String, identifier: String, title: String = "The Tide Tables", author: String = "Ines Marlow",
        chapters: [Chapter], protected: Bool = false, repacked: Bool = false, spine order: [Int]? = nil
    ) throws {
        let cover = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Cover</title></head>
            <body epub:type="cover"><p>\(title)</p></body></html>

            """
        let items = chapters.enumerated().map {
            "    <item id=\"c\($0.offset)\" href=\"\($0.element.file)\" media-type=\"application/xhtml+xml\"/>"
        }
        .joined(separator: "\n")
        let spine = (order ?? Array(chapters.indices)).map { "    <itemref idref=\"c\($0)\"/>" }.joined(separator: "\n")
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="uid">\(identifier)</dc:identifier>
                <dc:title>\(title)</dc:title>
                <dc:creator>\(author)</dc:creator>
                <dc:language>en</dc:language>
                <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
            \(items)
              </manifest>
              <spine>
                <itemref idref="cover"/>
            \(spine)
              </spine>
            </package>

            """
        let toc = chapters.map { "      <li><a href=\"\($0.file)\">\($0.title)</a></li>" }.joined(separator: "\n")
        let landmarks =
            chapters.first.map { "      <li><a epub:type=\"bodymatter\" href=\"\($0.file)\">Start</a></li>" } ?? ""
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
            <body>
              <nav epub:type="toc"><ol>
            \(toc)
              </ol></nav>
              <nav epub:type="landmarks"><ol>
                <li><a epub:type="cover" href="cover.xhtml">Cover</a></li>
            \(landmarks)
              </ol></nav>
            </body></html>

            """
        let container = """
            <?xml version="1.0" encoding="UTF-8"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
              <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
            </container>

            """
        var entries: [(String, Data)] = [
            ("mimetype", Data("application/epub+zip".utf8)),
            ("META-INF/container.xml", Data(container.utf8)),
            ("OEBPS/content.opf", Data(opf.utf8)),
            ("OEBPS/nav.xhtml", Data(nav.utf8)),
            ("OEBPS/cover.xhtml", Data(cover.utf8))
        ]
        for chapter in chapters { entries.append(("OEBPS/" + chapter.file, Data(xhtml(chapter).utf8))) }
        if protected {
            let encrypted = chapters.map {
                """
                  <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
                    <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
                    <KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><resource xmlns="http://ns.adobe.com/adept">urn:uuid:0</resource></KeyInfo>
                    <CipherData><CipherReference URI="OEBPS/\($0.file)"/></CipherData>
                  </EncryptedData>
                """
            }.joined(separator: "\n")
            entries.append(
                (
                    "META-INF/encryption.xml",
                    Data(
                        """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                        \(encrypted)
                        </encryption>

                        """.utf8)
                ))
            entries.append(
                (
                    "META-INF/rights.xml",
                    Data("<?xml version=\"1.0\"?><rights xmlns=\"http://ns.adobe.com/adept\"/>\n".utf8)
                ))
        }
        if repacked { entries.append(entries.removeFirst()) }
        try zip(path: path, entries: entries)
    }

    /// A book of one file holding `sections`, each a heading with an id and its paragraphs; the table of contents
    /// points at the headings (`sections.xhtml#s2`).
    static func writeSections(
        to path: String, identifier: String = "urn:uuid:sections-1",
        sections: [(id: String, title: String, paragraphs: [String])]
    ) throws {
        let body = sections.map { s in
            "  <section>\n    <h2 id=\"\(s.id)\">\(s.title)</h2>\n"
                + s.paragraphs.map { "    <p>\($0)</p>" }.joined(separator: "\n") + "\n  </section>"
        }.joined(separator: "\n")
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>The log</title></head>
            <body>
            \(body)
            </body></html>

            """
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="uid">\(identifier)</dc:identifier>
                <dc:title>The Sections</dc:title>
                <dc:language>en</dc:language>
                <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="log" href="sections.xhtml" media-type="application/xhtml+xml"/>
              </manifest>
              <spine><itemref idref="log"/></spine>
            </package>

            """
        let toc = sections.map { "      <li><a href=\"sections.xhtml#\($0.id)\">\($0.title)</a></li>" }.joined(
            separator: "\n")
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
            <body><nav epub:type="toc"><ol>
            \(toc)
            </ol></nav></body></html>

            """
        let container = """
            <?xml version="1.0" encoding="UTF-8"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
              <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
            </container>

            """
        try zip(
            path: path,
            entries: [
                ("mimetype", Data("application/epub+zip".utf8)),
                ("META-INF/container.xml", Data(container.utf8)),
                ("OEBPS/content.opf", Data(opf.utf8)),
                ("OEBPS/nav.xhtml", Data(nav.utf8)),
                ("OEBPS/sections.xhtml", Data(chapter.utf8))
            ])
    }

    /// Positions of a stored chapter file: one per started 1024 bytes.
    static func pages(_ chapter: Chapter) -> Int { (xhtml(chapter).utf8.count + 1023) / 1024 }

    /// Writes a zip with every entry stored (no compression), the mimetype first.
    static func zip(path: String, entries: [(String, Data)]) throws {
        try? FileManager.default.removeItem(atPath: path)
        var error: Int32 = 0
        guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &error) else {
            throw NSError(domain: "zip", code: Int(error))
        }
        for (name, data) in entries {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
            data.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: data.count)
            guard let source = zip_source_buffer(archive, copy, zip_uint64_t(data.count), 1) else {
                zip_discard(archive)
                throw NSError(domain: "zip", code: 2)
            }
            let index = zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_OVERWRITE))
            guard index >= 0, zip_set_file_compression(archive, zip_uint64_t(index), ZIP_CM_STORE, 0) == 0 else {
                zip_discard(archive)
                throw NSError(domain: "zip", code: 3)
            }
        }
        guard zip_close(archive) == 0 else { throw NSError(domain: "zip", code: 4) }
    }
}
