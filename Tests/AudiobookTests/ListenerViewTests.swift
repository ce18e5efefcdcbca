import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// What a listener sees (issue 20, item 5): chapter lengths in `toc`, the book's length and narrator in `info`, a
/// live position on a terminal, one time for a stop and the resume after it, a resume that replays a little and
/// fades in, and no sound library's noise before shelf's own message.
final class ListenerViewTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    /// The fixture's tracks' lengths in seconds.
    func trackSeconds() throws -> [Double] {
        try (0..<3).map { try AudioFixtures.duration(of: AudioFixtures.speechWAV($0)) }
    }

    func testTocGivesEachChapterItsLength() throws {
        let url = try AudioFixtures.mp3Book()
        let t = try trackSeconds()
        let text = try process.run(["toc", url.path])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, text.stdout)
        XCTAssertEqual(lines[0], "One, at 0:00, \(PlaybackTime.clock(t[0])) long")
        XCTAssertEqual(
            lines[2], "  Two, later, at \(PlaybackTime.clock(t[0] + 2.5)), \(PlaybackTime.clock(t[1] - 2.5)) long")
        let json = try XCTUnwrap(try process.run(["toc", url.path, "--json"]).json() as? [[String: Any]])
        let lengths = json.map { $0["duration"] as? Double ?? -1 }
        for (got, want) in zip(lengths, t) {
            XCTAssertEqual(got, want, accuracy: 0.06, "a part holds its chapters: \(lengths)")
        }
        let child = try XCTUnwrap((json[1]["children"] as? [[String: Any]])?.first?["duration"] as? Double)
        XCTAssertEqual(child, t[1] - 2.5, accuracy: 0.06)
    }

    func testInfoGivesTheLengthAndTheNarrator() throws {
        let manifest = try AudioFixtures.mp3Book()
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        var metadata = try XCTUnwrap(object["metadata"] as? [String: Any])
        metadata["narrator"] = ["name": "Ada Reader"]
        object["metadata"] = metadata
        let narrated = manifest.deletingLastPathComponent().appendingPathComponent("narrated.json")
        try JSONSerialization.data(withJSONObject: object).write(to: narrated)
        let total = try trackSeconds().reduce(0, +)
        let info = try process.run(["info", narrated.path])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("Length:   \(PlaybackTime.clock(total))\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("Read by:  Ada Reader\n"), info.stdout)
        let json = try XCTUnwrap(try process.run(["info", narrated.path, "--json"]).json() as? [String: Any])
        XCTAssertEqual(json["duration"] as? Double ?? 0, total, accuracy: 0.15)
        XCTAssertEqual(json["narrators"] as? [String], ["Ada Reader"])
    }

    /// A terminal shows where playback is, redrawn in place, with the time left at the speed chosen; a pipe does not.
    func testPlayShowsALivePositionOnATerminal() throws {
        let url = try AudioFixtures.mp3Book()
        let total = try trackSeconds().reduce(0, +)
        let terminal = try TerminalProcess.run(
            ["play", url.path, "--from", "0", "--null"], environment: process.environment)
        XCTAssertEqual(terminal.status, 0, terminal.stderr)
        let line = #"\r0:00 of 0:\d\d, chapter 1 of 4, One; 0:\d\d left"#
        let first = try XCTUnwrap(
            terminal.stderr.range(of: line, options: .regularExpression), terminal.stderr.debugDescription)
        let numbers = terminal.stderr[first].split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        XCTAssertEqual(numbers[3], total, accuracy: 1, "the book's length")
        XCTAssertEqual(numbers[7], total, accuracy: 1, "all of it left")
        XCTAssertTrue(
            terminal.stderr.contains(", chapter 2 of 4, Two; "),
            "redrawn at each chapter: \(terminal.stderr.debugDescription)")
        XCTAssertTrue(terminal.stderr.contains("\r\u{1B}[K"), "cleared before the closing line")
        // At 2x what is left takes half as long (a short sleep timer: stretching runs slowly in a debug build).
        let fast = try TerminalProcess.run(
            ["play", url.path, "--from", "0", "--speed", "2", "--sleep", "0.01", "--null"],
            environment: process.environment)
        let shown = try XCTUnwrap(
            fast.stderr.range(of: line + " at 2x", options: .regularExpression), fast.stderr.debugDescription)
        let left = fast.stderr[shown].split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }[7]
        XCTAssertEqual(left, total / 2, accuracy: 1)
        let piped = try process.run(["play", url.path, "--from", "0", "--null"])
        XCTAssertFalse(piped.stderr.contains(" left"), piped.stderr)
    }

    /// The place a stop names is the place the resume names (the saved frame comes back exactly); a resume more
    /// than 5 seconds after the stop replays the two seconds before it, rising from silence (one sooner goes on
    /// from the stop: PauseResumeTests).
    func testResumeSaysTheStopsTimeReplaysTwoSecondsAndFadesIn() throws {
        let tone = try ListenerTimeTests.tone()
        // One frame before 0:10: a position saved to the millisecond came back as 0:10 after a stop at 0:09.
        let first = try process.run([
            "play", tone.path, "--from", "\(Double(10 * 44100 - 1) / 44100 - 1.2)", "--sleep", "0.02", "--null"
        ])
        XCTAssertEqual(first.status, 0, first.stderr)
        let stopped = try XCTUnwrap(
            first.stdout.range(of: #"at \d+:\d\d of"#, options: .regularExpression).map {
                String(first.stdout[$0].dropFirst(3).dropLast(3))
            })
        let out = process.home.appendingPathComponent("resumed.wav")
        Thread.sleep(forTimeInterval: 5.5)
        // Six seconds: the sleep timer's fade out covers only the last five.
        let again = try process.run(["play", tone.path, "--sleep", "0.1", "--out", out.path, "--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let report = try XCTUnwrap(try again.json() as? [String: Any])
        XCTAssertEqual(report["started"] as? String, "resuming at \(stopped)")
        let position = try XCTUnwrap((report["state"] as? [String: Any])?["position"] as? Double)
        XCTAssertEqual(position, 10 - 2 + 6, accuracy: 0.01, "two seconds replayed")
        let wav = try AudioFixtures.readWAV(out).samples
        func rms(_ x: ArraySlice<Float>) -> Double {
            (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot()
        }
        let steady = rms(wav[(44100 * 3 / 5)..<44100])
        let source = try AudioFixtures.readWAV(tone).samples
        let level = rms(source[(44100 * 86 / 10)..<(44100 * 9)])
        XCTAssertEqual(steady, level, accuracy: level * 0.02, "full level once faded in")
        XCTAssertLessThan(rms(wav[0..<441]), steady * 0.05, "the first 10 ms are almost silent")
        XCTAssertLessThan(rms(wav[(44100 / 5)..<(44100 / 5 + 441)]), steady * 0.9, "still rising at 0.2 s")
    }

    /// Without a sound device the first thing on stderr is shelf's own message, not ALSA's configuration errors,
    /// and nothing before it says the book plays: `play` and `listen` open the device before they say a word.
    func testNoSoundDeviceSaysOnlyShelfsMessage() throws {
        let url = try AudioFixtures.mp3Book()
        var env = process.environment
        env["PULSE_SERVER"] = "unix:/nonexistent"
        var quiet = process!
        quiet.environment = env
        let r = try quiet.run(["play", url.path, "--sleep", "0.01"])
        if r.status == 0 { throw XCTSkip("this machine has a working sound device") }
        XCTAssertEqual(r.status, 69, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("shelf: sound device: there is no sound device"), r.stderr)
        XCTAssertFalse(r.stderr.contains("ALSA lib"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--out"), "what to do instead: \(r.stderr)")
        XCTAssertEqual(r.stdout, "", "nothing said to play")
        let listen = try quiet.run(["listen", url.path], stdin: Data("q".utf8))
        XCTAssertEqual(listen.status, 69, listen.stderr)
        XCTAssertTrue(listen.stderr.hasPrefix("shelf: sound device: there is no sound device"), listen.stderr)
        XCTAssertEqual(listen.stdout, "", "no player offered")
    }
}
