import Foundation
import TestSupport
import XCTest

/// Opening and closing `shelf listen` without playing leaves the saved place where it was. Failed before: each
/// open replayed two seconds before the place and each close saved that, so the place walked back (0:13, 0:11,
/// 0:09 ...) without anything played.
final class PlaceDriftTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    func testOpeningAndClosingNeverMovesThePlace() throws {
        let book = process.home.appendingPathComponent("tone.wav")
        try FileManager.default.copyItem(at: try ListenerTimeTests.tone(), to: book)
        let first = try process.run(["listen", book.path, "--from", "0:13", "--null"], stdin: Data("q".utf8))
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("Saved at 0:13."), first.stdout)
        for _ in 0..<3 {
            let r = try process.run(["listen", book.path, "--null"], stdin: Data("q".utf8))
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("resuming at 0:13"), r.stdout)
            XCTAssertTrue(r.stdout.contains("Saved at 0:13."), r.stdout)
        }
    }

    /// The rule is said where the patron looks for it.
    func testTheHelpSaysWhenSecondsAreReplayed() throws {
        for command in ["play", "listen"] {
            let r = try process.run(["help", command])
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(text.contains("more than 5 seconds"), "\(command): \(r.stdout)")
            XCTAssertFalse(text.contains("replaying the 2 seconds before it and fading in."), r.stdout)
        }
    }
}
