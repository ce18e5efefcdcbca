import EPUBCore
import Foundation
import PluginKit
import XCTest

/// A short, deterministic mutation loop over the container, package, NCX, nav and content
/// parsers (and over the zip bytes): every outcome must be a value or a PluginFailure, never a
/// crash or a hang. The long fuzzing run lives outside CI; this keeps the parsers honest in CI.
final class MutationTests: XCTestCase {
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
    }

    /// EPUB_MUTATION_ITERATIONS scales both loops for a long run outside CI (default 1).
    static var scale: Int { max(1, Int(ProcessInfo.processInfo.environment["EPUB_MUTATION_ITERATIONS"] ?? "") ?? 1) }
    static var seedOffset: UInt64 { UInt64(ProcessInfo.processInfo.environment["EPUB_MUTATION_SEED"] ?? "") ?? 0 }

    static let tokens: [String] = [
        "<", ">", "&", "&amp;", "&nbsp;", "&#0;", "&#xFFFFFFFF;", "\"", "'", "]]>", "<![CDATA[",
        "<!DOCTYPE x [<!ENTITY a \"&a;\">]>", "<!ENTITY", "../", "/", "#", "%", "%00", "%zz", "\u{0}", "\u{FFFE}",
        "\u{202E}",
        "<navPoint><content src=\"#\"/>", "<li><a href=\"../../x\">", "<ol>", "</ol>", "<itemref idref=\"x\"/>",
        "<item id=\"x\" href=\"x\" media-type=\"application/xhtml+xml\" fallback=\"x\"/>", "version=\"9.9\"",
        "linear=\"no\"", "properties=\"nav cover-image\"", "refines=\"#\"", "xmlns=\"\"", "\u{FF}",
        String(repeating: "<b>", count: 300)
    ]

    func mutate(_ data: Data, _ rng: inout SplitMix) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<(1 + rng.below(4)) {
            switch rng.below(6) {
            case 0 where !bytes.isEmpty:
                bytes[rng.below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 1:
                let t = Array(Self.tokens[rng.below(Self.tokens.count)].utf8)
                bytes.insert(contentsOf: t, at: rng.below(bytes.count + 1))
            case 2 where !bytes.isEmpty:
                let a = rng.below(bytes.count), b = min(bytes.count, a + rng.below(64))
                bytes.removeSubrange(a..<b)
            case 3 where !bytes.isEmpty:
                bytes = Array(bytes.prefix(rng.below(bytes.count)))
            case 4 where bytes.count > 8:
                let a = rng.below(bytes.count), b = min(bytes.count, a + rng.below(200))
                bytes.insert(contentsOf: bytes[a..<b], at: rng.below(bytes.count + 1))
            default:
                if !bytes.isEmpty { bytes[rng.below(bytes.count)] ^= 0x80 }
            }
        }
        return Data(bytes)
    }

    /// Exercises every call of a publication; any thrown error must be a PluginFailure.
    func exercise(_ path: String) {
        func check(_ what: String, _ body: () throws -> Void) {
            do { try body() } catch is PluginFailure {} catch {
                XCTFail("\(what): a non-PluginFailure error escaped: \(error)")
            }
        }
        var pub: EPUBPublication?
        check("open") { pub = try EPUBPublication(path: path) }
        guard let pub else { return }
        check("manifest") {
            let m = try pub.manifest()
            XCTAssertNotEqual(ReadiumJSON.encode(m), "null", "the manifest must encode as JSON")
            for l in (m.resources ?? []).prefix(20) + m.readingOrder.prefix(20) {
                check("resource") { _ = try pub.resource(href: l.href) }
            }
        }
        check("positions") {
            let p = try pub.positions()
            XCTAssertNotEqual(ReadiumJSON.encode(p), "null")
            if let f = p.first { _ = try pub.locate(f) }
            if let l = p.last { _ = try pub.render(at: l, settings: RenderSettings(as: .html)) }
        }
        check("render") { _ = try pub.render(at: nil, settings: RenderSettings(as: .text, width: 30)) }
        check("search") { XCTAssertNotEqual(ReadiumJSON.encode(try pub.search("a", limit: 20)), "null") }
    }

    func testMutatedXMLDocuments() throws {
        let dir = try FixtureDir()
        var rng = SplitMix(state: 0x5EED &+ Self.seedOffset)
        let seeds = [Books.epub2Entries(), Books.epub3Entries(extra: [("META-INF/encryption.xml", Data())])]
        let targets = [
            "META-INF/container.xml", "OEBPS/content.opf", "OEBPS/toc.ncx", "OEBPS/nav.xhtml",
            "OEBPS/text/chapter 1.xhtml",
            "OEBPS/smil/ch1.smil", "META-INF/encryption.xml"
        ]
        let encryption = Data(
            """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><CipherData><CipherReference URI="OEBPS/css/style.css"/></CipherData>
            </EncryptedData></encryption>
            """.utf8)
        let printed = try dir.capturingStandardError {
            for i in 0..<(1000 * Self.scale) {
                var entries = seeds[i % 2].map { $0.0 == "META-INF/encryption.xml" ? ($0.0, encryption) : $0 }
                let target = targets[rng.below(targets.count)]
                entries = entries.map { $0.0 == target ? ($0.0, mutate($0.1, &rng)) : $0 }
                exercise(try dir.zip("m\(i % 4).epub", entries))
            }
        }
        XCTAssertEqual(printed.prefix(500), "", "the plugin wrote to standard error")
    }

    func testMutatedZipBytes() throws {
        let dir = try FixtureDir()
        var rng = SplitMix(state: 0xB17E5 &+ Self.seedOffset)
        var seeds = [
            try Data(contentsOf: URL(fileURLWithPath: try dir.zip("s2.epub", Books.epub2Entries()))),
            try Data(contentsOf: URL(fileURLWithPath: try dir.zip("s3.epub", Books.epub3Entries())))
        ]
        let corpus = CorpusTests.corpusDirectory
        for name in ["epub3-epubtest-0201.epub", "epub2-readium-tiny-ncx.epub", "epub3-i18n-mongolian.epub"] {
            if let d = try? Data(contentsOf: corpus.appendingPathComponent(name)) { seeds.append(d) }
        }
        let printed = try dir.capturingStandardError {
            for i in 0..<(600 * Self.scale) {
                let seed = seeds[i % seeds.count]
                var bytes = [UInt8](seed)
                // Mostly in the central directory and the local headers, where the structure is.
                for _ in 0..<(1 + rng.below(3)) {
                    let near =
                        rng.below(2) == 0
                        ? max(0, bytes.count - 1 - rng.below(min(bytes.count, 2048))) : rng.below(bytes.count)
                    bytes[near] = UInt8(truncatingIfNeeded: rng.next())
                }
                exercise(try dir.write("z\(i % 4).epub", Data(bytes)))
            }
        }
        XCTAssertEqual(printed.prefix(500), "", "the plugin wrote to standard error")
    }
}
