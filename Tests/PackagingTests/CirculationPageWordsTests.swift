import Foundation
import Host
import XCTest

/// The sentences the browser's circulation pages show (issue 33), written in the host's words module: each a
/// sentence, the browser's hints naming no command.
final class CirculationPageWordsTests: XCTestCase {
    func testEachNewOutcomeIsASentenceAndTheBrowsersHintNamesNoCommand() {
        let outcomes: [any PatronOutcome] = [
            Invitation.noLibraryYet, CirculationQuestion.returnLoan(title: "Waiting Game"),
            LibraryCheck(at: Date(), unanswered: []), LibraryCheck(at: Date(), unanswered: ["Fake Public Library"]),
            DownloadReport(title: "Waiting Game", bytes: 1_500_000, total: 3_000_000, waiting: false),
            DownloadReport(title: "Waiting Game", bytes: 300, total: nil, waiting: true),
            WishListChange.added(title: "Waiting Game"), WishListChange.removed(title: "Waiting Game")
        ]
        for outcome in outcomes {
            let words = outcome.words(for: .browser)
            WordsTests.assertSentence(words.sentence, "\(outcome)")
            if let hint = words.hint {
                WordsTests.assertSentence(hint, "\(outcome)")
                XCTAssertFalse(hint.contains("shelf ") || hint.contains("`"), "browser hint names a command: \(hint)")
            }
        }
    }

    /// Progress says the bytes, never a percentage; once the announced size is passed it says "so far".
    func testProgressSaysTheBytesAndTheWait() {
        let half = DownloadReport(title: "T", bytes: 1_572_864, total: 3_145_728, waiting: false)
        XCTAssertEqual(half.label, "Downloading… 1.5 MB of 3.0 MB")
        XCTAssertEqual(half.sentence, "Downloading “T”: 1.5 MB of 3.0 MB.")
        let stalled = DownloadReport(title: "T", bytes: 3_145_728, total: 3_145_728, waiting: true)
        XCTAssertEqual(stalled.label, "Waiting for the library… 3.0 MB so far")
        XCTAssertEqual(stalled.sentence, "Downloading “T”: 3.0 MB so far, waiting for the library.")
        XCTAssertEqual(
            DownloadReport(title: "T", bytes: 1, total: nil, waiting: false).label, "Downloading… 1 byte so far")
        XCTAssertEqual(
            DownloadReport(title: "T", bytes: 40_000, total: nil, waiting: false).label, "Downloading… 39 KB so far")
    }

    /// A title the library counts no copies of says its queue, never "0 of 0 copies".
    func testAQueueOnlyTitleSaysItsQueue() {
        var availability = Availability(state: .unavailable, copiesTotal: 0, copiesAvailable: 0, holdsTotal: 2)
        XCTAssertEqual(availability.words, "no copy available, 2 waiting")
        availability.holdsTotal = 0
        XCTAssertEqual(availability.words, "no copy available, no one waiting")
        availability.copiesTotal = 1
        XCTAssertEqual(availability.words, "0 of 1 copy available")
    }
}
