import Foundation
import Host
import TestSupport
import XCTest

/// Issue 31, item 1, on the command line: what a command did and the errors it throws are said by the host's words
/// module, not by `Sources/shelf`. These read the command line's sources for a sentence it writes itself, and render
/// the outcome values it prints for both faces.
final class TerminalWordsTests: XCTestCase {
    /// Sentences the command line may still write, each with why. Keep it short: a new outcome is a value in
    /// `Sources/Host/Words`.
    static let allowed: [(file: String, start: String, why: String)] = [
        ("ListenCommand.swift", "Keys: ", "the player's keys, listed as its help: a label of each control")
    ]

    /// No `Output.line`, `Output.standardError`, `Output.error`, a player's `say` or a `ShelfError(` in
    /// `Sources/shelf` has a whole sentence for a string literal, outside the list above.
    func testTheCommandLineWritesNoSentenceOfItsOwn() throws {
        let root = ShelfProcess.packageRoot.appendingPathComponent("Sources/shelf")
        var found: [String] = [], files = 0
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        for case let url as URL in walker where url.pathExtension == "swift" {
            files += 1
            let name = url.lastPathComponent
            for sentence in Self.sentences(in: try String(contentsOf: url, encoding: .utf8))
            where !Self.allowed.contains(where: { $0.file == name && sentence.hasPrefix($0.start) }) {
                found.append("\(name): \(sentence)")
            }
        }
        XCTAssertGreaterThan(files, 20, "the command line's sources were not found")
        XCTAssertEqual(found, [], "the command line writes these itself:\n" + found.joined(separator: "\n"))
    }

    /// The check finds a sentence planted in each kind of call, on one line or several, and passes labels,
    /// clauses after "shelf: " and the words module's lines.
    func testTheCheckFindsAPlantedSentence() {
        let planted = #"""
            Output.line("Removed bookmark \(id).")
            throw ShelfError(
                .usage, "no token was given",
                hint: "Paste the address you were sent to after signing in.")
            say(
                "There is no chapter \(number): "
                    + "the chapters are 1 to \(count).")
            Output.standardError("Wrote \(files.joined(separator: " and ")).\n")
            Output.line("“\(r.title)”: not synced (\(error)); nothing here changed.")
            """#
        XCTAssertEqual(
            Self.sentences(in: planted),
            [
                #"Removed bookmark \(id)."#, "Paste the address you were sent to after signing in.",
                #"Wrote \(files.joined(separator: " and "))."#,
                #"“\(r.title)”: not synced (\(error)); nothing here changed."#
            ])
        let fine = #"""
            Output.line("Format:       \(entry.format.words)")
            Output.line("Accounts: \(accounts.count)")
            throw ShelfError(.usage, "--from and --chapter cannot be used together")
            Output.line(WishListChange.removed(title: title).words(for: .terminal).line)
            let text = "This sentence is no call's argument."
            """#
        XCTAssertEqual(Self.sentences(in: fine), [])
    }

    /// Every outcome the command line now prints through the words module, for both faces: one sentence (whole),
    /// a terminal hint, and a browser hint that names no command.
    func testEveryTerminalOutcomeIsSaidForBothFaces() {
        for outcome in Self.outcomes {
            let terminal = outcome.words(for: .terminal), browser = outcome.words(for: .browser)
            XCTAssertEqual(terminal.sentence, browser.sentence, "\(outcome)")
            WordsTests.assertSentence(terminal.sentence, "\(outcome)")
            if let hint = terminal.hint { XCTAssertFalse(hint.isEmpty, "\(outcome)") }
            if let hint = browser.hint {
                WordsTests.assertSentence(hint, "\(outcome)")
                XCTAssertFalse(hint.contains("shelf ") || hint.contains("`"), "browser hint names a command: \(hint)")
            }
        }
        for refusal in [LoginRefusal.noToken, .noUsername(label: "Library card")].map(\.error)
            + [CommandRefusal.serveListensWithoutPassword(listen: "0.0.0.0:8080").error]
        {
            XCTAssertEqual(refusal.kind, .usage)
            XCTAssertNotNil(refusal.words(for: .terminal).hint, "\(refusal)")
            XCTAssertNil(refusal.words(for: .browser).hint, "a command's refusal has no browser hint: \(refusal)")
        }
    }

    /// Files whose errors are still written where they are thrown: the parser's count of arguments (`Command.swift`
    /// puts the command's own usage and names together).
    static let errorsWrittenInPlace: Set<String> = ["Command.swift"]

    /// Every error a command throws is the host's (`CommandUsage`, `CommandLookup`, `LoginRefusal`,
    /// `CommandRefusal`, ...): no `ShelfError(` in `Sources/shelf` is given a string literal, outside the files above.
    func testTheCommandLineWritesNoErrorOfItsOwn() throws {
        let root = ShelfProcess.packageRoot.appendingPathComponent("Sources/shelf")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        var found: [String] = []
        for case let url as URL in walker
        where url.pathExtension == "swift" && !Self.errorsWrittenInPlace.contains(url.lastPathComponent) {
            for literal in Self.literals(in: try String(contentsOf: url, encoding: .utf8), given: ["ShelfError("]) {
                found.append("\(url.lastPathComponent): \(literal)")
            }
        }
        XCTAssertEqual(found, [], "the command line writes these errors itself:\n" + found.joined(separator: "\n"))
        XCTAssertEqual(
            Self.literals(
                in: #"throw ShelfError(.usage, "--step takes seconds from 1 to 3600")"#, given: ["ShelfError("]),
            ["--step takes seconds from 1 to 3600"], "the check finds a planted one")
    }

    /// The command line's errors, as a terminal prints them after "shelf: ": a clause (no capital, no full stop),
    /// a usage error's hint for the terminal only, and what is not there with the browser's hint for the same thing.
    func testTheCommandLinesErrorsAreClausesFromTheHost() {
        let usage: [CommandUsage] = [
            .needsValue(option: "--page"), .unknownOption("--x", global: true),
            .notAWholeNumber(option: "--page", range: 1...9, given: "x"),
            .notOneOf(option: "--format", allowed: ["all", "ebook"], given: "x"), .noCommand("x"),
            .pluginPathNeedsValue,
            .fromAndChapter, .notATime(given: "x"), .noSuchChapter(count: 3, given: "9", book: "B"),
            .notASpeed(given: "9"), .notASleep(given: "x"), .notAVolume(given: "x"), .notAStep,
            .notAnInterval(given: "x"), .onceAndCycles, .pageAndLocator, .notALocator,
            .notAFontScale(given: "x", orDefault: true), .onlyOneOf(["--chapter", "--position", "--locator"]),
            .hitWithoutSearch, .searchWithoutWords, .catalogSearchWithoutWords,
            .notABookmarkNumber(option: "--bookmark", given: "x"),
            .chapterPastTheEnd(chapter: 9, items: 3, book: "/b.epub"),
            .positionPastTheEnd(position: 9, positions: 3, book: "/b.epub"), .needsOutputPath(command: "cover"),
            .notAnAssignment(given: "x"), .notAFacet(given: "Sort by"), .noSecret(key: "k"),
            .notAManifestAddress(given: "ftp://x"),
            .generateTakes(allowed: ["shelf.1"], given: "x"), .completeTakes(given: "x"), .accountAddNeedsAddress,
            .accountNeedsName(action: "use"), .noAccountAction("x"), .annotationsTakesSync(given: "x"),
            .bookmarkTakes(given: "x"), .listsNeedsService(subcommand: "connect"), .noListsSubcommand("x"),
            .conformanceNeedsPlugin, .noCheck(name: "x", known: ["a", "b"]), .passwordInArguments,
            .noTerminalForPassword(label: "PIN"), .loginAndPasswordNeeded(login: "Card", password: "PIN")
        ]
        let lookups: [CommandLookup] = [
            .noBookmark(id: 3), .noWish(id: "7"), .noNotification(id: "2"), .noPlugin(id: "x"),
            .noSuchFile(path: "/x", what: "file"), .passwordFileUnreadable(path: "/p"), .noCover(path: "/b"),
            .webSignInWithoutAddress(account: "fake")
        ]
        for error in usage.map(\.error) + lookups.map(\.error) {
            let clause = error.words(for: .terminal).sentence
            XCTAssertFalse(clause.first?.isUppercase ?? true, "not a clause: \(clause)")
            XCTAssertFalse(clause.hasSuffix("."), "a clause has no full stop: \(clause)")
        }
        XCTAssertEqual(Set(usage.map(\.error.kind)), [.usage])
        XCTAssertTrue(usage.allSatisfy { $0.error.next?.browser == nil }, "the browser takes no arguments")
        XCTAssertEqual(
            CommandUsage.onlyOneOf(["--chapter", "--position", "--locator"]).error.message,
            "give only one of --chapter, --position and --locator")
        XCTAssertEqual(
            CommandLookup.noWish(id: "7").error.description,
            "there is no wish 7\n  `shelf wishlist` lists the wishes with their numbers.")
        XCTAssertEqual(
            CommandLookup.noWish(id: "7").error.words(for: .browser),
            Words("There is no wish 7.", hint: "The Reading lists page shows the wishes there are."))
        XCTAssertEqual(Set(lookups.map(\.error.kind)), [.noInput, .badData])
    }

    /// The outcomes the browser says too are said by the terminal with the browser's sentence: the wish list's
    /// "Added"/"Removed" (it said "Wished for …" and "… from the wish list."), a library not added yet (it said
    /// "No library accounts.", the browser "Welcome to shelf."), a bookmark removed (`shelf read`'s d and
    /// `shelf bookmark remove` said it two ways), the end of the book and the sleep timer's stop (`ListeningPageNotice`).
    func testTheTerminalSaysWhatTheBrowserSays() throws {
        let source = try Self.commandLineSource()
        for old in [
            "Wished for ", "from the wish list.", "No library accounts.", "Removed bookmark ", "Nothing on your reading"
        ] {
            XCTAssertFalse(source.contains(old), "the command line still says “\(old)”")
        }
        for said in [
            "WishListChange.added(", "WishListChange.removed(", "Invitation.noLibraryYet",
            "ReaderNotice.bookmarkRemoved"
        ] {
            XCTAssertTrue(source.contains(said), "the command line does not say \(said)")
        }
        // The player's end and its sleep timer, as the browser's player says them.
        XCTAssertTrue(source.contains("ListeningPageNotice.ended"))
        XCTAssertTrue(source.contains("ListeningPageNotice.sleepStopped"))
        XCTAssertEqual(
            WishListChange.removed(title: "Some Book").words(for: .terminal).sentence,
            "Removed “Some Book” from your wish list.")
    }

    /// No stretch of these outcomes' words is written again in a face (as `WordsTests` checks for circulation).
    func testNoFaceWritesTheseWordsAgain() throws {
        var fragments: Set<String> = []
        for outcome in Self.outcomes {
            for face in Face.allCases { fragments.formUnion(WordsTests.fixedStretches(of: outcome.words(for: face))) }
        }
        XCTAssertGreaterThan(fragments.count, 20)
        let found = try WordsTests.facesSaying(fragments).filter { !Self.browserSaysItself.contains($0) }
        XCTAssertEqual(found, [], "a face writes the host's words again:\n" + found.joined(separator: "\n"))
    }

    /// The browser app's scripts still say these themselves; they are for the browser's part of issue 31 to take from
    /// `EmptyListing.notifications(all: true)` and `EmptyListing.reservations`, whose browser words are the scripts'.
    static let browserSaysItself: Set<String> = [
        "web/js/notifications.js: “No notifications”",
        "web/js/reservations.js: “No reservations. Titles with no free copy can be reserved from their details”"
    ]

    static var outcomes: [PatronOutcome] {
        let title = WordsTests.title
        let wish = Wish(
            id: 1, key: "isbn:1", source: "shelf", title: title, authors: [], addedAt: Date(), accountID: "fake",
            entryID: "urn:fake:available", matchedBy: "isbn", availability: "available", available: true)
        var outcomes: [PatronOutcome] = [
            ReadingListNotice.connectedToPull(
                service: "goodreads", name: "Goodreads", plugin: "org.example", signedIn: true,
                abilities: ["pull shelves", "record reads"], writesFile: true),
            ReadingListNotice.connectedToPull(
                service: "x", name: "X", plugin: "org.example", signedIn: false, abilities: [], writesFile: false),
            ReadingListNotice.nothingPulledYet, ReadingListNotice.nothingToPush, ReadingListNotice.noneConnected,
            ReadingListNotice.markedRead(title: title, queued: ["Goodreads"], alreadyQueued: ["Google Books"]),
            ReadingListNotice.markedRead(title: title, queued: [], alreadyQueued: []),
            WishStanding(wish), WishListChange.added(title: title), WishListChange.removed(title: title),
            ShelfChange.added(title: title, authors: ["A. Writer"], how: "EPUB, copied", audiobook: false),
            ShelfChange.added(title: title, authors: [], how: "audiobook, linked", audiobook: true),
            ShelfChange.replacedFile(title: title, authors: [], path: "/books/new.epub"),
            ShelfChange.removed(title: title, returned: true), ShelfChange.removed(title: title, returned: false),
            ShelfChange.stillOnLoan(entryID: "urn:fake:loaned", until: "tomorrow"),
            PlaceSaved.listening(seconds: 13), PlaceSaved.reading(title: title, page: "page 3 of 9"),
            PlaceSaved.movedByAnotherReader(title: title, kept: "page 5 of 9", stopped: "page 3 of 9"),
            ListeningNotice.playing(title: title, from: "from the start", speed: 1, into: "the sound device"),
            ListeningNotice.chapter(number: 2, title: "Two"),
            ListeningNotice.chapterStillDownloading(number: 3), ListeningNotice.noChapterChosen,
            ListeningNotice.noSuchChapter(typed: "99", count: 4), ListeningNotice.noSuchChapter(typed: "2", count: 1),
            ListeningNotice.volume(percent: 80), ListeningNotice.sleepTimer(.minutes(15)),
            ListeningNotice.sleepTimer(.endOfChapter), ListeningNotice.sleepTimer(nil), ListeningNotice.choosingChapter,
            ListeningNotice.problem("the track is damaged."),
            AudiobookFetchNotice.interrupted(url: "https://example.org/manifest.json"),
            AudiobookFetchNotice.inBackground(process: 42, log: "/tmp/fetch.log"),
            CommandNotice.watchUnitsWritten(
                files: ["a.service", "a.timer"], interval: "15 minutes", enable: "systemctl"),
            CommandNotice.settingsChanged(book: title), CommandNotice.settingsChanged(book: nil),
            CommandNotice.opensWith(plugin: "org.example"), CommandNotice.opensWith(plugin: nil),
            CommandNotice.openingNotification(place: "My Books", route: "loans"), CommandNotice.damagedTracks,
            CommandNotice.serving, CommandNotice.nothingToWatch,
            CommandNotice.annotationsNotSynced(title: title, error: "the server said 503."),
            ListeningNotice.opened(title: title, chapters: 3, length: "27 seconds", from: "from the start"),
            CommandNotice.browserNotStarted,
            CommandNotice.watchSyncFailed(account: "fake", error: "503", retry: nil),
            CommandNotice.listeningBeyondThisComputer(listen: "0.0.0.0:8080", login: "http://h/login.html"),
            Invitation.noLibraryYet, ReaderNotice.bookmarkRemoved(id: 3),
            ReadingListPullOutcome(
                service: "goodreads", entries: 12, shelves: [], error: nil, newWishes: 2, skippedWithoutTitle: 1),
            ReadingListPullOutcome(
                service: "goodreads", entries: 0, shelves: [], error: "the server said 503.", newWishes: 0),
            ReadingListPushReport(
                service: "goodreads", title: title, shelf: "read", outcome: "added", message: nil, file: nil,
                uploadURL: nil, serviceName: "Goodreads"),
            ReadingListPushReport(
                service: "goodreads", title: title, shelf: "read", outcome: "failed", message: "refused.", file: nil,
                uploadURL: nil, serviceName: "Goodreads"),
            ReadingListImportFile(
                file: "/tmp/import.csv", uploadURL: "https://example.org/import", serviceName: "Goodreads"),
            ReadingListImportFile(file: "/tmp/import.csv", uploadURL: nil, serviceName: "Goodreads")
        ]
        let empty: [EmptyListing] = [
            .shelf, .wishList, .notifications(all: true), .notifications(all: false), .audiobookDownloads, .plugins,
            .annotatedLoans, .bookmarks(title: title), .loans, .reservations, .catalogPage(hidden: 0),
            .catalogPage(hidden: 3),
            .searchResults(
                query: "open", tab: .ebook, availableNow: true,
                everyFormat: "shelf catalog-search open --account fake --format all"),
            .searchResults(query: "open", tab: .all, availableNow: false, everyFormat: nil)
        ]
        outcomes += empty as [PatronOutcome]
        outcomes.append(CatalogPageNote.nextPage(2))
        return outcomes
    }

    static func commandLineSource() throws -> String {
        let root = ShelfProcess.packageRoot.appendingPathComponent("Sources/shelf")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        var text = ""
        for case let url as URL in walker where url.pathExtension == "swift" {
            text += try String(contentsOf: url, encoding: .utf8)
        }
        return text
    }

    // MARK: Reading the sources

    /// The calls whose string literals are what a patron reads.
    static let calls = ["Output.line(", "Output.standardError(", "Output.error(", "ShelfError(", "say("]

    /// Every string literal given to `calls` in `source`, as written.
    static func literals(in source: String, given calls: [String]) -> [String] {
        let text = Array(source)
        var found: [String] = []
        var index = 0
        while index < text.count {
            guard let call = calls.first(where: { starts(text, at: index, with: $0) }) else {
                index += 1
                continue
            }
            let open = index + call.count - 1
            let close = closing(text, from: open)
            found += literals(Array(text[(open + 1)..<close]))
            index = close
        }
        return found
    }

    /// The whole sentences among the string literals given to `calls` in `source`: a capital or a quote first (a
    /// sentence may begin with a title), a full stop or a question mark last (before a newline), 16 characters or
    /// more as written.
    static func sentences(in source: String) -> [String] {
        let text = Array(source)
        var found: [String] = []
        var index = 0
        while index < text.count {
            guard
                let call = calls.first(where: { starts(text, at: index, with: $0) }),
                index == 0 || !(text[index - 1].isLetter || text[index - 1].isNumber)
            else {
                index += 1
                continue
            }
            let open = index + call.count - 1
            let close = closing(text, from: open)
            found += literals(Array(text[(open + 1)..<close])).compactMap(sentence)
            index = close
        }
        return found
    }

    /// The literal without its line ends when it is a whole sentence, else nil.
    static func sentence(_ literal: String) -> String? {
        var text = literal
        while text.hasSuffix("\\n") { text.removeLast(2) }
        text = text.trimmingCharacters(in: .whitespaces)
        guard let first = text.first, let last = text.last else { return nil }
        let opens = first.isUppercase || text.hasPrefix("“") || text.hasPrefix("\\\"")
        return text.count >= 16 && opens && ".?".contains(last) ? text : nil
    }

    static func starts(_ text: [Character], at index: Int, with word: String) -> Bool {
        var i = index
        for c in word {
            guard i < text.count, text[i] == c else { return false }
            i += 1
        }
        return true
    }

    /// The index of the parenthesis closing the one at `open` (or the end), past string literals.
    static func closing(_ text: [Character], from open: Int) -> Int {
        var depth = 0, i = open
        while i < text.count {
            switch text[i] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return i }
            case "\"": i = endOfLiteral(text, from: i)
            default: break
            }
            i += 1
        }
        return text.count
    }

    /// The index of the quote closing the literal opened at `quote`, past escapes and interpolations.
    static func endOfLiteral(_ text: [Character], from quote: Int) -> Int {
        var i = quote + 1
        while i < text.count, text[i] != "\"" {
            if text[i] == "\\", i + 1 < text.count, text[i + 1] == "(" {
                i = closing(text, from: i + 1)
            } else if text[i] == "\\" {
                i += 1
            }
            i += 1
        }
        return i
    }

    /// The string literals in `text`, each with its interpolations as written.
    static func literals(_ text: [Character]) -> [String] {
        var found: [String] = []
        var i = 0
        while i < text.count {
            guard text[i] == "\"" else {
                i += 1
                continue
            }
            var literal = ""
            var j = i + 1
            while j < text.count, text[j] != "\"" {
                if text[j] == "\\", j + 1 < text.count, text[j + 1] == "(" {
                    // Kept as written, so that its length counts as the source's.
                    let end = min(closing(text, from: j + 1), text.count - 1)
                    literal += String(text[j...end])
                    j = end + 1
                    continue
                }
                if text[j] == "\\", j + 1 < text.count {
                    literal += String(text[j...(j + 1)])
                    j += 2
                    continue
                }
                literal.append(text[j])
                j += 1
            }
            found.append(literal)
            i = j + 1
        }
        return found
    }
}
