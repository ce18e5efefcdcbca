import Foundation
import TestSupport
import XCTest

/// With two libraries, every command a hint names acts at the library the hint is about, and the lists name the
/// library (issue 32, item 2).
final class SeveralLibrariesTests: LibraryTestCase {
    var other: FakeLibrary!

    override func tearDown() {
        other?.stop()
        super.tearDown()
    }

    /// "fake" is in use; "other" is added second and named with --account.
    func addBoth() throws {
        try addAndLogin()
        other = try FakeLibrary()
        try run(["account", "add", other.root, "--name", "other"])
        try run(["login", "other", "--username", other.username, "--password-stdin"], stdin: other.password + "\n")
        try run(["account", "use", "fake"])
        try run(["browse"])
        try run(["browse", "--account", "other"])
    }

    func testTheHintedCommandActsAtTheLibraryTheHintIsAbout() throws {
        try addBoth()
        // The same ID at both libraries: no copy at "fake", one at "other".
        library.takeAllCopies("urn:fake:ebook-free")
        let borrowed = try run(["borrow", "urn:fake:ebook-free", "--account", "other"])
        XCTAssertTrue(borrowed.stdout.contains("`shelf download urn:fake:ebook-free --account other`"), borrowed.stdout)
        // The hint, run as it is, downloads the loan at "other" (without --account it failed at "fake": no loan there).
        let downloaded = try run(["download", "urn:fake:ebook-free", "--account", "other"])
        XCTAssertTrue(downloaded.stdout.contains("Downloaded"), downloaded.stdout)

        let unavailable = try run(["borrow", "urn:fake:ebook-out", "--account", "other"], expect: 69)
        XCTAssertTrue(
            unavailable.stdout.contains("`shelf reserve urn:fake:ebook-out --account other`"), unavailable.stdout)

        let book = try run(["book", "urn:fake:ebook-free", "--account", "other"])
        XCTAssertTrue(book.stdout.contains("shelf return urn:fake:ebook-free --account other"), book.stdout)

        let loans = try run(["loans"])
        XCTAssertTrue(loans.stdout.contains("Library: Fake Public Library"), loans.stdout)
    }

    func testReadyHoldsSayWhereToBorrow() throws {
        try addBoth()
        other.takeAllCopies("urn:fake:audio-free")
        try run(["reserve", "urn:fake:audio-free", "--account", "other"])
        other.makeHoldReady("urn:fake:audio-free")
        try run(["sync", "--account", "other"])
        let holds = try run(["holds"])
        XCTAssertTrue(
            holds.stdout.contains("Borrow it now: shelf borrow urn:fake:audio-free --account other"), holds.stdout)
        XCTAssertTrue(holds.stdout.contains("Library: Fake Public Library"), holds.stdout)
        try run(["borrow", "urn:fake:audio-free", "--account", "other"])
        XCTAssertTrue(other.onLoan("urn:fake:audio-free"))
        XCTAssertFalse(library.onLoan("urn:fake:audio-free"))
    }

    /// One library: the hints and lists stay as they were (seed 001's words).
    func testOneLibraryNamesNoAccount() throws {
        try addAndLogin()
        try run(["browse"])
        let borrowed = try run(["borrow", "urn:fake:audio-free"])
        XCTAssertTrue(borrowed.stdout.contains("`shelf download urn:fake:audio-free`."), borrowed.stdout)
        XCTAssertFalse(try run(["loans"]).stdout.contains("Library:"))
    }
}
