import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// One resolver for BOOK in every command (issue 19, item 6; issue 20, item 4): a part of a title that works for
/// `read` works for `bookmark`, `share`, `play`; `finished` and `remove` change things, so a part of a title is
/// refused unless the patron confirms it on a terminal.
final class BookArgumentTests: BookshelfTestCase {
    func testEveryCommandFindsTheBookAndChangesNeedTheWholeTitle() throws {
        try ok(["add", try fixture(), sample])
        for command in [
            ["read", "Tide"], ["bookmark", "add", "Tide"], ["bookmarks", "Tide"], ["share", "Tide"],
            ["settings", "Tide"]
        ] {
            try ok(command)
        }
        // `finished Lighthouse` said "no book in the library" (66) where `read Lighthouse` worked.
        let part = try shelf.run(["finished", "Lighthouse"])
        XCTAssertEqual(part.status, 64, part.stderr)
        XCTAssertTrue(
            part.stderr.contains("only part of a title")
                && part.stderr.contains("urn:uuid:6f1d3c1e-9a51-4c39-9d43-2f8a0c7b5e11  The Lighthouse Keeper"),
            part.stderr)
        XCTAssertTrue(
            try ok(["finished", "the lighthouse keeper"]).stdout.contains("Marked “The Lighthouse Keeper” read"))

        // `remove "M"` removed a book unasked: a part of a title removes nothing without a terminal to confirm on.
        let removal = try shelf.run(["remove", "Tide"])
        XCTAssertEqual(removal.status, 64, removal.stderr)
        XCTAssertTrue(removal.stderr.contains("The Tide Tables"), removal.stderr)
        XCTAssertEqual(try XCTUnwrap(try ok(["books", "--json"]).json() as? [Any]).count, 2, "nothing was removed")
        let ambiguous = try shelf.run(["remove", "e"])
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertTrue(ambiguous.stderr.contains("matches 2 books"), ambiguous.stderr)
        try ok(["remove", "urn:uuid:tide-tables-1"])
        XCTAssertEqual(try XCTUnwrap(try ok(["books", "--json"]).json() as? [Any]).count, 1)
    }

    func testOnATerminalAPartOfATitleIsAskedAbout() throws {
        try ok(["add", try fixture()])
        // No: nothing is removed.
        let declined = try TerminalSession(["remove", "Tide"], environment: shelf.environment)
        XCTAssertTrue(declined.wait(for: "[y/N]"), declined.output)
        XCTAssertTrue(
            declined.output.contains("Remove “The Tide Tables” (urn:uuid:tide-tables-1) from the shelf"),
            declined.output)
        declined.type("n\r")
        XCTAssertEqual(declined.finish(), 64, declined.output)
        XCTAssertEqual(try XCTUnwrap(try ok(["books", "--json"]).json() as? [Any]).count, 1)
        // Yes: removed.
        let confirmed = try TerminalSession(["remove", "Tide"], environment: shelf.environment)
        XCTAssertTrue(confirmed.wait(for: "[y/N]"), confirmed.output)
        confirmed.type("y\r")
        XCTAssertEqual(confirmed.finish(), 0, confirmed.output)
        XCTAssertTrue(confirmed.output.contains("Removed “The Tide Tables” from the shelf."), confirmed.output)
        XCTAssertEqual(try XCTUnwrap(try ok(["books", "--json"]).json() as? [Any]).count, 0)
    }

    /// "the mimetype entry is not the first entry of the archive (the book was re-packed)" was said on every page turn.
    func testARepackedBookIsWarnedAboutOnce() throws {
        let path = folder.appendingPathComponent("repacked.epub").path
        try FixtureBooks.write(
            to: path, identifier: "urn:uuid:repacked-1", chapters: FixtureBooks.chapters(2), repacked: true)
        let added = try ok(["add", path]).stderr
        let turns = try (0..<3).map { _ in try ok(["read", "Tide", "--next"]).stderr }
        XCTAssertEqual(
            ([added] + turns).map { $0.components(separatedBy: "re-packed").count - 1 }, [1, 0, 0, 0],
            "\(added) \(turns)")
    }

    /// An audiobook is found by its title as an eBook is, keeps one entry however it is played, and the shelf shows
    /// how far it was listened to.
    func testAnAudiobookByTitleOneEntryAndItsProgress() throws {
        let audio = ShelfProcess.packageRoot.appendingPathComponent("samples/library/audio")
        let manifest = """
            {"@context": "https://readium.org/webpub-manifest/context.jsonld",
             "metadata": {"@type": "http://schema.org/Audiobook", "title": "A Patron's Evening", "author": "Ada Vale"},
             "readingOrder": [{"href": "one.wav", "type": "audio/wav", "title": "One"}, {"href": "two.wav", "type": "audio/wav", "title": "Two"}]}
            """
        let book = folder.appendingPathComponent("evening.audiobook").path
        try FixtureBooks.zip(
            path: book,
            entries: [
                ("manifest.json", Data(manifest.utf8)),
                ("one.wav", try Data(contentsOf: audio.appendingPathComponent("harbour-bells-1.wav"))),
                ("two.wav", try Data(contentsOf: audio.appendingPathComponent("harbour-bells-2.wav")))
            ])
        try ok(["add", book])
        XCTAssertTrue(try ok(["books"]).stdout.contains("Audiobook · not started"))
        let played = try ok(["play", "A Patron's Evening", "--from", "2", "--sleep", "0.01", "--null"])
        XCTAssertTrue(played.stdout.contains("Playing “A Patron's Evening” from 0:02"), played.stdout)
        // The file it was added from is the same book: no second entry.
        try ok(["play", book, "--from", "2.5", "--sleep", "0.01", "--null"])
        let books = try XCTUnwrap(try ok(["books", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(books.count, 1, "\(books)")
        let entry = try XCTUnwrap(books.first)
        let listened = try XCTUnwrap(entry["listened"] as? Double)
        let duration = try XCTUnwrap(entry["duration"] as? Double)
        XCTAssertEqual(duration, 4.2, accuracy: 0.05)
        XCTAssertGreaterThan(listened, 2.5)
        XCTAssertLessThan(listened, duration)
        XCTAssertEqual(entry["percentRead"] as? Int, Int(listened / duration * 100))
        let text = try ok(["books"]).stdout
        XCTAssertTrue(
            text.contains(
                "Audiobook · \(PlaybackTime.clock(listened)) of 0:04 listened (\(Int(listened / duration * 100))%) · opened today"
            ), text)
    }

    func testTitlesAreShownOnOneLine() {
        XCTAssertEqual(DisplayText.oneLine("The Tide\nTables\r\n"), "The Tide Tables")
        XCTAssertEqual(DisplayText.oneLine("  A\u{1B}[31mred\u{2028}title\t"), "A [31mred title")
        XCTAssertEqual(DisplayText.oneLine("\n\n"), "")
    }
}

/// `shelf add manifest.json` copied the manifest alone into the shelf's folder, away from its tracks: the book on the
/// shelf then played nothing ("the track file is missing").
final class AudiobookManifestOnTheShelfTests: BookshelfTestCase {
    func testAManifestStaysBesideItsTracks() throws {
        let audio = ShelfProcess.packageRoot.appendingPathComponent("samples/library/audio")
        for name in ["lamp-room-clock.json", "lamp-room-clock-1.wav"] {
            try FileManager.default.copyItem(
                at: audio.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let manifest = folder.appendingPathComponent("lamp-room-clock.json").path
        let added = try json(["add", manifest])
        let entry = try XCTUnwrap((added["added"] as? [[String: Any]])?.first?["book"] as? [String: Any])
        XCTAssertEqual(entry["storage"] as? String, "link")
        XCTAssertEqual(entry["path"] as? String, manifest)
        let played = try ok(["play", "Lamp Room", "--null"])
        XCTAssertTrue(
            played.stdout.contains("Stopped by the end of the book at 0:02 of 0:02"), played.stdout + played.stderr)
    }
}
