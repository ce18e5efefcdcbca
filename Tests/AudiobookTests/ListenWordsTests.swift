import Foundation
import TestSupport
import XCTest

/// What `shelf listen` says, word for word, where a patron found it wrong: a count with its noun in the singular
/// when there is one, and an error that stops playback said once, on standard error, with its exit status.
final class ListenWordsTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    func testABookOfOneChapterSaysOneChapter() throws {
        let folder = process.home.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let book = folder.appendingPathComponent("one.wav")
        try FileManager.default.copyItem(at: try AudioFixtures.speechWAV(0), to: book)
        let r = try process.run(["listen", book.path, "--null"], stdin: Data("q".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let first = try XCTUnwrap(r.stdout.split(separator: "\n").first.map(String.init), r.stdout)
        XCTAssertTrue(first.hasPrefix("\"one\", 1 chapter, "), first)
        XCTAssertFalse(r.stdout.contains("1 chapters"), r.stdout)
    }

    /// The WAV file cannot grow past a size limit (SIGXFSZ ignored, so the write fails with EFBIG as on a full
    /// disk): playback stops, the error is said once on standard error and shelf ends with EX_IOERR (74).
    func testAnErrorThatStopsPlaybackIsSaidOnce() throws {
        try AudioFixtures.require("bash")
        let book = try AudioFixtures.mp3Book()
        let out = process.home.appendingPathComponent("out.wav")
        let errors = process.home.appendingPathComponent("stderr.txt")
        // 1 MiB is less than the book's 2 MiB of sound and more than what shelf's database writes. The keys: space
        // once the player is up, q once the error is out (or after 10 s, so that a player that never fails ends).
        let script = """
            trap "" XFSZ; ulimit -f 1024
            { sleep 1; printf " "; for i in $(seq 100); do [ -s "$ERRORS" ] && break; sleep 0.1; done; printf q; } \
              | "$0" "$@" 2>"$ERRORS"
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try XCTUnwrap(AudioFixtures.tool("bash")))
        p.arguments = ["-c", script, ShelfProcess.executable.path, "listen", book.path, "--out", out.path]
        var environment = process.environment
        environment["ERRORS"] = errors.path
        p.environment = environment
        let stdout = Pipe()
        p.standardOutput = stdout
        try p.run()
        let said = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertEqual(p.terminationStatus, 74, said + stderr)
        let error = "cannot write the file (File too large)"
        XCTAssertEqual(stderr.components(separatedBy: error).count - 1, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("shelf: \(out.path): \(error)"), stderr)
        XCTAssertFalse(said.contains(error), "said once, on standard error, not also on standard output: \(said)")
        XCTAssertTrue(said.contains("\nSaved at "), "the place is kept: \(said)")
    }
}
