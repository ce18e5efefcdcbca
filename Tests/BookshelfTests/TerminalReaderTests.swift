import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// `shelf read BOOK` on a terminal is a reader, not one page per command (issue 19, item 7): driven here through a
/// pseudo-terminal as a person drives it, and checked against what is saved after each turn.
final class TerminalReaderTests: BookshelfTestCase {
    /// The page the shelf has saved for the book now.
    func savedPage() throws -> Int {
        let books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        return books.first?["page"] as? Int ?? -1
    }

    /// The rows a frame drew after `offset`, escape sequences taken out.
    static func drawnRows(_ output: String) -> [String] {
        let rows = output.components(separatedBy: "\u{1B}[").dropFirst().compactMap { piece -> String? in
            // "12;1Htext" is row 12's text; other sequences ("K", "7m", "0m") carry what follows them.
            guard let h = piece.firstIndex(where: { $0.isLetter || $0 == "~" }) else { return nil }
            return String(piece[piece.index(after: h)...])
        }
        return rows.filter { !$0.isEmpty }
    }

    func testReadOnATerminalTurnsSearchesResizesAndSavesEveryTurn() throws {
        let chapters = FixtureBooks.chapters(3)
        try ok(["add", try fixture(chapters: chapters)])
        let total = 1 + chapters.map(FixtureBooks.pages).reduce(0, +)
        let terminal = try TerminalSession(["read", "Tide"], environment: shelf.environment, columns: 80, rows: 40)
        XCTAssertTrue(terminal.wait(for: "Chapter 1 · page 2 of \(total)"), terminal.output)
        XCTAssertTrue(terminal.output.contains("In part 1 passage 1 the keeper noted"), terminal.output)

        // Space, the left arrow and PgDn turn pages; each turn is saved at once.
        var mark = terminal.mark
        terminal.type(" ")
        XCTAssertTrue(terminal.wait(for: "page 3 of \(total)", since: mark), terminal.output(since: mark))
        XCTAssertEqual(try savedPage(), 3)
        mark = terminal.mark
        terminal.type("\u{1B}[D")
        XCTAssertTrue(terminal.wait(for: "page 2 of \(total)", since: mark), terminal.output(since: mark))
        XCTAssertEqual(try savedPage(), 2)
        mark = terminal.mark
        terminal.type("\u{1B}[6~")
        XCTAssertTrue(terminal.wait(for: "page 3 of \(total)", since: mark), terminal.output(since: mark))

        // Search: the first hit's page, then the next and the previous hit.
        mark = terminal.mark
        terminal.type("/closed the log for entry\r")
        XCTAssertTrue(terminal.wait(for: "hit 1 of", since: mark), terminal.output(since: mark))
        // The words found are marked on the page (reverse video), so the eye finds them.
        XCTAssertTrue(
            terminal.output(since: mark).contains("\u{1B}[7mclosed the log for entry\u{1B}[27m 1-1."),
            terminal.output(since: mark))
        mark = terminal.mark
        terminal.type("n")
        XCTAssertTrue(terminal.wait(for: "hit 2 of", since: mark), terminal.output(since: mark))
        mark = terminal.mark
        terminal.type("/part 2 passage 8 the keeper noted\r")
        XCTAssertTrue(terminal.wait(for: "Chapter 2 · page", since: mark), terminal.output(since: mark))
        XCTAssertTrue(terminal.wait(for: "hit 1 of 1", since: mark), terminal.output(since: mark))
        let searched = try savedPage()

        // The table of contents: down twice to chapter 3, Enter.
        mark = terminal.mark
        terminal.type("t")
        XCTAssertTrue(terminal.wait(for: "Contents", since: mark), terminal.output(since: mark))
        terminal.type("\u{1B}[B\u{1B}[B\r")
        XCTAssertTrue(terminal.wait(for: "Chapter 3 · page", since: mark), terminal.output(since: mark))
        let third = 2 + FixtureBooks.pages(chapters[0]) + FixtureBooks.pages(chapters[1])
        XCTAssertEqual(try savedPage(), third)

        // A bookmark, then the bookmarks list takes the reader back to it.
        mark = terminal.mark
        terminal.type("b")
        XCTAssertTrue(
            terminal.wait(for: "Bookmark 1 added on page \(third)", since: mark), terminal.output(since: mark))
        terminal.type(" ")
        mark = terminal.mark
        terminal.type("B")
        XCTAssertTrue(terminal.wait(for: "Bookmarks", since: mark), terminal.output(since: mark))
        terminal.type("\r")
        XCTAssertTrue(terminal.wait(for: "page \(third) of \(total)", since: mark), terminal.output(since: mark))

        // A narrower terminal: the page is wrapped again to fit, the status line still shown.
        mark = terminal.mark
        terminal.resize(columns: 40, rows: 30)
        XCTAssertTrue(terminal.wait(for: "page \(third) of", since: mark), terminal.output(since: mark))
        Thread.sleep(forTimeInterval: 0.2)
        let rows = Self.drawnRows(terminal.output(since: mark))
        XCTAssertTrue(rows.contains { $0.contains("Chapter 3") }, "\(rows)")
        XCTAssertEqual(rows.filter { $0.count > 40 }, [], "every row fits 40 columns")
        XCTAssertTrue(rows.contains { $0.count > 30 }, "the text fills the new width: \(rows)")

        // Help, then q: the terminal is given back and says where the place was saved.
        mark = terminal.mark
        terminal.type("?")
        XCTAssertTrue(terminal.wait(for: "Keys", since: mark), terminal.output(since: mark))
        terminal.type(" q")
        XCTAssertEqual(terminal.finish(), 0, terminal.output)
        XCTAssertTrue(terminal.output.contains("Saved at Chapter 3 · page \(third) of \(total)"), terminal.output)
        XCTAssertEqual(try savedPage(), third)
        XCTAssertNotEqual(searched, third)
        XCTAssertEqual(
            try page(["read", "Tide", "--search", "part 2 passage 8 the keeper noted"]).number, searched,
            "the terminal's search lands where `read --search` does")
    }

    /// The table of contents says in words which entry the page is in and which one is chosen, not by reverse video
    /// alone, which a screen reader does not read out.
    func testTheContentsSayWhereYouAreAndWhatIsChosenInWords() throws {
        let chapters = FixtureBooks.chapters(3)
        try ok(["add", try fixture(chapters: chapters)])
        let terminal = try TerminalSession(["read", "Tide"], environment: shelf.environment, columns: 80, rows: 40)
        XCTAssertTrue(terminal.wait(for: "Chapter 1 · page 2 of"), terminal.output)
        var mark = terminal.mark
        terminal.type("t")
        XCTAssertTrue(terminal.wait(for: ", you are here", since: mark), terminal.output(since: mark))
        Thread.sleep(forTimeInterval: 0.2)
        var rows = Self.drawnRows(terminal.output(since: mark))
        XCTAssertTrue(
            rows.contains { $0.hasPrefix("▸ ") && $0.contains("Chapter 1") && $0.hasSuffix(", you are here") },
            "\(rows)")
        mark = terminal.mark
        terminal.type("\u{1B}[B")
        XCTAssertTrue(terminal.wait(for: "▸ ", since: mark), terminal.output(since: mark))
        Thread.sleep(forTimeInterval: 0.2)
        rows = Self.drawnRows(terminal.output(since: mark))
        XCTAssertTrue(rows.contains { $0.hasPrefix("▸ ") && $0.contains("Chapter 2") }, "\(rows)")
        XCTAssertTrue(
            rows.contains { $0.hasPrefix("  ") && $0.contains("Chapter 1") && $0.hasSuffix(", you are here") },
            "\(rows)")
        terminal.type("\u{1B}q")
        XCTAssertEqual(terminal.finish(), 0, terminal.output)
    }

    /// A place moved by another reader while this one was open and untouched is the one kept, and quitting says so
    /// instead of "Saved at" the page this one showed.
    func testQuittingAfterAnotherReaderMovedThePlaceSaysWhichPlaceIsKept() throws {
        try ok(["add", try fixture(chapters: FixtureBooks.chapters(3))])
        let terminal = try TerminalSession(["read", "Tide"], environment: shelf.environment, columns: 80, rows: 40)
        XCTAssertTrue(terminal.wait(for: "Chapter 1 · page 2 of"), terminal.output)
        try ok(["read", "Tide", "--next"])
        terminal.type("q")
        XCTAssertEqual(terminal.finish(), 0, terminal.output)
        XCTAssertTrue(
            terminal.output.contains("Your place in “The Tide Tables” is Chapter 1 · page 3 of"), terminal.output)
        XCTAssertTrue(terminal.output.contains("(this one stopped at Chapter 1 · page 2 of"), terminal.output)
        XCTAssertFalse(terminal.output.contains("Saved at"), terminal.output)
        XCTAssertEqual(try savedPage(), 3)
    }

    /// With a move, or without a terminal, `read` prints one page as before.
    func testWithAMoveItPrintsOnePage() throws {
        try ok(["add", try fixture()])
        let terminal = try TerminalSession(["read", "Tide", "--next"], environment: shelf.environment)
        XCTAssertEqual(terminal.finish(), 0, terminal.output)
        XCTAssertTrue(terminal.output.contains("Chapter 1 · page 3 of"), terminal.output)
        XCTAssertFalse(terminal.output.contains("\u{1B}[?1049h"), "no full-screen reader")
    }
}
