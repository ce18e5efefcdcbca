import Foundation
import Host
import XCTest

/// What `shelf play BOOK.epub --from TIME` says while the book is made from its start as far as the time (an hour in
/// is some 25 s away): the time asked for and how far making has come, for speech and for a narration.
final class MakingAheadWordsTests: XCTestCase {
    func testTheWaitSaysTheTimeAndHowFarItHasCome() {
        let spoken = MakingAhead(time: 3600, made: 754, readAloud: true)
        XCTAssertEqual(spoken.sentence, "Reading the book aloud as far as 1:00:00 to start there: 12:34 made.")
        let narrated = MakingAhead(time: 90, made: 30, readAloud: false)
        XCTAssertEqual(narrated.sentence, "Cutting the book's narration as far as 1:30 to start there: 0:30 made.")
        for outcome in [spoken, narrated] {
            WordsTests.assertSentence(outcome.words(for: .terminal).line, "\(outcome)")
            XCTAssertNil(outcome.next, "nothing to do but wait (Ctrl-C stops)")
        }
    }
}
