import Foundation
import TestSupport
import XCTest

/// `shelf lists connect` as the header promises it: without options it lists the settings through describe and
/// connects nothing; it checks a file setting, keeps stored settings it was not given, and its hints name the
/// command that helps.
final class ListsConnectTests: ShelfTestCase {
    func export() throws -> String {
        let path = shelf.home.appendingPathComponent("goodreads_library_export.csv")
        try
            ("Book Id,Title,Author,ISBN13,My Rating,Date Read,Date Added,Bookshelves,Exclusive Shelf\n"
            + "386372,Mort,Terry Pratchett,\"=\"\"9780061020681\"\"\",5,2020/11/01,2020/11/27,,read\n").write(
                to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    func storedServices() throws -> [[String: Any]] {
        try XCTUnwrap(try json(run(["lists", "services", "--json"]))["services"] as? [[String: Any]])
    }

    func testWithoutOptionsItListsTheSettingsAndConnectsNothing() throws {
        let listed = try json(run(["lists", "connect", "goodreads", "--json"]))
        XCTAssertEqual(listed["connected"] as? Bool, false)
        let settings = try XCTUnwrap((listed["capabilities"] as? [String: Any])?["settings"] as? [[String: Any]])
        XCTAssertEqual(settings.first { $0["key"] as? String == "file" }?["type"] as? String, "file")
        XCTAssertEqual(
            (listed["capabilities"] as? [String: Any])?["uploadURL"] as? String,
            "https://www.goodreads.com/review/import")
        let human = try run(["lists", "connect", "goodreads"])
        XCTAssertTrue(
            human.stdout.contains("Goodreads (goodreads, plugin org.shelf.goodreads): not connected"), human.stdout)
        XCTAssertTrue(human.stdout.contains("rssKey"), human.stdout)
        XCTAssertTrue(human.stdout.contains("secret: --secret rssKey"), human.stdout)
        XCTAssertTrue(human.stdout.contains("Connect: `shelf lists connect goodreads --set KEY=VALUE"), human.stdout)
        XCTAssertEqual(try storedServices().count, 0, "listing the settings stored no connection")
    }

    func testAFileSettingMustNameAFile() throws {
        let missing = shelf.home.appendingPathComponent("no-such-export.csv").path
        let result = try run(["lists", "connect", "goodreads", "--set", "file=\(missing)"], expect: 66)
        XCTAssertTrue(result.stderr.contains(missing), result.stderr)
        XCTAssertTrue(result.stderr.contains("--set file=PATH"), result.stderr)
        XCTAssertEqual(try storedServices().count, 0)
    }

    func testConnectingAgainKeepsTheSettingsItWasNotGiven() throws {
        let file = try export()
        let out = shelf.home.appendingPathComponent("import.csv").path
        try run(["lists", "connect", "goodreads", "--set", "file=\(file)", "--set", "exportFile=\(out)"])
        try run(["lists", "connect", "goodreads", "--set", "userId=2003928"])
        let stored = try XCTUnwrap(try storedServices().first?["settings"] as? [String: String])
        XCTAssertEqual(stored, ["file": file, "exportFile": out, "userId": "2003928"])
        let listed = try run(["lists", "connect", "goodreads"])
        XCTAssertTrue(listed.stdout.contains("org.shelf.goodreads): connected"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("now 2003928"), listed.stdout)
    }

    func testARefusedSettingsHintNamesTheCommandThatListsThem() throws {
        let result = try run(["lists", "connect", "goodreads", "--set", "userId=not a user!"], expect: 64)
        XCTAssertTrue(result.stderr.contains("`shelf lists connect goodreads` lists the settings"), result.stderr)
        XCTAssertFalse(result.stderr.contains("--help"), result.stderr)
    }

    func testAnExportedPushSaysWhereToUploadFromTheConnector() throws {
        try run(["lists", "connect", "goodreads", "--set", "file=\(try export())"])
        let book = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path
        try run(["finished", book, "--isbn", "9780306406157"])
        let pushed = try json(run(["lists", "push", "--json"]))
        let report = try XCTUnwrap((pushed["pushed"] as? [[String: Any]])?.first)
        XCTAssertEqual(report["outcome"] as? String, "exported")
        XCTAssertEqual(report["uploadURL"] as? String, "https://www.goodreads.com/review/import")
    }
}
