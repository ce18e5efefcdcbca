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

        // Search from this page (3): the first hit after it, not the book's first; the hit the reader is at is
        // underlined (and bold), the others on the page in reverse video only, so the eye tells them apart.
        mark = terminal.mark
        terminal.type("/closed the log for entry\r")
        XCTAssertTrue(terminal.wait(for: "\u{1B}[1;4;7m", since: mark), terminal.output(since: mark))
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertFalse(terminal.output(since: mark).contains("hit 1 of"), terminal.output(since: mark))
        XCTAssertGreaterThan(try savedPage(), 3, "a page after the one the search started from")
        let found = terminal.output(since: mark)
        let current = try XCTUnwrap(Self.currentHit(found), found)
        XCTAssertTrue(found.contains("\u{1B}[7mclosed the log for entry\u{1B}[27m 1-"), "the others: \(found)")
        mark = terminal.mark
        terminal.type("n")
        XCTAssertTrue(terminal.wait(for: "\u{1B}[1;4;7m", since: mark), terminal.output(since: mark))
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertNotEqual(Self.currentHit(terminal.output(since: mark)), current, "n: the next hit is the marked one")
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

    /// The entry ("1-7") of the hit drawn as the one the reader is at, the last drawn in `output`.
    static func currentHit(_ output: String) -> String? {
        let marker = "\u{1B}[1;4;7mclosed the log for entry\u{1B}[22;24;27m "
        guard let at = output.range(of: marker, options: .backwards) else { return nil }
        return String(output[at.upperBound...].prefix { $0.isNumber || $0 == "-" })
    }

    /// One bookmark a page, and a bookmark removed from the reader's list. Failed before: a second `b` added a second
    /// bookmark on the same page, and the list could only go to one.
    func testOneBookmarkAPageRemovableFromTheReader() throws {
        try ok(["add", try fixture(chapters: FixtureBooks.chapters(2))])
        let terminal = try TerminalSession(["read", "Tide"], environment: shelf.environment, columns: 80, rows: 40)
        XCTAssertTrue(terminal.wait(for: "Chapter 1 · page 2 of"), terminal.output)
        var mark = terminal.mark
        terminal.type("b")
        XCTAssertTrue(terminal.wait(for: "Bookmark 1 added on page 2.", since: mark), terminal.output(since: mark))
        mark = terminal.mark
        terminal.type("b")
        XCTAssertTrue(
            terminal.wait(for: "Page 2 already has bookmark 1.", since: mark), terminal.output(since: mark))
        let listed = try XCTUnwrap(try ok(["bookmarks", "Tide", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(listed.count, 1, "\(listed)")
        mark = terminal.mark
        terminal.type("B")
        XCTAssertTrue(terminal.wait(for: "d remove", since: mark), terminal.output(since: mark))
        mark = terminal.mark
        terminal.type("d")
        XCTAssertTrue(terminal.wait(for: "Bookmark 1 removed.", since: mark), terminal.output(since: mark))
        terminal.type("q")
        XCTAssertEqual(terminal.finish(), 0, terminal.output)
        XCTAssertEqual((try ok(["bookmarks", "Tide", "--json"]).json() as? [[String: Any]])?.count, 0)
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
