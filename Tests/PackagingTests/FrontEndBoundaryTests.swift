import Foundation
import TestSupport
import XCTest

/// The command line is a face over the host's session API (issue 13): it parses words, calls `Shelf` and its
/// sessions, and prints words or the host's --json documents. Whatever it did below that line (open the library
/// database, make an HTTP client, read credentials, load plugins, read the process environment a second time,
/// define a --json shape) would be a second implementation the browser app does not share, and would drift from it.
/// The compiler cannot see that line (the facade exports these types for the web app too), so this reads the
/// sources: a name below the facade in Sources/shelf fails here, with the file and line.
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
        (#"\bProcessInfo\b|\bProcessEnvironment\b|\bgetenv\b"#, "the environment is read once, by Shelf (Shelf.environment)"),
        (#"\.engine\b"#, "a front end plays through the listening session's controls, not its engine: one place for what every control does"),
        (#"\bstruct\s+\w+\s*:\s*[^{]*\bEncodable\b"#, "--json documents are defined in the host (Sources/Host/Session/Documents)"),
        (#"Output\.json\(\["#, "--json documents are defined in the host (Sources/Host/Session/Documents), not as literals"),
    ]

    /// The modules the command line may import: the facade and the system. `Web` is the browser front end that
    /// `shelf serve` runs, a peer of the command line that is itself only a face over the same facade.
    static let allowedImports: Set<String> = ["Foundation", "Glibc", "Host", "Web"]

    func testTheCommandLineReachesNothingBelowTheFacade() throws {
        let folder = ShelfProcess.packageRoot.appendingPathComponent("Sources/shelf")
        let files = try Self.swiftFiles(in: folder)
        XCTAssertGreaterThan(files.count, 20, "the command line's sources were not found at \(folder.path)")
        let patterns = try Self.forbidden.map { (try NSRegularExpression(pattern: $0.pattern), $0.why) }
        var found: [String] = []
        for file in files {
            let name = file.path.replacingOccurrences(of: ShelfProcess.packageRoot.path + "/", with: "")
            for (number, line, code) in Self.codeLines(try String(contentsOf: file, encoding: .utf8)) {
                let range = NSRange(code.startIndex..., in: code)
                for (pattern, why) in patterns where pattern.firstMatch(in: code, range: range) != nil {
                    found.append("\(name):\(number): \(why): \(line.trimmingCharacters(in: .whitespaces))")
                }
                if code.hasPrefix("import ") || code.contains(" import ") {
                    let module = code.split(separator: " ").last.map(String.init) ?? ""
                    if !Self.allowedImports.contains(module) { found.append("\(name):\(number): imports \(module), not only the facade") }
                }
            }
        }
        XCTAssertEqual(found, [], "the command line reaches below the host's session API:\n" + found.joined(separator: "\n"))
    }

    /// Issue 13: a `try?` in the command line either says, in a comment on its line or just above, why the error
    /// does not matter, or is an error or warning the patron sees instead. An uncommented one fails here.
    func testEveryErrorTheCommandLineDropsSaysWhy() throws {
        let folder = ShelfProcess.packageRoot.appendingPathComponent("Sources/shelf")
        var silent: [String] = []
        for file in try Self.swiftFiles(in: folder) {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where Self.code(of: line).contains("try?") {
                let above = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if !line.contains("//") && !above.hasPrefix("//") {
                    silent.append("\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertEqual(silent, [], "a try? without a comment saying why its error does not matter:\n" + silent.joined(separator: "\n"))
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
        XCTAssertEqual(Self.code(of: #"Output.line("at \(library.database.path)")"#), #"Output.line(" library.database.path ")"#)
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
                } else if c == "\\" { escaped = true } else if c == "\"" { inString = false; code.append(c) }
                continue
            }
            if interpolation > 0 {
                if c == "(" { interpolation += 1 } else if c == ")" { interpolation -= 1; if interpolation == 0 { code.append(" "); continue } }
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
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}
