import Foundation
import Host
import TestSupport
import XCTest

/// Issue 31, item 1: what the browser app's reader and listening routes say when a request cannot be answered is the
/// host's (`ReaderRequestProblem`, `ListeningRequestProblem`, `RequestProblem`), and the routes write no sentence.
final class ReaderRequestWordsTests: XCTestCase {
    /// Every reader problem, each case once (`readerCase` fails to compile when a case is added and not listed here).
    static let readerProblems: [ReaderRequestProblem] = [
        .noBookAtAddress, .notAResource(href: "text/ch9.xhtml"),
        .scriptsAnswerNotBoolean, .scriptsOnlyHere, .notALocator, .notABookmark,
        .fontScaleNotAPercentage, .settingNotAWord(name: "theme")
    ]

    static let listeningProblems: [ListeningRequestProblem] = [
        .notAnAudiobook(title: "Waiting Game"), .anAudiobook(title: "Waiting Game"),
        .noTextToReadAloud(title: "Waiting Game"), .notBeingListenedTo, .notATrack(href: "audio/part9.mp3"),
        .notATrack(href: ""), .noSpokenTrack, .trackFileMissing, .spokenTrackFileMissing,
        .trackNotKept(folder: "/home/reader/.cache/shelf/serve-tracks"), .secondsNotATime, .spokenPlaceNotGiven,
        .placeNotSaved(because: ShelfError(.temporary, "the database is locked", hint: "Close other shelf commands."))
    ]

    /// The request problems the routes name by a shortcut.
    static let requestProblems: [RequestProblem] = [
        .whichBook, .whichAudiobook, .whatToSearchFor, .notOnShelf(id: "urn:x"), .missingMember(name: "book"),
        .idNotANumber(of: "bookmark")
    ]

    /// The number of cases there are (a case added fails to compile here until it is counted and listed above).
    static func readerCase(_ problem: ReaderRequestProblem) -> Int {
        switch problem {
        case .noBookAtAddress, .notAResource, .scriptsAnswerNotBoolean, .scriptsOnlyHere, .notALocator,
            .notABookmark, .fontScaleNotAPercentage, .settingNotAWord:
            return 8
        }
    }

    static func listeningCase(_ problem: ListeningRequestProblem) -> Int {
        switch problem {
        case .notAnAudiobook, .anAudiobook, .noTextToReadAloud, .notBeingListenedTo, .notATrack, .noSpokenTrack,
            .trackFileMissing, .spokenTrackFileMissing, .trackNotKept, .secondsNotATime, .spokenPlaceNotGiven,
            .placeNotSaved:
            return 12
        }
    }

    /// A case's name, without its values.
    static func caseName(_ problem: Any) -> String {
        String("\(problem)".prefix { $0 != "(" })
    }

    /// Each problem in the browser: a whole sentence, and a hint (when there is one) that is a whole sentence naming a
    /// page, a button or the request, never a command.
    func testEveryProblemIsAWholeSentenceWithABrowserHint() {
        // Every case is listed: the switches below name them all, and the lists hold each of them.
        for problem in Self.readerProblems { XCTAssertEqual(Self.readerCase(problem), 8) }
        for problem in Self.listeningProblems { XCTAssertEqual(Self.listeningCase(problem), 12) }
        XCTAssertEqual(Set(Self.readerProblems.map(Self.caseName)).count, 8)
        XCTAssertEqual(Set(Self.listeningProblems.map(Self.caseName)).count, 12)
        let problems: [PatronOutcome] =
            Self.readerProblems as [PatronOutcome] + Self.listeningProblems + Self.requestProblems
        for problem in problems {
            let browser = problem.words(for: .browser)
            WordsTests.assertSentence(browser.sentence, "\(problem)")
            XCTAssertFalse(browser.sentence.contains("`"), "a command in \(browser.sentence)")
            XCTAssertEqual(problem.words(for: .terminal).sentence, browser.sentence)
            if let hint = browser.hint {
                WordsTests.assertSentence(hint, "\(problem)")
                XCTAssertFalse(hint.contains("shelf ") || hint.contains("`"), "browser hint names a command: \(hint)")
            }
        }
        // Each outcome its own sentence: no two cases say the same.
        let sentences = problems.map { $0.words(for: .browser).sentence }
        XCTAssertEqual(Set(sentences).count, sentences.count, "\(sentences)")
    }

    /// The values put in are said: the range of font scales the host accepts, the book that is not there, why the
    /// place was not saved (the error's own words, not its description with the terminal's hint).
    func testTheWordsSayWhatTheRequestGot() {
        let range = ReaderSettings.fontScaleRange
        XCTAssertEqual(
            ReaderRequestProblem.fontScaleNotAPercentage.sentence,
            "“fontScale” is a whole percentage from \(range.lowerBound) to \(range.upperBound), or “default”.")
        XCTAssertEqual(
            RequestProblem.notOnShelf(id: "urn:x").words(for: .browser),
            Words("No book with id urn:x is on the shelf.", hint: "My Books lists what is on it."))
        let notSaved = ListeningRequestProblem.placeNotSaved(
            because: ShelfError(.temporary, "the database is locked", hint: "Close other shelf commands."))
        XCTAssertEqual(
            notSaved.words(for: .browser),
            Words("The place listened to could not be saved: the database is locked.", hint: "Try again in a moment."))
        XCTAssertEqual(
            RequestProblem.whichBook.words(for: .browser), Words("Which book?", hint: "Add ?book=ID to the address."))
    }

    /// The routes do not write these words again: no fixed stretch of them (what is left between the values put in) is
    /// in `Sources/shelf`, `Sources/Web` or `web/js`. (That no refusal there is a literal is `ServerWordsTests`'.)
    func testNoFaceWritesTheseWordsAgain() throws {
        let value = "§", number: Int64 = 424_242
        let reader: [ReaderRequestProblem] = [
            .noBookAtAddress, .notAResource(href: value), .scriptsAnswerNotBoolean, .scriptsOnlyHere, .notALocator,
            .notABookmark, .fontScaleNotAPercentage, .settingNotAWord(name: value)
        ]
        let listening: [ListeningRequestProblem] = [
            .notAnAudiobook(title: value), .anAudiobook(title: value), .noTextToReadAloud(title: value),
            .notBeingListenedTo, .notATrack(href: value), .notATrack(href: ""), .noSpokenTrack, .trackFileMissing,
            .spokenTrackFileMissing, .trackNotKept(folder: value), .secondsNotATime, .spokenPlaceNotGiven,
            .placeNotSaved(detail: value)
        ]
        let problems = reader as [PatronOutcome] + listening as [PatronOutcome]
        var fragments: Set<String> = []
        for problem in problems {
            let line = problem.words(for: .browser).line.replacingOccurrences(of: "\(number)", with: value)
            for piece in line.split(separator: Character(value)) {
                let stretch = piece.trimmingCharacters(in: CharacterSet(charactersIn: " ().:,`“”"))
                if stretch.count >= 16 { fragments.insert(stretch) }
            }
        }
        XCTAssertGreaterThan(fragments.count, 20)
        let found = try WordsTests.facesSaying(fragments)
        XCTAssertEqual(found, [], "a face writes the host's words again:\n" + found.joined(separator: "\n"))
    }
}
