import Foundation
import TestSupport
import XCTest
@testable import Host
import ShelfLibrary
import ShelfCore
import ShelfPlugins

/// Errors a patron needed that the host used to drop with `try?` (issue 13): a saved place that cannot be read taken
/// for "none", a sync whose notifications or titles could not be stored said to be fine, a damaged row read as
/// absent, a plugin folder that cannot be made replaced unsaid by the temporary folder. Real sqlite files, damaged
/// with SQL or refusing writes through a trigger, and the loopback library.
final class DroppedErrorTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-dropped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }  // a temporary folder

    func makeShelf() -> Shelf {
        Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path],
            environment: [
                "SHELF_HOME": home.path, "HOME": home.path, "SHELF_HTTP_RETRIES": "1", "SHELF_HTTP_TIMEOUT": "10",
                "SHELF_PLUGINS_IN_PROCESS": "all"
            ])
    }

    /// What the host warns about (`HostServices.warn`) while `body` runs.
    func warnings(_ body: () throws -> Void) rethrows -> [String] {
        final class Said: @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
        }
        let said = Said()
        let previous = HostServices.logSink
        HostServices.logSink = { id, level, message in
            if id == "shelf" { said.lock.withLock { said.lines.append(message) } } else { previous(id, level, message) }
        }
        defer { HostServices.logSink = previous }
        try body()
        return said.lock.withLock { said.lines }
    }

    /// Makes every insert into `table` fail, as a full disk or a read-only file would, in the real database file.
    func refuseInserts(into table: String, in shelf: Shelf) throws {
        try shelf.openDatabase().connection.execute(
            "CREATE TRIGGER refuse_\(table) BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
    }

    // MARK: Saved places

    var audiobook: String {
        ShelfProcess.packageRoot.appendingPathComponent("samples/library/audio/harbour-bells.json").path
    }
    var eBook: String { ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path }

    /// A listening place that cannot be read is an error, not "from the start" (which saved over it as playback went
    /// on); a place the patron chooses plays, and its save replaces the damaged one.
    func testADamagedListeningPlaceIsAnErrorNotTheStart() throws {
        let shelf = makeShelf()
        let first = try shelf.listen(audiobook)
        _ = try first.start(from: .saved)
        try first.reportPosition(seconds: 1.5, playing: false)
        try shelf.openDatabase().connection.execute("UPDATE positions SET locator = '[1]'")

        let second = try shelf.listen(audiobook)
        XCTAssertThrowsError(try second.start(from: .saved)) { error in
            XCTAssertEqual((error as? ShelfError)?.kind, .badData, "\(error)")
            XCTAssertTrue("\(error)".contains("saved listening position"), "\(error)")
            XCTAssertTrue("\(error)".contains("--from"), "says what to do: \(error)")
        }
        XCTAssertEqual(try second.start(from: .time(1)), "from 0:01")
        try second.reportPosition(seconds: 1, playing: false)
        XCTAssertEqual(try shelf.listen(audiobook).start(from: .saved), "resuming at 0:01")
    }

    /// A reading place that cannot be read opens the book at its start with a note saying so (it used to open there
    /// silently); the page shown is saved, so the next read resumes without the note.
    func testADamagedReadingPlaceIsSaidAndTheBookOpensAtItsStart() throws {
        let shelf = makeShelf()
        let reader = try shelf.reader()
        let book = try shelf.bookshelf().add(path: eBook).book
        let start = try reader.read(book, move: .resume, width: 60).page.number
        XCTAssertEqual(try reader.read(book, move: .goTo(start + 2), width: 60).page.number, start + 2)
        try shelf.openDatabase().connection.execute(
            "UPDATE positions SET locator = '[1]' WHERE book_id = ?", [book.book.id])

        let opened = try reader.read(book, move: .resume, width: 60)
        XCTAssertEqual(opened.page.number, start)
        XCTAssertTrue(opened.notes.contains { $0.contains("saved place could not be read") }, "\(opened.notes)")
        let again = try reader.read(book, move: .resume, width: 60)
        XCTAssertEqual(again.page.number, start)
        XCTAssertEqual(again.notes, [])
    }

    // MARK: A sync that could not store everything

    /// Signs in to the loopback library, reads its catalog and reserves a title that then becomes ready.
    func libraryWithAReadyHold(_ fake: FakeLibrary, shelf: Shelf) throws -> LibrarySession {
        let (library, circulation) = try shelf.signedInCirculation(at: fake)
        _ = try circulation.reserve(try circulation.entry("urn:fake:ebook-out"))
        fake.makeHoldReady("urn:fake:ebook-out")
        return library
    }

    /// Notifications that could not be stored are warned about; the sync itself stands (it used to say nothing, and
    /// the "hold ready" never came).
    func testASyncWhoseNotificationsCannotBeStoredSaysSo() throws {
        let fake = try FakeLibrary()
        defer { fake.stop() }
        let shelf = makeShelf()
        let library = try libraryWithAReadyHold(fake, shelf: shelf)
        try refuseInserts(into: "notifications", in: shelf)

        var outcome: SyncPipeline.Outcome?
        let said = try warnings { outcome = try library.syncPipeline(sinks: []).run(account: "fake") }
        XCTAssertEqual(outcome?.holds.filter(\.isReady).count, 1, "the loans and holds are stored")
        XCTAssertEqual(outcome?.notifications.count, 0)
        XCTAssertTrue(
            said.contains { $0.contains("notifications of") && $0.contains("refused by the test") }, "\(said)")
    }

    /// A wish list that could not be checked during a sync is warned about; the sync stands (it used to say nothing,
    /// and "a wished title is free" never came).
    func testASyncWhoseWishListCannotBeCheckedSaysSo() throws {
        let fake = try FakeLibrary()
        defer { fake.stop() }
        let shelf = makeShelf()
        let library = try libraryWithAReadyHold(fake, shelf: shelf)
        _ = try library.wish("A title no library has", author: nil)
        try shelf.openDatabase().connection.execute(
            "CREATE TRIGGER refuse_wishes BEFORE UPDATE ON wishes BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )

        var outcome: SyncPipeline.Outcome?
        let said = try warnings { outcome = try library.syncPipeline(sinks: []).run(account: "fake") }
        XCTAssertEqual(outcome?.holds.filter(\.isReady).count, 1, "the loans and holds are stored")
        XCTAssertTrue(
            said.contains { $0.contains("wish list was not checked") && $0.contains("refused by the test") }, "\(said)")
    }

    /// A catalog page whose titles cannot be remembered is shown, with a warning: borrowing them by title would
    /// otherwise say shelf never saw them.
    func testTitlesThatCannotBeRememberedAreWarnedAbout() throws {
        let fake = try FakeLibrary()
        defer { fake.stop() }
        let shelf = makeShelf()
        let library = try shelf.library()
        _ = try library.accounts.add(fake.root, name: "fake")
        try refuseInserts(into: "catalog_entries", in: shelf)

        var shown = 0
        let said = try warnings {
            shown = try library.browse(nil, account: "fake", format: nil, refinement: CatalogRefinement()).entries.count
        }
        XCTAssertGreaterThan(shown, 0)
        XCTAssertTrue(
            said.contains { $0.contains("were not remembered") && $0.contains("refused by the test") }, "\(said)")
    }

    /// A return of a title borrowed elsewhere (no loan here, so no return link) asks the library for the link; a
    /// library that cannot be asked (its entry and loans feed answer a maintenance page) used to be reported as "the
    /// library offers no way to return it early". Now it is "could not be asked", to try again later.
    func testAReturnThatCannotAskTheLibrarySaysSo() throws {
        let fake = try FakeLibrary()
        defer { fake.stop() }
        let shelf = makeShelf()
        let circulation = try shelf.signedInCirculation(at: fake).circulation
        let seen = try circulation.entry("urn:fake:ebook-free")
        XCTAssertNil(seen.revokeLink, "as browsed, before the loan")
        _ = try circulation.borrow(seen)
        try shelf.openDatabase().connection.execute("DELETE FROM loans")  // as if borrowed on another device

        fake.inject(.garbage, on: .entry)
        fake.loansFault = .text("<html><body>Down for maintenance</body></html>", contentType: "text/html")
        XCTAssertThrowsError(try circulation.returnLoan(seen)) { error in
            XCTAssertEqual((error as? ShelfError)?.kind, .temporary, "\(error)")
            XCTAssertTrue("\(error)".contains("could not be asked how to return"), "\(error)")
        }
        XCTAssertTrue(fake.onLoan("urn:fake:ebook-free"), "nothing was returned")
    }

    // MARK: Damaged rows are damaged, not absent

    func database() throws -> LibraryDatabase { try makeShelf().openDatabase() }

    func assertDamaged(
        _ expression: @autoclosure () throws -> Any, _ words: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            XCTAssertEqual((error as? DatabaseError)?.kind, .damaged, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(words), "\(error)", file: file, line: line)
        }
    }

    /// A queued push that cannot be read used to be left out: never sent, never said.
    func testADamagedQueuedPushIsAnError() throws {
        let database = try database()
        try database.queuePush(service: "goodreads", entry: ReadingListEntry(title: "Mort", shelf: "read"), bookID: nil)
        try database.connection.execute("UPDATE reading_list_pushes SET entry = '[1]'")
        assertDamaged(try database.pushes(), "queued push")
    }

    /// A connected service's settings that cannot be read used to become none.
    func testDamagedServiceSettingsAreAnError() throws {
        let database = try database()
        try database.connection.execute(
            "INSERT INTO reading_list_services (service, plugin_id, settings, connected_at) VALUES ('goodreads', 'org.shelf.goodreads', '[1]', 0)"
        )
        assertDamaged(try database.services(), "settings of goodreads")
    }

    /// A wish whose authors cannot be read used to lose them (and match any book of its title).
    func testAWishWithDamagedAuthorsIsAnError() throws {
        let database = try database()
        _ = try database.addWish(source: "shelf", title: "Mort", authors: ["Terry Pratchett"], isbn: nil)
        try database.connection.execute("UPDATE wishes SET authors = '[1]'")
        assertDamaged(try database.wishes(), "wish whose authors")
    }

    /// A shelf book whose authors cannot be read used to list without them; `decodeBook` already said damaged.
    func testAShelfBookWithDamagedAuthorsIsAnError() throws {
        let shelf = makeShelf()
        let book = try shelf.bookshelf().add(path: eBook).book
        let database = try shelf.openDatabase()
        try database.connection.execute("UPDATE books SET authors = '[1]' WHERE id = ?", [book.book.id])
        assertDamaged(try database.shelfBooks(), "authors that are not a list of names")
    }

    /// A title remembered under an identifier whose entry cannot be read used to be "no title or ID".
    func testADamagedRememberedEntryIsAnErrorNotUnknown() throws {
        let database = try database()
        try database.connection.execute(
            "INSERT INTO catalog_entries (account_id, entry_id, title, entry, seen_at) VALUES ('', 'urn:x', 'X', '{\"x\": 1}', 0)"
        )
        assertDamaged(
            try database.findEntries(matching: "urn:x", accountID: nil), "urn:x in a form that cannot be read")
    }

    // MARK: Plugin folders

    /// A plugin whose data folder cannot be made keeps its files in the temporary folder, and that is said (it used
    /// to happen unsaid: a plugin's sign-in or memory of what it pushed lost at the next reboot).
    func testAPluginFolderThatCannotBeMadeIsWarnedAbout() throws {
        let shelf = makeShelf()
        let data = try XCTUnwrap(shelf.directories).data
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        // A file where the plugins' folder goes.
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: data.appendingPathComponent("plugins").path, contents: Data("x".utf8)))
        let said = try warnings { _ = try shelf.open(eBook) }
        XCTAssertTrue(said.contains { $0.contains("data folder of plugin") && $0.contains("do not last") }, "\(said)")
    }
}
