import TextFolding
import XCTest

/// The one folding that book search, finding a quote and reading-list matching share.
final class TextFoldingTests: XCTestCase {
    func testCaseDiacriticsAndWidthFoldAway() {
        XCTAssertEqual(FoldedText.words("Les Misérables"), "les miserables")
        XCTAssertEqual(FoldedText.words("ＭＯＲＴ"), "mort", "full-width letters")
        XCTAssertEqual(FoldedText.words("Straße"), "strasse")
        XCTAssertEqual(FoldedText.words("  Mort (Discworld, #4)  "), "mort discworld 4")
        XCTAssertEqual(FoldedText.words("Čapek, Karel"), "capek karel")
        XCTAssertEqual(FoldedText("كتـــاب", keep: .text).string, "كتاب", "Arabic tatweel is not a letter")
    }

    /// Failed before: `n'avais` did not find `n’avais`, nor `"oui"` find `« oui »`.
    func testQuoteStylesFoldToOne() {
        XCTAssertEqual(FoldedText("n’avais ‘pas’ ʼa ＇b", keep: .text).string, "n'avais 'pas' 'a 'b")
        XCTAssertEqual(FoldedText("“Oui” « non » „ja“ ‹si›", keep: .text).string, "\"oui\" \" non \" \"ja\" \"si\"")
        let book = FoldedText("Je n’avais pas vu « l’homme ».", keep: .text)
        XCTAssertEqual(
            book.occurrences(of: FoldedText("N'AVAIS PAS", keep: .text).scalars, overlapping: false).count, 1)
        XCTAssertEqual(
            book.occurrences(of: FoldedText("\"l'homme\"", keep: .text).scalars, overlapping: false).count, 0,
            "a space inside the guillemets is kept, as in the book")
        XCTAssertEqual(
            book.occurrences(of: FoldedText("« l'homme »", keep: .text).scalars, overlapping: false).count, 1)
        let typed = FoldedText("Je n'avais pas vu", keep: .text)
        XCTAssertEqual(
            typed.occurrences(of: FoldedText("n’avais", keep: .text).scalars, overlapping: false).count, 1,
            "the reverse")
    }

    func testTextKeepsPunctuationAndSqueezesWhiteSpaceWithAMapBack() {
        let folded = FoldedText("  Café,\n\t au  LAIT ", keep: .text)
        XCTAssertEqual(folded.string, "cafe, au lait")
        let original = Array("  Café,\n\t au  LAIT ".unicodeScalars)
        let hit = try! XCTUnwrap(folded.occurrences(of: Array("au lait".unicodeScalars), overlapping: false).first)
        XCTAssertEqual(
            String(
                String.UnicodeScalarView(original[folded.origins[hit.lowerBound]...folded.origins[hit.upperBound - 1]])),
            "au  LAIT")
    }

    func testLettersMapBackToUTF8Offsets() {
        let folded = FoldedText("É-té!", keep: .lettersAndDigits, origins: .utf8Offset)
        XCTAssertEqual(folded.string, "ete")
        XCTAssertEqual(folded.origins, [0, 3, 4])
    }

    func testOverlappingOrNot() {
        let folded = FoldedText("aaaa", keep: .text)
        XCTAssertEqual(folded.occurrences(of: ["a", "a"], overlapping: false), [0..<2, 2..<4])
        XCTAssertEqual(folded.occurrences(of: ["a", "a"], overlapping: true), [0..<2, 1..<3, 2..<4])
        XCTAssertEqual(folded.occurrences(of: [], overlapping: true), [])
    }

    /// The three uses see the same letters: a word a search finds is the word a quote or a title matches.
    func testTheThreeViewsAgreeOnLettersAndTheASCIIPathOnEverything() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 ,.-'é Ü\u{301}ß\t\nＡ語".unicodeScalars)
        for _ in 0..<300 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...30, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
            let letters = FoldedText(text, keep: .lettersAndDigits).string
            XCTAssertEqual(
                String(String.UnicodeScalarView(FoldedText.words(text).unicodeScalars.filter { $0 != " " })), letters,
                text)
            XCTAssertFalse(letters.unicodeScalars.contains { $0.properties.generalCategory == .nonspacingMark }, text)
            XCTAssertEqual(
                String(
                    String.UnicodeScalarView(FoldedText(text, keep: .text).scalars.filter(ScalarFolder.isLetterOrDigit))
                ), letters, text)
            let ascii = String(text.unicodeScalars.filter(\.isASCII).map(Character.init))
            XCTAssertEqual(FoldedText.words(ascii), FoldedText(ascii, keep: .words).string, ascii)
        }
    }
}
