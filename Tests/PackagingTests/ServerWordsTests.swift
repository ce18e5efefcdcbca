import Foundation
import Host
import TestSupport
import XCTest

/// Issue 31, item 1, for the browser app's server: what it says about a request (`RequestProblem`), about who sent
/// it (`SecurityRefusal`), about itself (`ServerProblem`, `ServerNotice`) and about a sign-in it cannot do
/// (`SignInLimit`) is written in the host's words module; the server (`Sources/Web`) only sends it.
final class ServerWordsTests: XCTestCase {
    /// A value put into the words (a path, an id, an address): the words around it are the module's own.
    static let value = "\u{1}"
    static let number: Int64 = 987_654

    static var requestProblems: [RequestProblem] {
        [
            .whichTitle, .missingMember(name: value),
            .bodyNotJSON, .tooLarge(limit: 1 << 20), .notANumber(name: value, given: value, range: 1...500),
            .notOneOf(name: value, given: value, choices: ["all", "ebook", "audiobook"]), .notAFacet(given: value),
            .unknownCursor(value), .idNotANumber(of: "wish"), .nothingAt(path: value),
            .methodNotAllowed(path: value, method: value),
            .notOnShelf(id: value), .failed(detail: value)
        ]
    }

    static var securityRefusals: [SecurityRefusal] {
        [
            .foreignHost(home: value), .foreignHost(home: nil), .otherSite, .foreignOrigin(origin: value),
            .notTheAppsCall, .changeWithoutOrigin, .noSession, .launchKeyWithoutSecret, .linkUsed, .wrongPassword,
            .openRequestExpired, .bookOriginReadOnly(method: value)
        ]
    }

    static var serverProblems: [ServerProblem] {
        [
            .cannotListen(address: value, port: 8080), .notAnIPAddress(value),
            .noHTTPServer(detail: "libmicrohttpd could not be opened: install it with apt-get install libmicrohttpd12"),
            .webFilesMissing, .openAPIMissing(folder: value), .openAPINotJSON(path: value)
        ]
    }

    static var others: [PatronOutcome] {
        [
            ServerNotice.refused(
                method: value, path: value, from: value, reason: "Requests from other sites are refused."),
            SignInLimit.throughWebPage(library: value, address: value),
            SignInLimit.throughWebPage(library: value, address: nil)
        ]
    }

    static var everyOutcome: [PatronOutcome] {
        requestProblems as [PatronOutcome] + securityRefusals as [PatronOutcome] + serverProblems as [PatronOutcome]
            + others
    }

    /// Only a terminal lets a browser in, and only `shelf login` signs in through a library's web page: these
    /// browser hints name the terminal's command, and say it is the terminal's.
    static func mayNameTheTerminal(_ outcome: PatronOutcome) -> Bool {
        switch outcome {
        case SecurityRefusal.noSession, SecurityRefusal.linkUsed, SecurityRefusal.openRequestExpired: return true
        case is SignInLimit: return true
        default: return false
        }
    }

    /// Every value says a whole sentence in the browser, and a hint that is one; a browser hint names a page, a
    /// button or the request, never a command or an option, unless the way on is only the terminal's.
    func testEveryServerOutcomeIsAWholeSentenceInTheBrowser() {
        for outcome in Self.everyOutcome {
            let words = outcome.words(for: .browser)
            let sentence = words.sentence.replacingOccurrences(of: Self.value, with: "X")
            WordsTests.assertSentence(sentence, "\(outcome)")
            guard let hint = words.hint?.replacingOccurrences(of: Self.value, with: "X") else { continue }
            WordsTests.assertSentence(hint, "\(outcome)")
            XCTAssertFalse(hint.contains("`") || hint.contains("make install"), "a terminal's hint: \(hint)")
            if Self.mayNameTheTerminal(outcome) {
                XCTAssertTrue(hint.contains("terminal"), "a command without saying where to type it: \(hint)")
            } else {
                XCTAssertFalse(hint.contains("shelf ") || hint.contains(" --"), "browser hint names a command: \(hint)")
            }
        }
    }

    /// The server cannot start: that is said on the terminal that started it, with its options, as an error that
    /// follows "shelf: "; none of those hints is offered in a browser, which never saw the server.
    func testAServerThatCannotStartSaysSoOnTheTerminal() {
        for problem in Self.serverProblems {
            let error = problem.error
            let terminal = error.words(for: .terminal)
            XCTAssertTrue(
                terminal.sentence.hasPrefix(Self.value) || terminal.sentence.first?.isLowercase == true,
                "follows “shelf: ”: \(terminal.sentence)")
            XCTAssertFalse(terminal.sentence.hasSuffix("."), terminal.sentence)
            XCTAssertEqual(problem.words(for: .browser).sentence, error.words(for: .browser).sentence)
        }
        let port = ServerProblem.cannotListen(address: "127.0.0.1", port: 80).error
        XCTAssertEqual(port.kind, .unavailable)
        XCTAssertEqual(
            port.description,
            "cannot listen on 127.0.0.1 port 80\n  Is another program using that port? Choose another with --port N.")
        XCTAssertNil(port.words(for: .browser).hint)
        XCTAssertEqual(ServerProblem.notAnIPAddress("banana").error.kind, .usage, "a mistake in what was typed")
        XCTAssertTrue(ServerProblem.webFilesMissing.error.hint?.contains("SHELF_WEB_ROOT") ?? false)
    }

    /// The refusals a browser reads keep the words the pages and the tests know them by.
    func testTheRefusalsReadAsTheAppSaysThem() {
        XCTAssertEqual(
            SecurityRefusal.noSession.words(for: .browser),
            Words(
                "This browser has not been let in.",
                hint: "Run shelf serve --open in a terminal: it opens shelf here with a key that lets this browser in.")
        )
        XCTAssertEqual(
            SecurityRefusal.foreignHost(home: "http://shelf.localhost:8080/").words(for: .browser).line,
            "This server answers only to its own address. Open http://shelf.localhost:8080/ instead.")
        XCTAssertEqual(
            RequestProblem.notOneOf(name: "format", given: "pdf", choices: ["all", "ebook", "audiobook"])
                .words(for: .browser).sentence, "In the address, format=pdf is not all, ebook or audiobook.")
        XCTAssertEqual(
            RequestProblem.tooLarge(limit: 1 << 20).sentence,
            "The request is too large: this server takes at most 1.0 MB.")
        XCTAssertEqual(
            ServerNotice.refused(
                method: "GET", path: "/api/status", from: "http://evil.example",
                reason: "Requests from other sites are refused."
            ).words(for: .terminal).line,
            "The server refused GET /api/status from http://evil.example. Requests from other sites are refused.")
    }

    /// The server sends these words and writes none of them again: no fixed stretch of them is in `Sources/Web` or
    /// `Sources/shelf`, and no problem there is made from a sentence or a hint literal (`WebError(404, "…")`,
    /// `question: "…"`).
    func testTheServerWritesNoneOfTheseWordsItself() throws {
        var fragments: Set<String> = []
        for outcome in Self.everyOutcome {
            for face in Face.allCases {
                let line = outcome.words(for: face).line.replacingOccurrences(of: "\(Self.number)", with: Self.value)
                for piece in line.split(separator: Character(Self.value)) {
                    let stretch = piece.trimmingCharacters(in: CharacterSet(charactersIn: " ().:,`“”"))
                    if stretch.count >= 16 { fragments.insert(stretch) }
                }
            }
        }
        for problem in Self.serverProblems { fragments.insert(problem.error.message) }
        XCTAssertGreaterThan(fragments.count, 30)
        var found: [String] = []
        // A problem given its sentence or its hint, or a question asked, as a literal.
        let literal = try NSRegularExpression(pattern: #"WebError\(\s*\d+\s*,\s*("|[^()]*hint:\s*")|question:\s*""#)
        for folder in ["Sources/Web", "Sources/shelf"] {
            let root = ShelfProcess.packageRoot.appendingPathComponent(folder)
            let files =
                FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            XCTAssertFalse(files.isEmpty, "no sources at \(root.path)")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for fragment in fragments where text.contains(fragment) {
                    found.append("\(folder)/\(file.lastPathComponent): “\(fragment)”")
                }
                if folder == "Sources/Web",
                    literal.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                {
                    found.append("\(folder)/\(file.lastPathComponent): a problem written as a literal")
                }
            }
        }
        XCTAssertEqual(
            found.sorted(), [], "the server writes the host's words again:\n" + found.joined(separator: "\n"))
    }
}
