import Foundation
import Host
import XCTest

/// What the player says of the parts of an audiobook still arriving (issue 33, item 2): how many are here and the
/// bytes of the rest, never a percentage; waiting for the library and a stopped download said as such.
final class PartsArrivingWordsTests: XCTestCase {
    func testThePartsHereAndTheBytesOfTheRest() {
        let one = PartsArriving(here: 1, count: 3, bytes: 2048, total: 160_000, waiting: false, stopped: false)
        XCTAssertEqual(one.sentence, "Parts here: 1 of 3; the rest is arriving: 2 KB of 156 KB.")
        XCTAssertEqual(one.label, "1 of 3 parts here, 2 KB of 156 KB arriving")
        let two = PartsArriving(here: 2, count: 3, bytes: 300, total: nil, waiting: true, stopped: false)
        XCTAssertEqual(
            two.sentence, "Parts here: 2 of 3; the rest is arriving: 300 bytes so far, waiting for the library.")
        XCTAssertNil(two.next)
        let stopped = PartsArriving(here: 1, count: 2, bytes: 0, total: nil, waiting: false, stopped: true)
        XCTAssertEqual(stopped.sentence, "Parts here: 1 of 2; the download of the rest stopped.")
        // The terminal's hint names the loan as a command takes it; the browser's player has its own button.
        XCTAssertNil(stopped.next, "a book that is no loan has no command to resume it by name")
        let loan = PartsArriving(
            here: 1, count: 2, bytes: 0, total: nil, waiting: false, stopped: true,
            loan: .init(entryID: "urn:fake:audio-free", account: "fake"))
        XCTAssertEqual(
            loan.words(for: .terminal).line,
            "Parts here: 1 of 2; the download of the rest stopped. `shelf download urn:fake:audio-free --account fake` "
                + "resumes it.")
        XCTAssertNil(loan.words(for: .browser).hint)
        for outcome in [one, two, stopped, loan] {
            let words = outcome.words(for: .browser)
            WordsTests.assertSentence(words.sentence, "\(outcome)")
            if let hint = words.hint {
                WordsTests.assertSentence(hint, "\(outcome)")
                XCTAssertFalse(hint.contains("shelf ") || hint.contains("`"), "browser hint names a command: \(hint)")
            }
        }
    }

    func testAnAudiobookPlayableAsItArrivesIsSaid() {
        let entry = CatalogEntry(id: "urn:x", title: "Sound of Rivers")
        let words = DownloadState.playable(entry, book: "catalog:fake:urn:x").words(for: .browser)
        XCTAssertEqual(
            words.line,
            "“Sound of Rivers” can be listened to now: its first part is here, and the rest arrives as it plays.")
    }
}
