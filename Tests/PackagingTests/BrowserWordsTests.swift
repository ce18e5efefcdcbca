import Foundation
import Host
import TestSupport
import XCTest

/// Issue 31, item 1, for the browser's scripts: what a script says after a patron's action or a server's answer comes
/// from the host (`GET /api/words` by key, or a sentence in the route's answer), never from a string the script
/// writes. These read every string literal of web/js and fail on one that is an outcome or an error sentence; the
/// page's own texts (a control's label, an empty list's line, a counter) are allowed by name, each with its reason.
final class BrowserWordsTests: XCTestCase {
    /// The page's own texts a script may write, as the check reads them (a value put in is "{}"), and why each is the
    /// page's rather than an outcome.
    static let pageTexts: [String: String] = [
        "Waiting for connection…": "the label of a button waiting to be sent again (actions.js)",
        "Hit {} of {}, {}": "which hit is shown, a counter as the page counter is",
        "Text size {}%": "the setting's value, said as its button changes it",
        "Now playing {}": "the chapter's title, a readout of the player",
        "Sleep timer: off": "the sleep timer control's state",
        "{}, {} on this computer.": "My Books' counts of what is on the page",
        "{}, {} ready to borrow.": "Reservations' counts of what is on the page",
        "Nothing on loan. ": "My Books' empty list",
        "No library yet. Add one by its address.": "the Accounts page's empty list",
        "No reservations. Titles with no free copy can be reserved from their details.": "Reservations' empty list",
        "No notifications. shelf tells you here when a hold is ready or a loan is ending.":
            "Notifications' empty list",
        "Nothing to borrow or reserve here.": "the details page's empty actions",
        "Not supported on this device: no installed plugin opens this format.": "a fact on the details page",
        "The library gives no description of this title.": "the details page's empty summary",
        "Your wish list is empty.": "the wish list's empty list",
        "No reading-list plugin is installed.": "the reading lists' empty list",
        "No titles here.": "the catalog's empty page"
    ]

    /// A call whose first argument is said or shown as an outcome or an error: a literal there is one.
    static let sayingCalls = ["announce(", "alertNow(", "refuse(", "cannotOpen(", "new Error(", "super("]

    func testTheScriptsWriteNoOutcomeOrErrorSentence() throws {
        var found: [String] = []
        var allowedSeen: Set<String> = []
        for file in try Self.scripts() {
            let source = try String(contentsOf: file, encoding: .utf8)
            for literal in Self.sentenceLiterals(in: source) {
                if Self.pageTexts[literal.text] != nil {
                    allowedSeen.insert(literal.text)
                    continue
                }
                found.append("web/js/\(file.lastPathComponent):\(literal.line): “\(literal.text)”")
            }
        }
        XCTAssertEqual(
            found, [],
            "a script writes an outcome or an error sentence: give it to the host's words (Sources/Host/Words, a "
                + "BrowserNotice case) and show notice(key), or add it to a route's answer")
        // An allowed text no script writes any more is dropped from the list, so the list stays the page's texts.
        XCTAssertEqual(Set(Self.pageTexts.keys).subtracting(allowedSeen).sorted(), [], "page texts no script writes")
    }

    /// The check finds the sentences the scripts wrote before they asked the host, planted in a script's lines.
    func testTheCheckFindsASentencePlantedInAScript() {
        let planted = """
            // A comment's "Sentence of a comment, not said." is not code.
            else announce(`This is the last page. ${this.counter}.`);
            alertNow(`The setting could not be saved: ${error.message}`);
            if (!params.id) throw new Error("Which title? The address has no id.");
            const why = player.held(chapter.track) ?? `${chapter.title} is still downloading and cannot be chosen yet.`;
            const valid = /[.!?]$/.test(text) ? 'Fine words here.' : "";
            """
        XCTAssertEqual(
            Self.sentenceLiterals(in: planted).map(\.text),
            [
                "This is the last page. {}.", "The setting could not be saved: {}",
                "Which title? The address has no id.",
                "{} is still downloading and cannot be chosen yet.", "Fine words here."
            ])
        XCTAssertEqual(Self.sentenceLiterals(in: planted).map(\.line), [2, 3, 4, 5, 6])
        // Labels, keys, counts and markup are not sentences.
        let labels = """
            h("button", { type: "button" }, "Add to wish list");
            announce(notice('reader.lastPage'));
            element.textContent = `.${READER_CLASS} { color: #111 !important; }`;
            state.app.announce(`${count(n, "more title")} loaded.`);
            """
        XCTAssertEqual(Self.sentenceLiterals(in: labels).map(\.text), [])
    }

    /// Every key a script asks for is one the host gives, and every notice set answers the browser with sentences.
    func testEveryNoticeAScriptAsksForIsTheHosts() throws {
        let lines = BrowserWords.lines
        var asked: Set<String> = []
        var missing: [String] = []
        let call = try NSRegularExpression(pattern: #"\b(notice|noticeWith|noticesOf)\(\s*['"]([\w.]+)['"]"#)
        for file in try Self.scripts() {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in call.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let function = String(source[Range(match.range(at: 1), in: source)!])
                let key = String(source[Range(match.range(at: 2), in: source)!])
                asked.insert(key)
                let given =
                    function == "noticesOf" ? lines.keys.contains { $0.hasPrefix(key + ".") } : lines[key] != nil
                if !given { missing.append("web/js/\(file.lastPathComponent): \(key)") }
            }
        }
        XCTAssertGreaterThan(asked.count, 30, "the scripts' notices were not found")
        XCTAssertEqual(missing, [], "keys the host's words do not give")
        let keys = BrowserWords.sets.flatMap { $0.browserLines.keys }
        XCTAssertEqual(Set(keys).count, keys.count, "a key given twice")
        for (key, line) in lines {
            XCTAssertTrue(line.first.map { $0.isUppercase || $0 == "“" } ?? false, "\(key): \(line)")
            XCTAssertTrue(line.last.map { ".!?…".contains($0) } ?? false, "\(key): \(line)")
            XCTAssertFalse(line.contains("shelf ") && line.contains("`"), "a browser line names a command: \(line)")
        }
        // The narration's notices are among them, by their own keys (narration.js asks for the set).
        XCTAssertEqual(lines[NarrationNotice.ready.key], NarrationNotice.ready.words(for: .browser).line)
        XCTAssertEqual(lines["reader.lastPage"], "This is the last page.")
    }

    /// The sentences made from a route's own values: one for both faces where both say it.
    func testTheRoutesSentencesAreTheHosts() {
        XCTAssertEqual(
            InBookSearchResult(query: "storm", count: 100, limited: true).words(for: .browser).line,
            "The first 100 hits for “storm”: the search stops there. More words find fewer.")
        XCTAssertEqual(
            InBookSearchResult(query: "storm", count: 1, limited: false).words(for: .browser).line,
            "1 hit for “storm”.")
        XCTAssertEqual(
            InBookSearchResult(query: "zzz", count: 0, limited: false).words(for: .browser).line,
            "No hit for “zzz” in this book.")
        XCTAssertEqual(
            CatalogSummary(query: "Open", count: 0, tab: .audiobook, availableNow: false).words(for: .browser).line,
            "No results for “Open” in Audiobooks.")
        XCTAssertEqual(
            CatalogSummary(query: nil, count: 1, tab: .all, availableNow: true).words(for: .browser).line,
            "1 title loaded in All, available now.")
        XCTAssertEqual(
            ReadAloudReady(from: "from the start").words(for: .browser).line,
            "Ready to read aloud from the start. Press Play.")
        XCTAssertNil(ReadAloudReady(from: "from the start").words(for: .terminal).hint)
    }

    // MARK: Reading the scripts

    static func scripts() throws -> [URL] {
        let root = ShelfProcess.packageRoot.appendingPathComponent("web/js")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "js" } ?? []
        XCTAssertGreaterThan(files.count, 20, "no scripts at \(root.path)")
        return files.sorted { $0.path < $1.path }
    }

    /// The string literals of `source` that are outcome or error sentences: a literal passed straight to a call that
    /// says or shows it (`sayingCalls`) with words in it, or any literal that reads as a sentence (three words or
    /// more, a capital or a value first, a full stop, question mark or ellipsis last). A value put in (`${…}`) reads
    /// as "{}".
    static func sentenceLiterals(in source: String) -> [(text: String, line: Int)] {
        var found: [(String, Int)] = []
        for literal in stringLiterals(in: Array(source)) {
            let text = literal.text
            let words = text.split(whereSeparator: { $0 == " " || $0 == "…" }).filter { $0.contains(where: \.isLetter) }
            let bare = text.trimmingCharacters(in: .whitespaces)
            let first = bare.first.map { $0.isUppercase || $0 == "“" || $0 == "{" } ?? false
            let sentence = words.count >= 3 && first && bare.last.map { ".!?…".contains($0) } ?? false
            let said = sayingCalls.contains { literal.before.hasSuffix($0) } && words.count >= 2
            if sentence || said { found.append((text, literal.line)) }
        }
        return found
    }

    /// Every string literal ('…', "…", `…`) outside comments and regular expressions, with the code just before it
    /// and its line; a template's `${…}` is "{}" in its text, and the literals inside it are read too.
    static func stringLiterals(in chars: [Character]) -> [(text: String, before: String, line: Int)] {
        var found: [(text: String, before: String, line: Int)] = []
        var i = 0
        var previous: Character = "("
        let newlines = chars.indices.filter { chars[$0] == "\n" }
        func line(_ at: Int) -> Int {
            var (low, high) = (0, newlines.count)
            while low < high {
                let middle = (low + high) / 2
                if newlines[middle] < at { low = middle + 1 } else { high = middle }
            }
            return low + 1
        }
        func before(_ at: Int) -> String {
            String(chars[max(0, at - 24)..<at]).trimmingCharacters(in: .whitespaces)
        }
        func starts(_ text: String, _ at: Int) -> Bool {
            let t = Array(text)
            return at + t.count <= chars.count && Array(chars[at..<at + t.count]) == t
        }
        while i < chars.count {
            let c = chars[i]
            if starts("//", i) {
                while i < chars.count && chars[i] != "\n" { i += 1 }
                continue
            }
            if starts("/*", i) {
                i += 2
                while i < chars.count && !starts("*/", i) { i += 1 }
                i += 2
                continue
            }
            if c == "/" && "(,=:[!&|?{};".contains(previous) {
                // A regular expression: skipped to its closing slash (one in a character class does not close it).
                var j = i + 1, inClass = false
                while j < chars.count && chars[j] != "\n" {
                    if chars[j] == "\\" { j += 2; continue }
                    if chars[j] == "[" { inClass = true } else if chars[j] == "]" { inClass = false }
                    if chars[j] == "/" && !inClass { break }
                    j += 1
                }
                (i, previous) = (j + 1, "r")
                continue
            }
            if c == "\"" || c == "'" || c == "`" {
                var j = i + 1, text = ""
                while j < chars.count && chars[j] != c {
                    if chars[j] == "\\" && j + 1 < chars.count {
                        text.append(chars[j + 1])
                        j += 2
                        continue
                    }
                    if c == "`" && starts("${", j) {
                        // A value put in: its end is the brace that closes it, past the strings inside.
                        var k = j + 2, depth = 1
                        while k < chars.count && depth > 0 {
                            if chars[k] == "{" { depth += 1 } else if chars[k] == "}" { depth -= 1 }
                            if "\"'`".contains(chars[k]) {
                                let quote = chars[k]
                                k += 1
                                while k < chars.count && chars[k] != quote { k += chars[k] == "\\" ? 2 : 1 }
                            }
                            k += 1
                        }
                        let inner = Array(chars[(j + 2)..<max(j + 2, k - 1)])
                        let offset = line(j) - 1
                        found += stringLiterals(in: inner).map { ($0.text, $0.before, $0.line + offset) }
                        text += "{}"
                        j = k
                        continue
                    }
                    text.append(chars[j])
                    j += 1
                }
                found.append((text, before(i), line(i)))
                (i, previous) = (j + 1, "s")
                continue
            }
            if !c.isWhitespace { previous = c }
            i += 1
        }
        return found
    }
}
