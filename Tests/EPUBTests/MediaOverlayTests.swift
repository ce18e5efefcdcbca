import EPUBCore
import Foundation
import PluginKit
import XCTest

/// The media overlay model in the manifest (MediaOverlayClips): the structure Media Overlays 3.3 gives a SMIL file
/// (nested `seq`, `epub:type`, every clock form) kept in each clip's `types` and `structure`, and hostile SMIL read
/// without a crash, with warnings.
final class MediaOverlayTests: XCTestCase {
    var dir: FixtureDir!
    override func setUpWithError() throws { dir = try FixtureDir() }
    override func tearDown() { dir = nil }

    /// A SMIL file with nesting, types and every clock form: a plain phrase, a page number, a table (escapable)
    /// holding rows (escapable too) with a note (skippable), a list with an id, and a second list after it.
    static let nestedSMIL = """
        <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
        <body epub:type="bodymatter chapter">
          <par id="p1"><text src="../text/chapter%201.xhtml#c1"/><audio src="../audio/a.mp3" clipBegin="0:00:01.250" clipEnd="00:02.5"/></par>
          <par id="p2" epub:type="pagebreak"><text src="../text/chapter%201.xhtml#pg2"/><audio src="../audio/a.mp3" clipBegin="2.5s" clipEnd="3500ms"/></par>
          <seq id="t1" epub:type="table">
            <seq epub:type="table-row">
              <par><text src="../text/chapter%201.xhtml#r1"/><audio src="../audio/a.mp3" clipBegin="0.0625min" clipEnd="4.5"/></par>
              <par epub:type="footnote table-row"><text src="../text/chapter%201.xhtml#n1"/><audio src="../audio/a.mp3" clipBegin=" npt=4.5s " clipEnd="0.00125h"/></par>
            </seq>
            <seq epub:type="table-row"><par><text src="../text/chapter%201.xhtml#r2"/><audio src="../audio/a.mp3" clipBegin="4.5s"/></par></seq>
          </seq>
          <seq><seq epub:type="list"><par><text src="../text/chapter%201.xhtml#l1"/><audio src="../audio/b.mp3"/></par></seq></seq>
          <seq epub:type="list"><par><text src="../text/chapter%201.xhtml#l2"/><audio src="../audio/b.mp3" clipBegin="1:02:03.5" clipEnd="1:02:04"/></par></seq>
        </body></smil>
        """

    func overlay(smil: String, name: String = "b3.epub") throws -> (clips: [JSONValue], warnings: [String]) {
        let entries = Books.epub3Entries().map { $0.0 == "OEBPS/smil/ch1.smil" ? ($0.0, Data(smil.utf8)) : $0 }
        // Stored: a hostile file repeats itself more than the archive's limit on compression allows.
        let pub = try EPUBPublication(path: try dir.zip(name, entries, stored: ["mimetype", "OEBPS/smil/ch1.smil"]))
        let m = try pub.manifest()
        let ch1 = try XCTUnwrap(m.readingOrder.first { $0.href == "OEBPS/text/chapter%201.xhtml" })
        return (ch1.extra["alternate"]?.array?.first?["properties"]?["clips"]?.array ?? [], pub.book.overlayWarnings)
    }

    func testNestedSequencesTypesAndEveryClockForm() throws {
        let (clips, warnings) = try overlay(smil: Self.nestedSMIL)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(
            clips.map { $0["text"]?.string.map { Paths.splitFragment($0).fragment ?? "" } },
            ["c1", "pg2", "r1", "n1", "r2", "l1", "l2"], "play order is document order")
        XCTAssertEqual(clips.map { $0["clipBegin"]?.number }, [1.25, 2.5, 3.75, 4.5, 4.5, 0, 3723.5])
        // A missing clipEnd is the end of the audio: absent, for the player to know.
        XCTAssertEqual(clips.map { $0["clipEnd"]?.number }, [2.5, 3.5, 4.5, 4.5, nil, nil, 3724])
        XCTAssertEqual(clips.map { $0["audio"]?.string }.compactMap { $0 }.count, 7)
        func types(_ i: Int) -> [String] { clips[i]["types"]?.array?.compactMap(\.string) ?? [] }
        XCTAssertEqual(types(0), ["bodymatter", "chapter"])
        XCTAssertEqual(types(1), ["bodymatter", "chapter", "pagebreak"])
        XCTAssertEqual(types(3), ["bodymatter", "chapter", "table", "table-row", "footnote"], "each word once")
        XCTAssertEqual(types(5), ["bodymatter", "chapter", "list"])
        // The outermost escapable structure: the table's own id for its rows, a made one for an unnamed list, and a
        // different one for the next list (escaping the first lands on it).
        XCTAssertEqual(clips.map { $0["structure"]?.string }.prefix(5), [nil, nil, "t1", "t1", "t1"])
        let l1 = try XCTUnwrap(clips[5]["structure"]?.string)
        let l2 = try XCTUnwrap(clips[6]["structure"]?.string)
        XCTAssertTrue(l1.hasPrefix("OEBPS/smil/ch1.smil#seq-"), l1)
        XCTAssertNotEqual(l1, l2)
    }

    func testTheTreeReadsTheSameStructureAsTheStream() throws {
        let streamed = try overlay(smil: Self.nestedSMIL).clips
        // An unbound prefix: the stream refuses the document and the recovering tree reads it.
        let broken = Self.nestedSMIL.replacingOccurrences(of: "</body>", with: "<stray:element/></body>")
        XCTAssertEqual(try overlay(smil: broken, name: "tree.epub").clips, streamed)
    }

    func testBadClockValuesAreWarnedAndGiveTheDefaults() throws {
        let smil = """
            <smil xmlns="http://www.w3.org/ns/SMIL"><body>
            <par><text src="../text/chapter%201.xhtml#a"/><audio src="../audio/a.mp3" clipBegin="-3s" clipEnd="1e3"/></par>
            <par><text src="../text/chapter%201.xhtml#b"/><audio src="../audio/a.mp3" clipBegin="1:75" clipEnd="nan"/></par>
            <par><text src="../text/chapter%201.xhtml#c"/><audio src="../audio/a.mp3" clipBegin="9s" clipEnd="2s"/></par>
            <par><audio src="../audio/a.mp3"/></par>
            <par><text src="../text/chapter%201.xhtml#d"/><audio clipBegin="\(String(repeating: "9", count: 400)):00:00"/></par>
            </body></smil>
            """
        let (clips, warnings) = try overlay(smil: smil)
        XCTAssertEqual(clips.map { $0["clipBegin"]?.number }, [0, 0, 9, 0])
        XCTAssertEqual(clips.map { $0["clipEnd"]?.number }, [nil, nil, 9, nil], "a backwards clip plays nothing")
        XCTAssertEqual(warnings.count, 6, "\(warnings)")  // 5 kept, then how many more
        XCTAssertTrue(warnings[0].contains("phrase 1 of 'OEBPS/smil/ch1.smil'") && warnings[0].contains("0 is used"))
        XCTAssertTrue(warnings.last?.contains("more problems") ?? false, "\(warnings)")
    }

    func testHostileOverlaysAreCutShortWithAWarning() throws {
        // Deeper than the parsers go, and more phrases than are kept.
        let deep = String(repeating: "<seq epub:type=\"list\">", count: 5000) + String(repeating: "</seq>", count: 5000)
        let many = String(
            repeating: "<par><text src=\"../text/chapter%201.xhtml#x\"/><audio src=\"../audio/a.mp3\"/></par>",
            count: 20_050)
        let smil =
            "<smil xmlns=\"http://www.w3.org/ns/SMIL\" xmlns:epub=\"http://www.idpf.org/2007/ops\"><body>"
            + many + deep + "</body></smil>"
        let (clips, warnings) = try overlay(smil: smil)
        XCTAssertEqual(clips.count, 20_000)
        XCTAssertTrue(warnings.contains { $0.contains("the narration stops there") }, "\(warnings)")
        // A file that is no XML, and one that is missing: no clips, a warning, the book still opens.
        let (none, why) = try overlay(smil: "\u{0}\u{1}not xml", name: "garbage.epub")
        XCTAssertEqual(none, [])
        XCTAssertEqual(why.count, 1)
        XCTAssertTrue(why[0].contains("'OEBPS/smil/ch1.smil'"), "\(why)")
    }

    func testClockValuesInEveryForm() {
        let cases: [(String, Double?)] = [
            ("0:00:05.500", 5.5), ("01:02:03", 3723), ("02:33", 153), ("2:33.25", 153.25), ("12.5s", 12.5),
            ("300ms", 0.3), ("1.5min", 90), ("2h", 7200), ("7", 7), (" 4.25 ", 4.25), ("npt=3s", 3), ("0.5", 0.5),
            ("1:60", nil), ("61:00", nil), ("1::2", nil), ("1:2:3:4", nil), ("+3s", nil), ("-1", nil), ("1e3s", nil),
            ("inf", nil), ("nan", nil), ("", nil), ("s", nil), ("1.2.3s", nil), ("3 s", nil), (".5s", nil)
        ]
        for (text, seconds) in cases {
            XCTAssertEqual(SMILClock.seconds(text).map { ($0 * 1e6).rounded() / 1e6 }, seconds, text)
        }
    }
}
