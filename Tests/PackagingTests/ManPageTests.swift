import Foundation
import Host
import ShelfPlugins
import TestSupport
import XCTest

/// shelf(1) and shelf-plugin(7) as `shelf generate` writes them from the command table: man renders them without a
/// warning, and shelf(1) explains every command `shelf --help` lists.
final class ManPageTests: XCTestCase {
    var shelf: ShelfProcess!

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    private func page(_ name: String) throws -> URL {
        let result = try shelf.run(["generate", name])
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = shelf.home.appendingPathComponent(name)
        try Data(result.stdout.utf8).write(to: file)
        return file
    }

    /// `man --warnings -l` (every groff warning on) and groff -ww on the page itself say nothing; the text is
    /// returned without hyphenation or justification, so that words can be looked for.
    private func assertRendersCleanly(_ file: URL) throws -> String {
        let man = try Tool("man", package: "man-db")
        let groff = try Tool("groff", package: "groff-base")
        var environment = shelf.environment
        environment["MANWIDTH"] = "80"
        environment["LC_ALL"] = "C.UTF-8"
        let rendered = try man.run(["--warnings", "-l", file.path], environment: environment)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "", "man --warnings -l \(file.lastPathComponent)")
        let checked = try groff.run(["-ww", "-man", "-Tutf8", "-z", file.path])
        XCTAssertEqual(checked.status, 0)
        XCTAssertEqual(checked.stderr, "", "groff -ww on \(file.lastPathComponent)")
        let plain = try man.run(["--nh", "--nj", "-l", file.path], environment: environment)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        return plain.stdout
    }

    func testShelfPageExplainsEveryListedCommand() throws {
        let text = try assertRendersCleanly(try page("shelf.1"))
        let commands = try shelf.listedCommands()
        XCTAssertGreaterThan(commands.count, 30, "shelf --help lists the commands")
        // Each command is a subsection (three spaces in) followed by its synopsis.
        let lines = text.split(separator: "\n").map(String.init)
        for command in commands {
            guard let heading = lines.firstIndex(of: "   " + command) else {
                XCTFail("shelf(1) has no section for \(command)")
                continue
            }
            XCTAssertTrue(
                lines[heading + 1].contains("shelf \(command)"), "the \(command) section opens with its synopsis")
        }
        for section in ["SYNOPSIS", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES"] {
            XCTAssertTrue(lines.contains(section), "shelf(1) has \(section)")
        }
        // The exit codes of `shelf --help`, each explained.
        for code in ["64", "65", "66", "69", "70", "74", "75", "77"] {
            XCTAssertTrue(lines.contains { $0.hasPrefix("       \(code) ") }, "EXIT STATUS explains \(code)")
        }
        XCTAssertTrue(
            text.contains("SHELF_HOME") && text.contains("SHELF_PLUGIN_PATH"), "ENVIRONMENT names shelf's variables")
        // Every setting shelf reads from the environment, found in the sources (the conformance suite's own hand-over
        // to its children aside); SHELF_PLUGIN_TIMEOUT and the placement settings were only in the README.
        for name in try Self.environmentNamesRead() where !name.hasPrefix("SHELF_CONFORMANCE_") {
            XCTAssertTrue(text.contains(name), "shelf(1) ENVIRONMENT explains \(name)")
        }
        // The options come from the table: render's are in its synopsis, hyphens as the ASCII hyphen-minus.
        XCTAssertTrue(
            Self.flowing(text).contains("--font-scale PCT"), "render's --font-scale, as `shelf help render` has it")
        // A hidden command stays out.
        XCTAssertFalse(lines.contains("   conformance-check"))
        XCTAssertFalse(lines.contains("   generate"))
    }

    func testPluginPageSaysWhereToStart() throws {
        let text = try assertRendersCleanly(try page("shelf-plugin.7"))
        for words in [
            "shelf_plugin_entry", "pkg-config --cflags --libs shelf-plugin", "shelf-plugin-host",
            "SHELF_LOG=debug", "/usr/local/lib/shelf/plugins", "SHELF CONFORMANCE", "--memcheck",
            // Where a third-party plugin runs, what it may touch, and how its author debugs it.
            "shelf-plugin-sandbox", "EACCES", "socket, socketpair, connect, io_uring, fork, exec", "shelf.host.files/1",
            "SHELF_PLUGIN_TIMEOUT", "SHELF_PLUGIN_CALL_LIMIT", "SHELF_PLUGIN_MEMORY", "SHELF_PLUGINS_IN_PROCESS=ID",
            // What ABI 1.1 added, and where a plugin runs and why.
            "ABI VERSIONS", "shelf_host.plugin_path", "shelf.probe/1", "SHELF_HAS_FIELD",
            "says for each plugin where it runs"
        ] {
            XCTAssertTrue(Self.flowing(text).contains(words), "shelf-plugin(7) says \(words)")
        }
    }

    /// The "SHELF_..." names the Swift sources read.
    static func environmentNamesRead() throws -> Set<String> {
        let sources = ShelfProcess.packageRoot.appendingPathComponent("Sources")
        let pattern = try NSRegularExpression(pattern: "\"(SHELF_[A-Z_]+)\"")
        var names = Set<String>()
        for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    /// Rendered text as one line, runs of spaces made one.
    static func flowing(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    func testAnUnknownPageIsAUsageError() throws {
        let result = try shelf.run(["generate", "shelf.5"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("shelf.1, shelf-plugin.7, bash, zsh, fish"), result.stderr)
    }

    /// A shelf installed in /usr (the package) looks in /usr/local/lib/shelf/plugins too, before its own folder.
    func testAPackagedShelfLooksInUsrLocal() throws {
        let search = PluginSearchPath.standard(explicit: [], environment: [:], executable: "/usr/bin/shelf")
        XCTAssertEqual(
            search.entries.suffix(2), [.directory("/usr/local/lib/shelf/plugins"), .directory("/usr/lib/shelf/plugins")]
        )
        let elsewhere = PluginSearchPath.standard(explicit: [], environment: [:], executable: "/opt/shelf/bin/shelf")
        XCTAssertFalse(elsewhere.entries.contains(.directory("/usr/local/lib/shelf/plugins")))
    }
}
