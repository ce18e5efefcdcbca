import Foundation
import Host
import TestSupport
import XCTest

/// Issue 31, item 1: what the patron reads about an outcome is written once, in the host's words module
/// (`Sources/Host/Words`), and each face only asks for it. These render every outcome value for both faces and
/// read the faces' sources for a sentence written a second time.
final class WordsTests: XCTestCase {
    /// Every circulation outcome a face can be handed, on titles in each state that changes the words.
    static var circulationOutcomes: [CirculationResult] {
        let free = entry(.available, copies: (1, 2)), out = entry(.unavailable, copies: (0, 1))
        let ready = entry(.ready), onHold = entry(.reserved), loaned = entry(.loaned), open = entry(.openAccess)
        let hold = HoldRecord(accountID: "fake", entry: onHold, branch: "Main Street")
        return [
            .borrowed(.loaned(loaned)), .borrowed(.alreadyOnLoan(loaned)), .borrowed(.openAccess(open)),
            .borrowed(.unavailable(out, holdCancelled: false)), .borrowed(.unavailable(out, holdCancelled: true)),
            .borrowed(.unavailable(ready, holdCancelled: false)), .borrowed(.unavailable(ready, holdCancelled: true)),
            .borrowed(.unavailable(onHold, holdCancelled: false)),
            .reserved(.placed(hold)), .reserved(.alreadyReserved(hold)), .reserved(.availableNow(free)),
            .reserved(.availableNow(loaned)), .reserved(.loaned(loaned)),
            .returned(loaned), .cancelled(onHold)
        ]
    }

    static let title = "Waiting Game"

    static func entry(_ state: Availability.State, copies: (Int, Int)? = nil) -> CatalogEntry {
        var entry = CatalogEntry(id: "urn:fake:\(state.rawValue)", title: title)
        entry.availability = Availability(
            state: state, until: Date(timeIntervalSince1970: 4_072_000_000),
            copiesTotal: copies?.1, copiesAvailable: copies?.0, holdsTotal: 3, holdPosition: 2)
        return entry
    }

    /// One sentence for both faces; a terminal's hint names a command, a browser's never does.
    func testEveryCirculationOutcomeIsOneSentenceOnBothFaces() {
        for outcome in Self.circulationOutcomes {
            let terminal = outcome.words(for: .terminal), browser = outcome.words(for: .browser)
            XCTAssertEqual(terminal.sentence, browser.sentence, "\(outcome)")
            Self.assertSentence(terminal.sentence, "\(outcome)")
            XCTAssertTrue(terminal.sentence.contains("“\(Self.title)”"), terminal.sentence)
            XCTAssertEqual(terminal.hint == nil, browser.hint == nil, "a hint on one face only: \(outcome)")
            if let hint = terminal.hint {
                XCTAssertTrue(hint.contains("`shelf "), "terminal hint names no command: \(hint)")
            }
            if let hint = browser.hint {
                Self.assertSentence(hint, "\(outcome)")
                XCTAssertFalse(hint.contains("shelf ") || hint.contains("`"), "browser hint names a command: \(hint)")
            }
        }
    }

    /// The sentence that had drifted (issue 31): for a ready hold the library did not lend, `shelf borrow` said "no
    /// hold was placed … shelf reserve" while the browser said the hold is kept. Both now say the browser's truth.
    func testAReadyHoldTheLibraryDidNotLendIsSaidAlikeAndTruly() {
        for cancelled in [false, true] {
            let outcome = CirculationResult.borrowed(.unavailable(Self.entry(.ready), holdCancelled: cancelled))
            let terminal = outcome.words(for: .terminal), browser = outcome.words(for: .browser)
            XCTAssertEqual(terminal.sentence, browser.sentence)
            XCTAssertTrue(terminal.sentence.hasPrefix("The library did not lend “Waiting Game”"), terminal.sentence)
            for words in [terminal, browser] {
                XCTAssertFalse(words.line.contains("no hold was placed"), words.line)
                XCTAssertFalse(words.line.contains("reserve"), words.line)
            }
            XCTAssertEqual(terminal.hint, "Try again: `shelf borrow urn:fake:ready`.")
            XCTAssertEqual(browser.hint, "Your hold is kept: try Get again.")
        }
    }

    /// A download's states, said as the browser hears them and `shelf download` ends.
    func testEveryDownloadStateIsOneSentenceOnBothFaces() {
        let entry = Self.entry(.loaned)
        let done = DownloadOutcome(
            entry: entry, path: "/data/book.epub", mediaType: "application/epub+zip", bytes: 10,
            supported: true, protection: nil)
        var locked = done
        (locked.supported, locked.protection) = (false, "Adobe ACSM")
        let states: [DownloadState] = [
            .started(entry), .progress(entry, fraction: 0.4), .done(done), .done(locked),
            .failed(entry, ShelfError(.temporary, "the server answered 503", subject: "https://example.org"))
        ]
        for state in states {
            let terminal = state.words(for: .terminal), browser = state.words(for: .browser)
            XCTAssertEqual(terminal.sentence, browser.sentence)
            Self.assertSentence(terminal.sentence, "\(state)")
            XCTAssertFalse(browser.hint?.contains("shelf ") ?? false, "\(state)")
        }
        XCTAssertEqual(states[1].words(for: .browser).line, "Downloading “Waiting Game”: 40 percent.")
        XCTAssertEqual(
            states[4].words(for: .browser).line,
            "The download of “Waiting Game” did not finish: the server answered 503. Try Download again later.")
        XCTAssertEqual(
            states[4].words(for: .terminal).hint,
            "Run `shelf download urn:fake:loaned` again later: it resumes where it stopped.")
    }

    /// An error's words: the terminal keeps the clause that follows "shelf: " and its command; the browser gets a
    /// sentence and its own hint (a page or a button), never the command (which `WebError` once cut out by its text).
    func testAnErrorIsSaidForEachFace() {
        let error = ShelfError(
            .usage, "several accounts and none chosen",
            next: NextStep(
                terminal: "Choose one with `shelf account use NAME` or --account NAME.",
                browser: "Choose one on the Accounts page."))
        XCTAssertEqual(
            error.words(for: .terminal),
            Words(
                "several accounts and none chosen",
                hint: "Choose one with `shelf account use NAME` or --account NAME."))
        XCTAssertEqual(
            error.words(for: .browser),
            Words("Several accounts and none chosen.", hint: "Choose one on the Accounts page."))
        XCTAssertEqual(
            error.description,
            "several accounts and none chosen\n  Choose one with `shelf account use NAME` or --account NAME.")
        // A hint given as words (no command, no button) is the same on both faces; one to wait out says so in the browser.
        let busy = ShelfError(.temporary, "the library is busy")
        XCTAssertEqual(busy.words(for: .browser), Words("The library is busy.", hint: "Try again in a moment."))
        XCTAssertNil(busy.words(for: .terminal).hint)
    }

    /// The faces show the words they are given: no regular expression in the browser app's server edits the host's
    /// words, and the app's script re-capitalises none.
    func testNoFaceEditsTheWordsItIsGiven() throws {
        var found: [String] = []
        let root = ShelfProcess.packageRoot
        for file in [
            "Sources/Web/Server/WebError.swift", "Sources/Web/WebApp.swift", "Sources/Web/API/CirculationAPI.swift"
        ] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            if text.contains(".regularExpression") || text.contains("replacingOccurrences") { found.append(file) }
        }
        for file in ["web/js/app.js", "web/js/api.js", "web/js/components/actions.js"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            if text.contains("toUpperCase") || text.contains("sentence(") { found.append(file) }
        }
        XCTAssertEqual(found, [], "a face edits the host's words")
    }

    /// A whole sentence: a capital (or an opening quote) first, a full stop last.
    static func assertSentence(_ text: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(
            text.first.map { $0.isUppercase || $0 == "“" } ?? false, "not a sentence: \(text) (\(context))", file: file,
            line: line)
        XCTAssertTrue(
            text.last.map { ".!?".contains($0) } ?? false, "no full stop: \(text) (\(context))", file: file, line: line)
    }

    // MARK: No second copy in the faces

    /// The faces' sources: what they print and what the browser shows.
    static let faces = ["Sources/shelf", "Sources/Web", "web/js"]

    /// No face writes an outcome's words itself: every fixed stretch of each sentence and hint the words module renders
    /// (what is left between the title and the values put in) is found in no face's source.
    func testNoFaceWritesAnOutcomeSentenceAgain() throws {
        var fragments: Set<String> = []
        var outcomes: [PatronOutcome] = Self.circulationOutcomes
        outcomes += [
            DownloadState.started(Self.entry(.loaned)), .progress(Self.entry(.loaned), fraction: 0.5),
            .failed(Self.entry(.loaned), ShelfError(.temporary, "x"))
        ]
        let account = AccountRecord(id: "fake", title: Self.title, catalogURL: "https://example.org/catalog")
        let changes: [AccountOutcome] = [
            .added(account, inUse: true), .removed(account, loans: 1, holds: 2), .using(account),
            .signedIn(account, keptIn: nil), .signedOut(account), .noSignInNeeded(account)
        ]
        outcomes += changes as [PatronOutcome]
        outcomes += NarrationNotice.allCases as [PatronOutcome]
        outcomes += [UnnarratedParts(titles: ["Interlude"]), UnnarratedParts(titles: ["A", "B", "C", "D", "E", "F"])]
        for outcome in outcomes {
            for face in Face.allCases { fragments.formUnion(Self.fixedStretches(of: outcome.words(for: face))) }
        }
        XCTAssertGreaterThan(fragments.count, 15)
        let found = try Self.facesSaying(fragments)
        XCTAssertEqual(found, [], "a face writes the host's words again:\n" + found.joined(separator: "\n"))
    }

    func testAPartlyNarratedBookNamesWhatItPassesOver() {
        XCTAssertEqual(
            UnnarratedParts(titles: ["Interlude"]).sentence,
            "“Interlude” has no narration of its own: the narration passes over it.")
        XCTAssertEqual(
            UnnarratedParts(titles: ["Interlude", "Coda"]).sentence,
            "2 parts of this book have no narration of their own: “Interlude” and “Coda”; the narration passes over them."
        )
        XCTAssertTrue(
            UnnarratedParts(titles: ["A", "B", "C", "D", "E", "F"]).sentence.contains("“A”, “B”, “C”, “D” and 2 more;"))
    }

    /// What a narrated book's Listen says (narration.js shows these as the host gives them): whole sentences, with
    /// a key each for the page to ask by.
    func testTheNarrationSaysWholeSentences() {
        XCTAssertEqual(Set(NarrationNotice.allCases.map(\.key)).count, NarrationNotice.allCases.count)
        for notice in NarrationNotice.allCases {
            let words = notice.words(for: .browser)
            Self.assertSentence(words.sentence, "\(notice)")
            if let hint = words.hint { Self.assertSentence(hint, "\(notice)") }
        }
    }

    /// The check finds a sentence as `shelf borrow` once wrote it.
    func testTheCheckFindsASentenceWrittenInAFace() {
        let outcome = CirculationResult.borrowed(
            .unavailable(Self.entry(.unavailable, copies: (0, 1)), holdCancelled: false))
        let stretches = Self.fixedStretches(of: outcome.words(for: .terminal))
        let once =
            #"    : "No copy is available right now (\(current.availability.words)). Nothing was borrowed and no hold was placed""#
        XCTAssertTrue(stretches.contains { once.contains($0) }, "\(stretches)")
    }

    /// The stretches of text the words module wrote itself: the line cut at the title, the identifier and the
    /// availability's words (values, not words of the module), each long enough to mean something.
    static func fixedStretches(of words: Words) -> Set<String> {
        var line = words.line
        for value in ["“\(title)”", title]
            + [Availability.State.available, .unavailable, .reserved, .ready, .loaned, .openAccess].map({
                "urn:fake:\($0.rawValue)"
            })
        {
            line = line.replacingOccurrences(of: value, with: "\u{1}")
        }
        for state in circulationOutcomes.map(\.entry.availability.words) + ["eBook", "Main Street"] {
            line = line.replacingOccurrences(of: state, with: "\u{1}")
        }
        let pieces = line.split(separator: "\u{1}").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: " ().:,`"))
        }
        return Set(pieces.filter { $0.count >= 16 })
    }

    static func facesSaying(_ fragments: Set<String>) throws -> [String] {
        var found: [String] = []
        for folder in faces {
            let root = ShelfProcess.packageRoot.appendingPathComponent(folder)
            let files =
                FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { ["swift", "js"].contains($0.pathExtension) } ?? []
            XCTAssertFalse(files.isEmpty, "no sources at \(root.path)")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for fragment in fragments where text.contains(fragment) {
                    found.append("\(folder)/\(file.lastPathComponent): “\(fragment)”")
                }
            }
        }
        return found.sorted()
    }
}
