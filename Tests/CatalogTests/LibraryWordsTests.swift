import Foundation
import TestSupport
import XCTest

/// What the library commands say and how they take a patron's words (issue 18, items 12-16): a sync with no account,
/// titles wherever an ID is accepted, each lane once, one date style, global options on either side of the command.
final class LibraryWordsTests: LibraryTestCase {
    // MARK: Item 12

    func testSyncWithNoAccountSaysWhatToDo() throws {
        let result = try run(["sync"], expect: 69)
        XCTAssertFalse(result.stderr.contains(": :"), result.stderr)
        XCTAssertTrue(result.stderr.contains("no library account to sync"), result.stderr)
        XCTAssertTrue(result.stderr.contains("shelf account add URL"), result.stderr)
    }

    // MARK: Item 13

    func testATitleWorksWhereverAnIDDoes() throws {
        try addAndLogin()
        try run(["browse"])
        // Read-only commands: the whole title, or any unique part of it, acts at once.
        let book = try run(["book", "Sound of Rivers"])
        XCTAssertTrue(book.stdout.contains("ID:           urn:fake:audio-free"), book.stdout)
        XCTAssertTrue(try run(["book", "sound of RIVERS"]).stdout.contains("urn:fake:audio-free"))
        XCTAssertTrue(try run(["book", "rivers"]).stdout.contains("urn:fake:audio-free"))
        // A command that changes the library's state takes the whole title...
        let borrowed = try json(run(["borrow", "The Open Road", "--json"]))
        XCTAssertEqual(borrowed["result"] as? String, "loaned")
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"))
        // ...and refuses a part of one where no one can confirm it, saying which title it would have been.
        let part = try run(["return", "open road"], expect: 64)
        XCTAssertTrue(part.stderr.contains("“The Open Road” (urn:fake:ebook-free)"), part.stderr)
        XCTAssertTrue(part.stderr.contains("shelf return urn:fake:ebook-free"), part.stderr)
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"), "a part of a title returned the loan")
        try run(["borrow", "rivers"], expect: 64)
        XCTAssertFalse(library.onLoan("urn:fake:audio-free"), "a part of a title borrowed it")
        XCTAssertTrue(library.server.requests(to: "/works/audio-free/borrow").isEmpty)
        try run(["return", "The Open Road"])
        XCTAssertFalse(library.onLoan("urn:fake:ebook-free"))
    }

    func testAPartOfATitleIsConfirmedOnATerminal() throws {
        try addAndLogin()
        try run(["browse"])
        let declined = try TerminalProcess.run(["borrow", "rivers"], environment: shelf.environment, input: "n\n")
        XCTAssertEqual(declined.status, 64, declined.stderr)
        XCTAssertTrue(
            declined.stderr.contains("Borrow “Sound of Rivers” (Audiobook, urn:fake:audio-free)? [y/N]"),
            declined.stderr)
        XCTAssertFalse(library.onLoan("urn:fake:audio-free"))
        let confirmed = try TerminalProcess.run(["borrow", "rivers"], environment: shelf.environment, input: "y\n")
        XCTAssertEqual(confirmed.status, 0, confirmed.stderr)
        XCTAssertTrue(confirmed.stdout.contains("Borrowed “Sound of Rivers”"), confirmed.stdout)
        XCTAssertTrue(library.onLoan("urn:fake:audio-free"))
    }

    func testAPartThatFitsMoreThanFiveSaysTheFirstFiveOfHowMany() throws {
        library.addMany(7)
        try addAndLogin()
        try run(["browse"])
        let many = try run(["book", "Many"], expect: 64)
        XCTAssertTrue(
            many.stderr.contains("“Many” matches 7 titles; the first 5 of 7: urn:fake:many-0 (Many 0, eBook)"),
            many.stderr)
        XCTAssertEqual(many.stderr.components(separatedBy: "urn:fake:many-").count - 1, 5, many.stderr)
        let two = try run(["book", "open"], expect: 64)
        XCTAssertTrue(two.stderr.contains("“open” matches 2 titles: "), two.stderr)
    }

    // MARK: Item 14

    func testBrowseShowsEachLaneOnce() throws {
        try addAndLogin()
        // The library's feed interleaves its lanes: Read, Read, Listen, Read.
        let root = try run(["browse"]).stdout
        XCTAssertEqual(root.components(separatedBy: "\nRead:\n").count - 1, 1, root)
        XCTAssertEqual(root.components(separatedBy: "\nListen:\n").count - 1, 1, root)
        XCTAssertEqual(root.components(separatedBy: "More: shelf browse \"Read\"").count - 1, 1, root)
        let read = try XCTUnwrap(root.components(separatedBy: "\nRead:\n").last?.components(separatedBy: "More:").first)
        for title in ["The Open Road", "Waiting Game", "Open Classic"] { XCTAssertTrue(read.contains(title), root) }
        let lanes = try XCTUnwrap(try json(run(["browse", "--json"]))["lanes"] as? [[String: Any]])
        XCTAssertEqual(lanes.compactMap { $0["title"] as? String }, ["Read", "Listen"])
    }

    // MARK: Item 15

    func testOneDateStyleFollowingLCTIMEAndISOInJSON() throws {
        try addAndLogin()
        try run(["browse"])
        let due = ISO8601DateFormatter().date(from: "2026-12-22T12:00:00Z")!
        library.setLoanEnd("urn:fake:ebook-free", due)
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["sync"])
        shelf.environment["TZ"] = "UTC"
        for (locale, day) in [("de_DE.UTF-8", "22.12.2026"), ("en_GB.UTF-8", "22 Dec 2026"), ("C", "Dec 22, 2026")] {
            shelf.environment["LC_ALL"] = nil
            shelf.environment["LANG"] = "C.UTF-8"
            shelf.environment["LC_TIME"] = locale
            let loans = try run(["loans"]).stdout
            XCTAssertTrue(loans.contains("on loan until \(day)"), "\(locale): \(loans)")
            let status = try run(["status"]).stdout
            XCTAssertTrue(status.contains("the soonest due \(day)"), "\(locale): \(status)")
            XCTAssertFalse(status.contains("2026-12-22T"), status)
            // The last sync, in the same style with its time.
            XCTAssertNotNil(status.range(of: "last synced [^·\\n]*\(localYear())", options: .regularExpression), status)
        }
        let document = try XCTUnwrap(try run(["loans", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(document.first?["until"] as? String, "2026-12-22T12:00:00Z")
        let status = try json(run(["status", "--json"]))
        XCTAssertNotNil((status["accounts"] as? [[String: Any]])?.first?["synced"] as? String)
        XCTAssertTrue(((status["accounts"] as? [[String: Any]])?.first?["synced"] as? String)?.hasSuffix("Z") == true)
    }

    private func localYear() -> String { String(Calendar(identifier: .gregorian).component(.year, from: Date())) }

    // MARK: Item 16

    func testGlobalOptionsGoBeforeOrAfterTheCommand() throws {
        try addAndLogin()
        try run(["browse"])
        let before = try json(run(["--json", "borrow", "urn:fake:ebook-free"]))
        XCTAssertEqual(before["result"] as? String, "loaned")
        let after = try XCTUnwrap(try run(["loans", "--json"]).json() as? [[String: Any]])
        let first = try XCTUnwrap(try run(["--json", "loans"]).json() as? [[String: Any]])
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(after.count, 1)
        XCTAssertEqual(try XCTUnwrap(try run(["--json", "status"]).json() as? [String: Any])["loans"] as? Int, 1)
        try run(["--jsn", "loans"], expect: 64)
    }
}
