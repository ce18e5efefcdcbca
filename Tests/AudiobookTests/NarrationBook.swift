import Foundation
import XCTest

/// A small narrated EPUB 3 made for the tests: two chapters whose phrases are spoken by espeak-ng into one MP3 a
/// chapter (lame), and a SMIL file a chapter that narrates them with nested `seq`s, `epub:type` (a page number and a
/// footnote, skippable; a table of two rows, escapable) and clip times in every SMIL clock form. `phrases` says
/// what each clip reads and how long its audio lasts. The contents has an entry inside chapter two ("The Logbook",
/// a section holding its third phrase).
enum NarrationBook {
    struct Phrase {
        let id: String
        let text: String
        /// The SMIL element around it: the par's own epub:type, and the seqs holding it (outermost first).
        let parType: String?
        let seqs: [(id: String?, type: String)]
        var duration = 0.0
    }

    static let chapters: [[Phrase]] = [
        [
            Phrase(id: "c1h", text: "Chapter One. The Crossing.", parType: nil, seqs: []),
            Phrase(
                id: "c1p1", text: "The ferry came in late that evening, low in the water and slow against the tide.",
                parType: nil, seqs: []),
            Phrase(id: "pg2", text: "Page two.", parType: "pagebreak", seqs: []),
            Phrase(
                id: "c1p2", text: "Ada watched the harbour lights gather out of the dark, one after another.",
                parType: nil, seqs: []),
            Phrase(
                id: "r1", text: "Monday: calm seas and a light wind from the west.", parType: nil,
                seqs: [("tides", "table"), (nil, "table-row")]),
            Phrase(
                id: "r2", text: "Tuesday: fog until noon, then rain.", parType: nil,
                seqs: [("tides", "table"), (nil, "table-row")]),
            Phrase(
                id: "n1", text: "A note: the ferry ran twice a week in winter.", parType: "footnote",
                seqs: [(nil, "aside")]),
            Phrase(
                id: "c1p3", text: "She carried one bag, a lamp, and a letter she had not yet opened.", parType: nil,
                seqs: [])
        ],
        [
            Phrase(id: "c2h", text: "Chapter Two. The Lighthouse.", parType: nil, seqs: []),
            Phrase(
                id: "c2p1",
                text:
                    "The stairs of the lighthouse turned one hundred and twelve times, and by the second night her legs had learned the number for her.",
                parType: nil, seqs: []),
            Phrase(
                id: "c2p2",
                text:
                    "In the back of the logbook, upside down, were other entries: a list of birds, a recipe for fish soup, and a drawing of the lens.",
                parType: nil, seqs: []),
            Phrase(
                id: "c2p3",
                text:
                    "Every evening at dusk she climbed to the lamp room, wound the clockwork, and wrote the hour in the log.",
                parType: nil, seqs: []),
            Phrase(
                id: "c2p4", text: "The keeper before her had written in green ink, in a small and patient hand.",
                parType: nil, seqs: []),
            Phrase(
                id: "c2p5",
                text: "On the fourth night a storm came in from the sea, and the whole tower hummed like a bell.",
                parType: nil, seqs: [])
        ]
    ]

    /// A clock value in the `n`th of SMIL's forms, so that a chapter's clips use them all.
    static func clock(_ seconds: Double, form n: Int) -> String {
        switch n % 7 {
        case 0:
            let h = Int(seconds) / 3600, m = Int(seconds) / 60 % 60
            return String(format: "%d:%02d:%06.3f", h, m, seconds - Double(h * 3600 + m * 60))
        case 1: return String(format: "%02d:%06.3f", Int(seconds) / 60, seconds - Double(Int(seconds) / 60 * 60))
        case 2: return String(format: "%.3fs", seconds)
        case 3: return String(format: "%.0fms", seconds * 1000)
        case 4: return String(format: "%.9fmin", seconds / 60)
        case 5: return String(format: "%.10fh", seconds / 3600)
        default: return String(format: "%.3f", seconds)
        }
    }

    /// The book, and its phrases with their durations.
    static func make() throws -> (url: URL, chapters: [[Phrase]]) {
        try AudioFixtures.require("espeak-ng", "ffmpeg", "lame", "zip")
        var timed = chapters
        let url = try AudioFixtures.once("narrated-epub") {
            let dir = AudioFixtures.directory.appendingPathComponent("narrated")
            try? FileManager.default.removeItem(at: dir)
            let oebps = dir.appendingPathComponent("OEBPS")
            for sub in ["META-INF", "OEBPS/text", "OEBPS/audio", "OEBPS/smil", "work"] {
                try FileManager.default.createDirectory(
                    at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            try write("application/epub+zip", dir.appendingPathComponent("mimetype"))
            try write(
                """
                <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
                <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
                """, dir.appendingPathComponent("META-INF/container.xml"))
            for (c, phrases) in chapters.enumerated() {
                // Each phrase spoken, measured, and joined into the chapter's MP3.
                var list = ""
                for (p, phrase) in phrases.enumerated() {
                    let wav = dir.appendingPathComponent("work/\(c)-\(p).wav")
                    try AudioFixtures.run("espeak-ng", ["-s", "170", "-w", wav.path, phrase.text])
                    let fixed = dir.appendingPathComponent("work/\(c)-\(p)-44.wav")
                    try AudioFixtures.run(
                        "ffmpeg",
                        [
                            "-y", "-v", "error", "-i", wav.path, "-ar", "44100", "-ac", "1", "-c:a", "pcm_s16le",
                            fixed.path
                        ])
                    timed[c][p].duration = try AudioFixtures.duration(of: fixed)
                    list += "file '\(fixed.path)'\n"
                }
                let listFile = dir.appendingPathComponent("work/\(c).txt")
                try write(list, listFile)
                let joined = dir.appendingPathComponent("work/\(c).wav")
                try AudioFixtures.run(
                    "ffmpeg",
                    ["-y", "-v", "error", "-f", "concat", "-safe", "0", "-i", listFile.path, "-c", "copy", joined.path])
                try AudioFixtures.run(
                    "lame",
                    [
                        "--quiet", "-b", "64", "-m", "m", joined.path,
                        oebps.appendingPathComponent("audio/ch\(c + 1).mp3").path
                    ])
                try write(xhtml(c, phrases), oebps.appendingPathComponent("text/ch\(c + 1).xhtml"))
                try write(smil(c, timed[c]), oebps.appendingPathComponent("smil/ch\(c + 1).smil"))
            }
            try write(opf(timed), oebps.appendingPathComponent("content.opf"))
            try write(nav, oebps.appendingPathComponent("nav.xhtml"))
            let book = AudioFixtures.directory.appendingPathComponent("narrated.epub")
            try? FileManager.default.removeItem(at: book)
            try zip(in: dir, ["-X", "-0", book.path, "mimetype"])
            try zip(in: dir, ["-X", "-r", book.path, "META-INF", "OEBPS"])
            // The durations, beside the book, for the next test of this run.
            let durations = timed.map { $0.map(\.duration) }
            try JSONSerialization.data(withJSONObject: durations).write(
                to: dir.appendingPathComponent("durations.json"))
            return book
        }
        let saved = try JSONSerialization.jsonObject(
            with: Data(contentsOf: AudioFixtures.directory.appendingPathComponent("narrated/durations.json")))
        for (c, list) in ((saved as? [[Double]]) ?? []).enumerated() {
            for (p, d) in list.enumerated() { timed[c][p].duration = d }
        }
        return (url, timed)
    }

    /// A copy of the book in `folder` with a part of no narration between its two chapters ("Interlude", in the
    /// contents): a partly narrated book.
    static func withInterlude(_ book: URL, in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("partly-narrated.epub")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: book, to: copy)
        let work = folder.appendingPathComponent("interlude")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("OEBPS/text"), withIntermediateDirectories: true)
        try write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>Interlude</title></head><body>
            <h1>Interlude</h1><p>A letter, unread, in a drawer of the keeper's desk.</p></body></html>
            """, work.appendingPathComponent("OEBPS/text/interlude.xhtml"))
        let interlude = "<item id=\"interlude\" href=\"text/interlude.xhtml\" media-type=\"application/xhtml+xml\"/>"
        let opf = opf(chapters)
            .replacingOccurrences(of: "<item id=\"ch2\"", with: interlude + "\n<item id=\"ch2\"")
            .replacingOccurrences(
                of: "<itemref idref=\"ch2\"/>", with: "<itemref idref=\"interlude\"/><itemref idref=\"ch2\"/>")
        try write(opf, work.appendingPathComponent("OEBPS/content.opf"))
        let entry = "<li><a href=\"text/interlude.xhtml\">Interlude</a></li>\n"
        try write(
            nav.replacingOccurrences(
                of: "<li><a href=\"text/ch2.xhtml\">", with: entry + "<li><a href=\"text/ch2.xhtml\">"),
            work.appendingPathComponent("OEBPS/nav.xhtml"))
        try zip(in: work, ["-X", copy.path, "OEBPS/content.opf", "OEBPS/nav.xhtml", "OEBPS/text/interlude.xhtml"])
        return copy
    }

    static func write(_ text: String, _ url: URL) throws { try text.write(to: url, atomically: true, encoding: .utf8) }

    static func zip(in dir: URL, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AudioFixtures.tool("zip") ?? "/usr/bin/zip")
        p.currentDirectoryURL = dir
        p.arguments = ["-q"] + args
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("zip failed (\(p.terminationStatus))") }
    }

    static func xhtml(_ c: Int, _ phrases: [Phrase]) -> String {
        var body = ""
        for phrase in phrases {
            switch phrase.id {
            case "pg2": body += "<span id=\"pg2\" epub:type=\"pagebreak\" role=\"doc-pagebreak\">Page two.</span>\n"
            case "r1": body += "<table><tr id=\"r1\"><td>\(phrase.text)</td></tr>\n"
            case "r2": body += "<tr id=\"r2\"><td>\(phrase.text)</td></tr></table>\n"
            case "n1": body += "<aside epub:type=\"footnote\" id=\"n1\"><p>\(phrase.text)</p></aside>\n"
            case let id where id.hasSuffix("h"): body += "<h1 id=\"\(id)\">\(phrase.text)</h1>\n"
            // The section a contents entry points at ("The Logbook", ch2.xhtml#logbook), not a phrase of its own.
            case "c2p2": body += "<section id=\"logbook\"><p id=\"c2p2\">\(phrase.text)</p></section>\n"
            default: body += "<p id=\"\(phrase.id)\">\(phrase.text)</p>\n"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
            <head><title>Chapter \(c + 1)</title></head><body>
            \(body)</body></html>
            """
    }

    /// The chapter's SMIL: a seq for the chapter holding every par, the table's rows in seqs of their own inside the
    /// table's seq, the footnote in an aside's seq; clip times in every clock form; the first clip without a
    /// clipBegin (0) and the second chapter's last without a clipEnd (to the end of the audio).
    static func smil(_ c: Int, _ phrases: [Phrase]) -> String {
        var out = ""
        var open: [(id: String?, type: String)] = []
        var t = 0.0
        for (p, phrase) in phrases.enumerated() {
            // Close the seqs this phrase is not in, open the ones it is in (a row is a seq of its own each time).
            var keep = 0
            while keep < open.count, keep < phrase.seqs.count, open[keep].type == phrase.seqs[keep].type,
                open[keep].id == phrase.seqs[keep].id, open[keep].type != "table-row"
            {
                keep += 1
            }
            out += String(repeating: "</seq>", count: open.count - keep)
            open.removeLast(open.count - keep)
            for seq in phrase.seqs[keep...] {
                out += "<seq\(seq.id.map { " id=\"\($0)\"" } ?? "") epub:type=\"\(seq.type)\">"
                open.append(seq)
            }
            let begin = p == 0 ? "" : " clipBegin=\"\(clock(t, form: p + c))\""
            let last = c == chapters.count - 1 && p == phrases.count - 1
            let end = last ? "" : " clipEnd=\"\(clock(t + phrase.duration, form: p + c + 3))\""
            out +=
                "<par id=\"par-\(phrase.id)\"\(phrase.parType.map { " epub:type=\"\($0)\"" } ?? "")>"
                + "<text src=\"../text/ch\(c + 1).xhtml#\(phrase.id)\"/><audio src=\"../audio/ch\(c + 1).mp3\"\(begin)\(end)/></par>\n"
            t += phrase.duration
        }
        out += String(repeating: "</seq>", count: open.count)
        return """
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
            <body><seq id="chapter\(c + 1)" epub:type="chapter" epub:textref="../text/ch\(c + 1).xhtml">
            \(out)</seq></body></smil>
            """
    }

    static func opf(_ chapters: [[Phrase]]) -> String {
        let total = chapters.flatMap { $0 }.reduce(0) { $0 + $1.duration }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="id">urn:uuid:5b0b1e7e-2a52-4d39-9f57-0a7e2c5d1a01</dc:identifier>
            <dc:title>The Narrated Crossing</dc:title><dc:language>en</dc:language><dc:creator>Test Voices</dc:creator>
            <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
            <meta property="media:duration">\(clock(total, form: 0))</meta>
            <meta property="media:active-class">-epub-media-overlay-active</meta>
            </metadata>
            <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="ch1" href="text/ch1.xhtml" media-type="application/xhtml+xml" media-overlay="mo1"/>
            <item id="ch2" href="text/ch2.xhtml" media-type="application/xhtml+xml" media-overlay="mo2"/>
            <item id="mo1" href="smil/ch1.smil" media-type="application/smil+xml"/>
            <item id="mo2" href="smil/ch2.smil" media-type="application/smil+xml"/>
            <item id="a1" href="audio/ch1.mp3" media-type="audio/mpeg"/>
            <item id="a2" href="audio/ch2.mp3" media-type="audio/mpeg"/>
            </manifest>
            <spine><itemref idref="ch1"/><itemref idref="ch2"/></spine>
            </package>
            """
    }

    static let nav = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
        <body><nav epub:type="toc"><ol><li><a href="text/ch1.xhtml">The Crossing</a></li>
        <li><a href="text/ch2.xhtml">The Lighthouse</a></li>
        <li><a href="text/ch2.xhtml#logbook">The Logbook</a></li></ol></nav></body></html>
        """
}
