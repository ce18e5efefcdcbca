import Foundation
import TestSupport
import XCTest

/// What a patron meets typing commands by hand: words in the wrong number, a command meant for another, a catalog
/// that cannot do what was asked. Each message says what is wrong and the command that would work.
final class PatronCommandLineTests: ShelfTestCase {
    let sampleLibrary = ShelfProcess.packageRoot.appendingPathComponent("samples/library/catalog.xml")

    /// A title of several words typed without quotes: the words, and the command with them in quotes.
    func testATitleWithoutQuotesIsOfferedInQuotes() throws {
        let borrow = try run(["borrow", "Waiting", "Game"], expect: 64)
        XCTAssertTrue(
            borrow.stderr.contains("too many arguments: shelf borrow takes 1 (ID|TITLE), given 2: “Waiting” “Game”"),
            borrow.stderr)
        XCTAssertTrue(borrow.stderr.contains("shelf borrow \"Waiting Game\""), borrow.stderr)
        let search = try run(["search", "Lighthouse", "lamp", "room"], expect: 64)
        XCTAssertTrue(search.stderr.contains("shelf search Lighthouse \"lamp room\""), search.stderr)
        let lists = try run(["lists"], expect: 64)
        XCTAssertTrue(
            lists.stderr.contains("missing arguments: shelf lists takes 1 to 2, given none"),
            "a usage of several forms names none: \(lists.stderr)")
        let loans = try run(["loans", "now"], expect: 64)
        XCTAssertTrue(loans.stderr.contains("shelf loans takes none, given 1: “now”"), loans.stderr)
    }

    /// `shelf search WORD` is the in-book search missing its book; a patron means the catalog.
    func testOneWordToSearchPointsAtTheCatalogSearch() throws {
        let result = try run(["search", "lighthouse"], expect: 64)
        XCTAssertTrue(
            result.stderr.contains("missing arguments: shelf search takes 2 (FILE QUERY), given 1: “lighthouse”"),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains("To search your library's catalog: shelf catalog-search lighthouse"), result.stderr)
        XCTAssertFalse(result.stderr.contains("wrong number of arguments"), result.stderr)
    }

    /// A catalog without search: what to do instead, in the format tab asked for.
    func testACatalogWithoutSearchSaysToBrowseIt() throws {
        try run(["account", "add", sampleLibrary.absoluteString])
        let result = try run(["catalog-search", "winter", "--format", "audiobook"], expect: 69)
        XCTAssertTrue(result.stderr.contains("Shelf Sample Library offers no search"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("Browse its titles instead: `shelf browse --format audiobook`."), result.stderr)
    }

    /// Output into a full disk (`shelf generate bash > /dev/full`, `shelf manifest BOOK > book.json` as the disk fills)
    /// is a failure that says so (74), not exit 0 with nothing or half written; a reader that stops early
    /// (`shelf help read | head -1`) is none.
    func testOutputThatCannotBeWrittenIsAFailure() throws {
        for arguments in [["generate", "bash"], ["books"], ["help", "read"], ["--json", "books"]] {
            let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
            let result = try runShelf(arguments, output: full)
            XCTAssertEqual(result.status, 74, "shelf \(arguments) > /dev/full: \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains(
                    "shelf: standard output: No space left on device: what this command wrote there is incomplete"),
                result.stderr)
        }
        let closed = Pipe()
        try closed.fileHandleForReading.close()
        let result = try runShelf(["generate", "bash"], output: closed.fileHandleForWriting)
        XCTAssertEqual(result.status, 0, "a closed pipe is a reader that had enough: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
    }

    /// Runs shelf with its standard output going to `output`; stderr is captured.
    private func runShelf(_ arguments: [String], output: FileHandle) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = arguments
        process.environment = shelf.environment
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// An empty search asks the library nothing and says what to do instead.
    func testAnEmptyCatalogSearchSaysToBrowse() throws {
        try run(["account", "add", sampleLibrary.absoluteString])
        let result = try run(["catalog-search", "  "], expect: 64)
        XCTAssertTrue(
            result.stderr.contains(
                "catalog-search needs words to look for\n  To see every title, browse: `shelf browse`."), result.stderr)
    }

    /// A title named before any library was added: the way in is an account (or a catalog's address), since plain
    /// `shelf browse` has nothing to browse yet.
    func testATitleBeforeAnyLibrarySaysToAddOne() throws {
        for command in ["borrow", "book", "download"] {
            let result = try run([command, "Moby-Dick"], expect: 66)
            XCTAssertTrue(
                result.stderr.contains("Add your library with `shelf account add URL`"), "\(command): \(result.stderr)")
        }
    }

    /// Removing a wish says which one went, in the browser app's sentence (`WishListChange.removed`); a number that
    /// is none says where the numbers are.
    func testRemovingAWishSaysWhichWent() throws {
        try run(["wish", "Some Book", "--author", "Ann Other"])
        let removed = try run(["wishlist", "--remove", "1"])
        XCTAssertTrue(removed.stdout.hasPrefix("Removed “Some Book” from your wish list.\n"), removed.stdout)
        let missing = try run(["wishlist", "--remove", "7"], expect: 66)
        XCTAssertTrue(
            missing.stderr.contains("there is no wish 7\n  `shelf wishlist` lists the wishes with their numbers."),
            missing.stderr)
    }

    /// An option the command does not take, or one given without its value: the options it does take.
    func testAnUnknownOptionShowsTheUsage() throws {
        let unknown = try run(["download", "--out", "/tmp/x", "Some Title"], expect: 64)
        XCTAssertTrue(unknown.stderr.contains("unknown option --out\n  Usage: shelf download ID|TITLE"), unknown.stderr)
        let valueless = try run(["read", "Some Title", "--toc"], expect: 64)
        XCTAssertTrue(valueless.stderr.contains("--toc needs a value\n  Usage: shelf read BOOK"), valueless.stderr)
    }
}
