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
        XCTAssertTrue(first.hasPrefix("“one”, 1 chapter, "), first)
        XCTAssertFalse(r.stdout.contains("1 chapters"), r.stdout)
    }

    /// A skip says what it did and where it landed, the speed at 1 is "normal speed", the digits of a chapter being
    /// typed are said back, and a key that does nothing says how to get help. Failed before: a skip said the whole
    /// status, "Speed 1.00 times.", the digits were silent and an unknown key said nothing.
    func testEachKeySaysWhatItDid() throws {
        let book = process.home.appendingPathComponent("tone.wav")
        try FileManager.default.copyItem(at: try ListenerTimeTests.tone(), to: book)
        let r = try process.run(["listen", book.path, "--from", "0:05", "--null"], stdin: Data("f,+-xg1\u{1B}tq".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let said = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(said.contains("Forward 30 seconds, now 0:20."), "clamped to the end: \(r.stdout)")
        XCTAssertTrue(said.contains("Back 5 seconds, now 0:15."), r.stdout)
        XCTAssertTrue(said.contains("Speed 1.05 times."), r.stdout)
        XCTAssertTrue(said.contains("Normal speed."), r.stdout)
        XCTAssertTrue(said.contains("The key x does nothing here. Press h for the keys."), r.stdout)
        XCTAssertTrue(said.contains("Chapter 1. Enter goes there, Escape chooses none."), r.stdout)
        XCTAssertTrue(said.contains { $0.hasPrefix("Paused;") && $0.hasSuffix("normal speed.") }, r.stdout)
        XCTAssertFalse(r.stdout.contains("speed 1 times"), r.stdout)
    }

    /// `g` and a chapter number that is not there says which chapters there are; Enter with none, or Escape, chooses
    /// none and says so; a key other than a digit leaves the choosing and does what it always does (`c` lists them).
    func testGoingToAChapterThatIsNotThereSaysWhichThereAre() throws {
        let url = try AudioFixtures.mp3Book()
        let r = try process.run(["listen", url.path, "--null"], stdin: Data("g99\ng\ng\u{1B}cq".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("There is no chapter 99: the chapters are 1 to "), r.stdout)
        XCTAssertTrue(r.stdout.contains(". Press c to list them, g to choose again."), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "No chapter chosen.").count - 1, 2, r.stdout)
        XCTAssertTrue(r.stdout.contains("1. One, at 0:00"), "c after Escape lists the chapters: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains("No chapter ."), r.stdout)
        XCTAssertTrue(r.stdout.contains("1. One, at 0:00 (you are here, paused)"), "paused is not playing: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains("(playing)"), r.stdout)
    }

    /// The WAV file cannot grow past a size limit (SIGXFSZ ignored, so the write fails with EFBIG as on a full
    /// disk): playback stops, the error is said once on standard error and shelf ends with EX_IOERR (74) by itself,
    /// with no key after the error (standard input stays open; a player that waits for a key is told q after 60 s,
    /// which only ends a wrong player instead of hanging the suite).
    func testAnErrorThatStopsPlaybackIsSaidOnce() throws {
        try AudioFixtures.require("bash")
        let book = try AudioFixtures.mp3Book()
        let out = process.home.appendingPathComponent("out.wav")
        let errors = process.home.appendingPathComponent("stderr.txt")
        // 1 MiB is less than the book's 2 MiB of sound and more than what shelf's database writes.
        let script = #"trap "" XFSZ; ulimit -f 1024; exec "$0" "$@" 2>"$ERRORS""#
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try XCTUnwrap(AudioFixtures.tool("bash")))
        p.arguments = ["-c", script, ShelfProcess.executable.path, "listen", book.path, "--out", out.path]
        var environment = process.environment
        environment["ERRORS"] = errors.path
        p.environment = environment
        let (keys, stdout) = (Pipe(), Pipe())
        p.standardInput = keys
        p.standardOutput = stdout
        try p.run()
        Thread.sleep(forTimeInterval: 1)
        keys.fileHandleForWriting.write(Data(" ".utf8))
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            p.waitUntilExit(); ended.signal()
        }
        let endedByItself = ended.wait(timeout: .now() + 60) == .success
        if !endedByItself { keys.fileHandleForWriting.write(Data("q".utf8)) }
        let said = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try keys.fileHandleForWriting.close()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertTrue(endedByItself, "after the error, shelf listen waited for a key: \(said)\(stderr)")
        XCTAssertEqual(p.terminationStatus, 74, said + stderr)
        let error = "cannot write the file (File too large)"
        XCTAssertEqual(stderr.components(separatedBy: error).count - 1, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("shelf: \(out.path): \(error)"), stderr)
        XCTAssertFalse(said.contains(error), "said once, on standard error, not also on standard output: \(said)")
        XCTAssertTrue(said.contains("\nSaved at "), "the place is kept: \(said)")
    }

    /// A space typed before the playing thread has started (in the pipe as shelf starts) plays: the player does not
    /// say "Playing" while the thread, starting paused, undoes the key. The WAV then holds the book's sound.
    func testASpaceTypedAtOncePlays() throws {
        let out = process.home.appendingPathComponent("at-once.wav")
        let p = Process()
        p.executableURL = ShelfProcess.executable
        p.arguments = ["listen", try AudioFixtures.speechWAV(0).path, "--out", out.path]
        p.environment = process.environment
        let (keys, stdout) = (Pipe(), Pipe())
        p.standardInput = keys
        p.standardOutput = stdout
        p.standardError = FileHandle.nullDevice
        keys.fileHandleForWriting.write(Data(" ".utf8))
        try p.run()
        // The sound goes to the file as fast as it decodes; wait (at most 30 s) until some is there, then quit.
        for _ in 0..<300 {
            // not there yet: 0
            let size = (try? FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
            if size > 44 + 4096 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        keys.fileHandleForWriting.write(Data("q".utf8))
        try keys.fileHandleForWriting.close()
        let said = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, said)
        let samples = try AudioFixtures.readWAV(out).samples
        XCTAssertTrue(samples.contains { abs($0) > 0.01 }, "the space typed at once played nothing: \(said)")
    }
}
