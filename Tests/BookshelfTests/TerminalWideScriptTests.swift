import Foundation
import Glibc
import TestSupport
import XCTest

/// `shelf read` on a terminal with a book in a script whose characters are not one column each: the status line is
/// cut to the terminal by wcwidth's rules, so it never wraps and pushes the page's first line off the screen.
/// Failed before: the line was cut by characters, and a Devanagari chapter title ran past the last column.
final class TerminalWideScriptTests: BookshelfTestCase {
    /// Columns by glibc's wcwidth in a UTF-8 locale (the test's own measure, not shelf's).
    static func columns(_ text: String) throws -> Int {
        // wcwidth is X/Open, which Swift's Glibc module leaves out: found in the C library by name.
        typealias WCWidth = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "wcwidth") else { throw XCTSkip("no wcwidth") }
        let wcwidth = unsafeBitCast(symbol, to: WCWidth.self)
        guard let utf8 = newlocale(Int32(LC_CTYPE_MASK), "C.UTF-8", nil) else { throw XCTSkip("no C.UTF-8 locale") }
        defer { freelocale(utf8) }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        return text.unicodeScalars.reduce(0) { $0 + max(0, Int(wcwidth(Int32(bitPattern: $1.value)))) }
    }

    /// Each status line drawn (the last row, in reverse video) after `offset`.
    func statusLines(_ terminal: TerminalSession, rows: Int, since offset: Int) -> [String] {
        terminal.output(since: offset).components(separatedBy: "\u{1B}[\(rows);1H\u{1B}[7m").dropFirst().map {
            String($0.prefix { $0 != "\u{1B}" })
        }
    }

    func testADevanagariStatusLineFitsTheTerminal() throws {
        let title = "अध्याय एक: क्षितिज की ओर समुद्र यात्रा"
        let path = folder.appendingPathComponent("hindi.epub").path
        try FixtureBooks.write(
            to: path, identifier: "urn:uuid:hindi-1", title: "समुद्र",
            chapters: [
                FixtureBooks.Chapter(
                    file: "c1.xhtml", title: title, paragraphs: (1...30).map { "अनुच्छेद \($0): समुद्र के किनारे एक दीपस्तंभ था।" })
            ])
        try ok(["add", path])
        XCTAssertGreaterThan(try Self.columns(title), title.count, "more columns than characters")
        let terminal = try TerminalSession(["read", "समुद्र"], environment: shelf.environment, columns: 40, rows: 20)
        XCTAssertTrue(terminal.wait(for: "page 2 of"), terminal.output)
        Thread.sleep(forTimeInterval: 0.3)
        let statuses = statusLines(terminal, rows: 20, since: 0)
        XCTAssertFalse(statuses.isEmpty, terminal.output)
        for status in statuses {
            XCTAssertLessThanOrEqual(try Self.columns(status), 40, status)
        }
        // A Chinese search typed on the status row is cut the same way.
        let mark = terminal.mark
        terminal.type("/" + String(repeating: "灯塔", count: 15))
        Thread.sleep(forTimeInterval: 0.5)
        let typed = statusLines(terminal, rows: 20, since: mark)
        XCTAssertFalse(typed.isEmpty, terminal.output(since: mark))
        for status in typed { XCTAssertLessThanOrEqual(try Self.columns(status), 40, status) }
        terminal.type("\u{1B}q")
        XCTAssertEqual(terminal.finish(), 0, terminal.output)
    }
}
