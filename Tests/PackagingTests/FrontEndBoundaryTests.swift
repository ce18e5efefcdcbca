import Foundation
import TestSupport
import XCTest

/// The command line and the browser app (`shelf serve`, Sources/Web) are faces over the host's session API
/// (issue 13): they parse words or requests, call `Shelf` and its sessions, and answer with words or the host's
/// documents. Whatever they did below that line (open the library database, make an HTTP client, read credentials,
/// load plugins, drive the playback engine or pick its sinks, run the conformance suite's runner, read the process
/// environment a second time, define a --json shape) would be a second implementation the other front end does not
/// share, and would drift from it. The facade still shows some lower types to both, so this reads the sources: a
/// name below the session API in Sources/shelf or Sources/Web fails here, with the file and line.
final class FrontEndBoundaryTests: XCTestCase {
    /// Names of what only the host may touch, and why each is the host's.
    static let forbidden: [(pattern: String, why: String)] = [
        (#"\bLibraryDatabase\b"#, "the library database is opened by the host's sessions"),
        (#"\.database\b"#, "a session's database is the host's: add a session call instead"),
        (#"\bSQLite\w*"#, "SQLite is the host's storage"),
        (#"\bHTTP(Client|Request|Response)\b"#, "HTTP clients are made by the host's sessions"),
        (#"\bCatalogClient\b"#, "catalog clients are made by LibrarySession"),
        (#"\bAuthenticator\b"#, "sign-in goes through SignIn"),
        (#"\bCredentialStore\b|\.store\b"#, "credentials are kept by the host (SignIn, LibrarySession)"),
        (#"\bPlugin(Registry|Loader)\b|\.registry\b|\bLoadedPlugin\b|\bdlopen\b"#, "plugins are loaded by Shelf"),
        (
            #"\bProcessInfo\b|\bProcessEnvironment\b|\bgetenv\b"#,
            "the environment is read once, by Shelf (Shelf.environment)"
        ),
        (
            #"\.engine\b"#,
            "a front end plays through the listening session's controls, not its engine: one place for what every control does"
        ),
        (
            #"\bPlaybackEngine\b"#,
            "the engine is the listening session's: open one with Shelf.listen(_:options:) and ListeningOptions"
        ),
        (
            #"\b(Audio|Device|WAVFile|RawPCM|Null)Sink\b"#,
            "a front end chooses where sound goes with AudioOutput; the sinks are the playback subsystem's"
        ),
        (
            #"\bFormatRouter\b|\bshelf\.router\b|\bPluginSearchPath\b"#,
            "books are routed to plugins by Shelf (open, sniff, pluginListing)"
        ),
        (
            #"\bHostServices\b|\bCommandDeadline\b|\bShelfVersion\b"#,
            "Ctrl-C, plugin progress, the network deadline and the version are Shelf's calls (Session/ProcessControls.swift)"
        ),
        (#"\bConformance(Runner|Checks)\b"#, "the conformance suite runs through PluginConformance"),
        (#"\bOutputFile\b"#, "a file the patron names is written by Shelf.writeOutputFile"),
        // The core's extensions on the folders' value reach a front end even so (a member of a module Host imports
        // internally is still found): the compiler does not stop these, this does.
        (
            #"\.create(Config|Data|Cache)\(|\bcreateDirectory\(atPath|\bShelfDirectories\(environment"#,
            "shelf's folders are resolved and made by the host (Shelf.directories, Shelf.cacheFolder)"
        ),
        (#"\bChapterSpans\b"#, "a table of contents' spans are BookFile's (tableOfContents, tableOfContentsSpans)"),
        (
            #"\bSystemdUnits\b|\bWatchLock\(|\.downloadFolder\b"#,
            "the watcher's lock and units and a loan's folder are session calls (watchLock, installWatchUnits, LibrarySession.download)"
        ),
        (
            #"\bPublication\b|\.publication\b|\bshelf\.open\(|\bbookshelf\.open\("#,
            "a book's file is read through BookFile (Shelf.openFile, Bookshelf.openFile, ReadingSession.file)"
        ),
        (
            #"\bstruct\s+\w+\s*:\s*[^{]*\bEncodable\b"#,
            "--json documents are defined in the host (Sources/Host/Session/Documents)"
        ),
        (
            #"Output\.json\(\["#,
            "--json documents are defined in the host (Sources/Host/Session/Documents), not as literals"
        )
    ]

    /// The modules the command line may import: the facade and the system. `Web` is the browser front end that
    /// `shelf serve` runs, a peer of the command line that is itself only a face over the same facade.
    static let allowedImports: Set<String> = ["Foundation", "Glibc", "Host", "Web"]

    /// The browser app's: the facade, the system, and the C binding of libmicrohttpd, its HTTP server.
    static let webImports: Set<String> = ["Foundation", "Glibc", "Host", "CMicroHTTPD"]

    func testTheCommandLineReachesNothingBelowTheFacade() throws {
        let found = try Self.reachesBelow(
            in: "Sources/shelf", rules: Self.forbidden, imports: Self.allowedImports, least: 20)
        XCTAssertEqual(
            found, [], "the command line reaches below the host's session API:\n" + found.joined(separator: "\n"))
    }

    /// The browser app is held to the same line. Its own API answers (a redirect, a page of a list) are shapes of
    /// its protocol, not --json documents, so the rule about defining documents is the command line's alone.
    func testTheBrowserAppReachesNothingBelowTheFacade() throws {
        let rules = Self.forbidden.filter { !$0.why.hasPrefix("--json documents") }
        let found = try Self.reachesBelow(in: "Sources/Web", rules: rules, imports: Self.webImports, least: 25)
        XCTAssertEqual(
            found, [], "the browser app reaches below the host's session API:\n" + found.joined(separator: "\n"))
    }

    /// Issue 31: the web answers the host's documents as typed values, encoded once; nothing in the browser app or
    /// the facade builds JSON from Foundation objects, or parses a document back to patch it
    /// (`JSONSerialization`, `[String: Any]`).
    func testTheWebAndTheFacadeMoveTypedDocumentsOnly() throws {
        let rules = [
            (pattern: #"\bJSONSerialization\b"#, why: "JSON built or parsed as Foundation objects"),
            (pattern: #"\[String: Any\]"#, why: "an untyped document")
        ]
        var found: [String] = []
        for (folder, least) in [("Sources/Web", 25), ("Sources/Host", 25)] {
            found += try Self.reachesBelow(
                in: folder, rules: rules, imports: [], least: least
            ).filter { !$0.contains(": imports ") }
        }
        XCTAssertEqual(found, [], "a document is not typed:\n" + found.joined(separator: "\n"))
    }

    /// Every line of the front end's sources under `folder` that names what `rules` forbid, or imports a module
    /// outside `imports`: "FILE:LINE: why: the line".
    static func reachesBelow(
        in folder: String, rules: [(pattern: String, why: String)], imports: Set<String>, least: Int
    ) throws -> [String] {
        let url = ShelfProcess.packageRoot.appendingPathComponent(folder)
        let files = try swiftFiles(in: url)
        XCTAssertGreaterThan(files.count, least, "the front end's sources were not found at \(url.path)")
        var found: [String] = []
        for file in files {
            let name = file.path.replacingOccurrences(of: ShelfProcess.packageRoot.path + "/", with: "")
            found += try violations(
                in: String(contentsOf: file, encoding: .utf8), named: name, rules: rules, imports: imports)
        }
        return found
    }

    /// The lines of one source text that break `rules` or import a module outside `imports`.
    static func violations(
        in text: String, named name: String, rules: [(pattern: String, why: String)], imports: Set<String>
    ) throws -> [String] {
        let patterns = try rules.map { (try NSRegularExpression(pattern: $0.pattern), $0.why) }
        var found: [String] = []
        for (number, line, code) in codeLines(text) {
            let range = NSRange(code.startIndex..., in: code)
            for (pattern, why) in patterns where pattern.firstMatch(in: code, range: range) != nil {
                found.append("\(name):\(number): \(why): \(line.trimmingCharacters(in: .whitespaces))")
            }
            if code.hasPrefix("import ") || code.contains(" import ") {
                let module = code.split(separator: " ").last.map(String.init) ?? ""
                if !imports.contains(module) {
                    found.append("\(name):\(number): imports \(module), not only the facade")
                }
            }
        }
        return found
    }

    /// Issue 13: a `try?` in the command line either says, in a comment on its line or just above, why the error
    /// does not matter, or is an error or warning the patron sees instead. An uncommented one fails here.
    func testEveryErrorTheCommandLineDropsSaysWhy() throws {
        let folder = ShelfProcess.packageRoot.appendingPathComponent("Sources/shelf")
        var silent: [String] = []
        for file in try Self.swiftFiles(in: folder) {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where Self.code(of: line).contains("try?") {
                if !line.contains("//") && !Self.statementHasCommentAbove(lines, index) {
                    silent.append(
                        "\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertEqual(
            silent, [],
            "a try? without a comment saying why its error does not matter:\n" + silent.joined(separator: "\n"))
    }

    /// Whether the statement that line `index` belongs to has a comment on the line above it: the statement starts on
    /// the first of the lines above that leave it open (ending in `(`, `[`, `,`, `=` or an operator), as a formatter
    /// breaks a long one.
    static func statementHasCommentAbove(_ lines: [String], _ index: Int) -> Bool {
        var start = index
        while start > 0 {
            let above = lines[start - 1].trimmingCharacters(in: .whitespaces)
            guard ["(", "[", ",", "=", "&&", "||", "??", "+"].contains(where: { above.hasSuffix($0) }) else { break }
            if above.contains("//") { return true }
            start -= 1
        }
        return start > 0 && lines[start - 1].trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }

    /// A try? in a statement a formatter broke over lines is still said why by the comment above the statement.
    func testACommentAboveABrokenStatementSaysWhy() {
        let lines = [
            "// Counted before they go.", "let held = (", "    (try? loans()) ?? 0,", "    (try? holds()) ?? 0", ")"
        ]
        XCTAssertTrue(Self.statementHasCommentAbove(lines, 2))
        XCTAssertTrue(Self.statementHasCommentAbove(lines, 1))
        XCTAssertFalse(Self.statementHasCommentAbove(["let a = 1", "let held = (", "    (try? loans()) ?? 0"], 2))
        XCTAssertFalse(Self.statementHasCommentAbove(["// about a", "let a = 1", "let b = try? c()"], 2))
    }

    /// The check itself finds what it looks for: a line as a command once had it.
    func testTheCheckFindsADatabaseReachedDirectly() throws {
        let line = "    guard let bookmark = try bookshelf.database.bookmark(id: id) else {"
        let matched = try Self.forbidden.filter { rule in
            let pattern = try NSRegularExpression(pattern: rule.pattern)
            return pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        XCTAssertEqual(matched.map(\.why), ["a session's database is the host's: add a session call instead"])
        XCTAssertEqual(Self.code(of: "/// reads the library database (LibraryDatabase) only"), "")
        XCTAssertEqual(Self.code(of: #"Output.line("the .database") // LibraryDatabase"#), #"Output.line("")"#)
        XCTAssertEqual(
            Self.code(of: #"Output.line("at \(library.database.path)")"#), #"Output.line(" library.database.path ")"#)
    }

    /// The lower types the session API now wraps are found as the command line once named them (issue 13, item 2):
    /// the sinks `shelf play` picked, the engine's options `shelf listen` made, the conformance runner, the router,
    /// the host services of main.swift, the publication `shelf render` opened. A line that only names the session's
    /// calls passes.
    func testTheCheckFindsTheLowerTypesTheSessionAPIWraps() throws {
        let once = """
            import ShelfPlayback
            func makeSink(_ args: Arguments) throws -> AudioSink {
                if args.has("--null") { return NullSink() }
                return DeviceSink()
            }
            var options = PlaybackEngine.Options()
            let runner = ConformanceRunner(timeout: 30, memcheck: false, settings: [:], secrets: [:])
            let router = FormatRouter(registry: shelf.registry)
            HostServices.installInterruptHandler()
            if !command.runsUntilStopped { CommandDeadline.begin() }
            func extract(_ data: Data, href: String, publication: Publication, to output: String, json: Bool) throws {
            let publication = try context.shelf.open(args.positionals[0])
            """
        let found = try Self.violations(
            in: once, named: "Once.swift", rules: Self.forbidden, imports: Self.allowedImports)
        XCTAssertEqual(
            found.map { $0.components(separatedBy: ": ")[0] },
            [
                "Once.swift:1",  // imports ShelfPlayback
                "Once.swift:2", "Once.swift:3", "Once.swift:4", "Once.swift:6", "Once.swift:7",
                "Once.swift:8", "Once.swift:8",  // the router, and the registry
                "Once.swift:9", "Once.swift:10", "Once.swift:11", "Once.swift:12"
            ], found.joined(separator: "\n"))
        let now = """
            func audioOutput(_ args: Arguments) -> AudioOutput { args.has("--null") ? .nothing() : .device() }
            var options = ListeningOptions()
            let runner = PluginConformance(shelf: context.shelf, timeout: 30, memcheck: false, settings: [:], secrets: [:])
            Shelf.installInterruptHandler()
            if !command.runsUntilStopped { Shelf.beginCommandDeadline() }
            let book = try context.shelf.openFile(args.positionals[0])
            """
        XCTAssertEqual(
            try Self.violations(in: now, named: "Now.swift", rules: Self.forbidden, imports: Self.allowedImports), [])
    }

    /// The line without its comment and with the text of its string literals left out (what is interpolated in them
    /// is kept: it is code): words about the database are fine, reaching it is not.
    static func code(of line: String) -> String {
        var code = "", inString = false, escaped = false, interpolation = 0
        var characters = Array(line.trimmingCharacters(in: .whitespaces))[...]
        while let c = characters.first {
            characters = characters.dropFirst()
            if inString && interpolation == 0 {
                if escaped {
                    escaped = false
                    if c == "(" { interpolation = 1; code.append(" ") }
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false; code.append(c)
                }
                continue
            }
            if interpolation > 0 {
                if c == "(" {
                    interpolation += 1
                } else if c == ")" {
                    interpolation -= 1; if interpolation == 0 { code.append(" "); continue }
                }
            }
            if c == "/", characters.first == "/" { break }
            if c == "\"", interpolation == 0 { inString = true }
            code.append(c)
        }
        return code.trimmingCharacters(in: .whitespaces)
    }

    /// The lines of a file that are code: the text of multi-line string literals (a command's help) left out.
    static func codeLines(_ text: String) -> [(number: Int, line: String, code: String)] {
        var lines: [(Int, String, String)] = []
        var inText = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let delimiters = line.components(separatedBy: "\"\"\"").count - 1
            if inText {
                if delimiters % 2 == 1 { inText = false }
                continue
            }
            if delimiters % 2 == 1 { inText = true }
            lines.append((index + 1, line, code(of: line.components(separatedBy: "\"\"\"")[0])))
        }
        return lines
    }

    static func swiftFiles(in folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}
