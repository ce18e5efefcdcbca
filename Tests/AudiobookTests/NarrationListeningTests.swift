import Foundation
import TestSupport
import TextFolding
import XCTest

/// A narrated book (EPUB 3 media overlays) listened to through the one listening session: `shelf play --json` and
/// `shelf listen --json` give the clips played, in the book's order, each lasting what its clipBegin and clipEnd
/// say (in every clock form), the chapter covered; the skippable structures are left out when asked; the WAV is the
/// narration; and the place is the reader's: `shelf read` opens on the phrase where listening stopped.
final class NarrationListeningTests: XCTestCase {
    var shelf: ShelfProcess!

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    func letters(_ text: String) -> String { FoldedText(text, keep: .lettersAndDigits).string }

    func play(_ target: String, _ extra: [String] = [], wav: URL? = nil) throws -> (
        report: [String: Any], clips: [[String: Any]]
    ) {
        let out = wav ?? shelf.home.appendingPathComponent("x.wav")
        let result = try shelf.run(["play", target, "--out", out.path, "--json"] + extra, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
        let clips = try XCTUnwrap(
            report["clips"] as? [[String: Any]],
            "play --json of a narrated book gives its clips: \(result.stdout.prefix(400))")
        return (report, clips)
    }

    /// Seconds of 16-bit PCM in a WAV written by `--out`, and its loudness.
    func measure(_ url: URL) throws -> (seconds: Double, rms: Double) {
        let data = try Data(contentsOf: url)
        let rate = Int(data[24]) | Int(data[25]) << 8 | Int(data[26]) << 16
        let channels = max(1, Int(data[22]))
        var sum = 0.0
        var count = 0
        data.dropFirst(44).withUnsafeBytes { raw in
            for v in raw.bindMemory(to: Int16.self) {
                let x = Double(Int16(littleEndian: v)) / 32768
                sum += x * x
                count += 1
            }
        }
        return (Double(count / channels) / Double(rate), (sum / Double(max(1, count))).squareRoot())
    }

    func fragment(_ clip: [String: Any]) -> String {
        (clip["text"] as? String).flatMap { $0.split(separator: "#").last.map(String.init) } ?? ""
    }

    func testPlayingANarratedBookPlaysEveryClipInOrderForItsSpan() throws {
        let (book, chapters) = try NarrationBook.make()
        let wav = shelf.home.appendingPathComponent("narrated.wav")
        let (report, clips) = try play(book.path, wav: wav)
        XCTAssertEqual(report["stoppedBecause"] as? String, "the end of the book")
        let phrases = chapters.flatMap { $0 }
        // Every clip of both chapters, in the book's order: nested seqs flattened in play order.
        XCTAssertEqual(clips.map(fragment), phrases.map(\.id))
        var expectedTime = 0.0
        for (clip, phrase) in zip(clips, phrases) {
            let time = try XCTUnwrap(clip["time"] as? Double), duration = try XCTUnwrap(clip["duration"] as? Double)
            // Each clip lasts what its clipBegin and clipEnd say, whatever clock form they are written in (the last
            // has no clipEnd: to the end of its audio), and follows the one before.
            XCTAssertEqual(duration, phrase.duration, accuracy: 0.03, "\(phrase.id)")
            XCTAssertEqual(time, expectedTime, accuracy: 0.05, "\(phrase.id) follows the clip before it")
            expectedTime = time + duration
            XCTAssertEqual(letters(clip["phrase"] as? String ?? ""), letters(phrase.text), "the phrase shown")
        }
        // The structure: types of the par and of every seq holding it; a table's rows in one escapable structure.
        let byID = Dictionary(uniqueKeysWithValues: clips.map { (fragment($0), $0) })
        XCTAssertEqual(byID["pg2"]?["types"] as? [String], ["chapter", "pagebreak"])
        XCTAssertEqual(byID["r1"]?["types"] as? [String], ["chapter", "table", "table-row"])
        XCTAssertEqual(byID["r1"]?["structure"] as? String, "tides")
        XCTAssertEqual(byID["r2"]?["structure"] as? String, "tides")
        XCTAssertEqual(byID["n1"]?["types"] as? [String], ["chapter", "aside", "footnote"])
        XCTAssertNil(byID["c1p3"]?["structure"])
        // The WAV is the narration: as long as its clips, and speech, not silence.
        let (seconds, rms) = try measure(wav)
        XCTAssertEqual(seconds, phrases.reduce(0) { $0 + $1.duration }, accuracy: 0.2)
        XCTAssertGreaterThan(rms, 0.01)
    }

    func testSkippableStructuresAreLeftOutWhenAsked() throws {
        let (book, chapters) = try NarrationBook.make()
        let all = try play(book.path)
        let wav = shelf.home.appendingPathComponent("skipped.wav")
        let skipped = try play(book.path, ["--skip-extras"], wav: wav)
        let phrases = chapters.flatMap { $0 }
        // The page number and the footnote are not heard; the table (escapable, not skippable) is.
        XCTAssertEqual(skipped.clips.map(fragment), phrases.map(\.id).filter { $0 != "pg2" && $0 != "n1" })
        XCTAssertEqual(all.clips.count, phrases.count, "everything plays unless the patron asks")
        let left = phrases.filter { $0.id == "pg2" || $0.id == "n1" }.reduce(0) { $0 + $1.duration }
        XCTAssertEqual(try measure(wav).seconds, phrases.reduce(0) { $0 + $1.duration } - left, accuracy: 0.2)
    }

    func testListenJSONGivesTheClipsAsTheyArePlayed() throws {
        let (book, chapters) = try NarrationBook.make()
        // Play at once into nothing, then quit once the end of the book is said (on standard error with --json).
        let err = shelf.home.appendingPathComponent("listen.err")
        let out = shelf.home.appendingPathComponent("listen.out")
        let script = """
            (printf p; i=0; while ! grep -q "end of the book" "$2" && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; \
            printf q) | "$1" listen "$3" --null --json >"$4" 2>"$2"
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, "sh", ShelfProcess.executable.path, err.path, book.path, out.path]
        var environment = shelf.environment
        environment["PATH"] = environment["PATH"] ?? "/usr/bin:/bin"
        p.environment = environment
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        let clips = try lines.map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(clips.map(fragment), chapters.flatMap { $0 }.map(\.id), "one line a clip, in order, all of them")
        let said = try String(contentsOf: err, encoding: .utf8)
        // Pressing play says where playback is and the phrase heard there (unpaced, it may be any of them by then).
        let playing = try XCTUnwrap(said.split(separator: "\n").first { $0.hasPrefix("Playing;") }, said)
        XCTAssertTrue(
            chapters.flatMap { $0 }.contains { playing.hasSuffix($0.text) }, "the phrase heard is shown: \(playing)")
    }

    func testTheNarrationsLengthIsKnownOnceItIsCutNotOnlyOncePlayed() throws {
        let (book, chapters) = try NarrationBook.make()
        // The last clip gives no clipEnd: the length is known once its chapter is cut, before anything plays. The
        // status is asked for (t) after a few seconds, long after the narration (under a minute) is cut, and nothing has played.
        let script = "(sleep 4; printf tq) | \"$1\" listen \"$2\" --null"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, "sh", ShelfProcess.executable.path, book.path]
        p.environment = shelf.environment
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, said)
        let status = try XCTUnwrap(
            said.split(separator: "\n").last { $0.hasPrefix("Paused;") && $0.contains("in the book") })
        XCTAssertFalse(status.contains("length is known once"), String(status))
        let total = Int(chapters.flatMap { $0 }.reduce(0) { $0 + $1.duration }.rounded())
        XCTAssertTrue(
            (total - 1...total + 1).contains { status.contains("of \($0) seconds in the book") }, String(status))
    }

    func testATimeStartsTheNarrationThereAndOnePastTheEndIsRefused() throws {
        let (book, chapters) = try NarrationBook.make()
        let total = chapters.flatMap { $0 }.reduce(0) { $0 + $1.duration }
        let wav = shelf.home.appendingPathComponent("from.wav")
        let (report, _) = try play(book.path, ["--from", "0:30"], wav: wav)
        XCTAssertEqual(report["started"] as? String, "from 0:30")
        XCTAssertEqual(try measure(wav).seconds, total - 30, accuracy: 0.3, "the narration from 0:30 to its end")
        let past = try shelf.run(["play", book.path, "--from", "9:00", "--null"], timeout: 300)
        XCTAssertEqual(past.status, 64, past.stderr)
        XCTAssertTrue(past.stderr.contains("9:00 is past the end of the book, which lasts"), past.stderr)
    }

    func testAContentsEntryInsideAChapterStartsAtItsFirstPhrase() throws {
        let (book, chapters) = try NarrationBook.make()
        // `shelf toc` numbers the entry inside chapter two (a section holding its third phrase) 3.
        let toc = try shelf.run(["toc", book.path])
        XCTAssertEqual(toc.status, 0, toc.stderr)
        let lines = toc.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.firstIndex { $0.contains("The Logbook") },
            lines.firstIndex { $0.contains("The Lighthouse") }.map { $0 + 1 })
        let (report, clips) = try play(book.path, ["--chapter", "3"])
        XCTAssertEqual(report["started"] as? String, "from chapter 3, The Logbook")
        XCTAssertEqual(clips.map(fragment), chapters[1].dropFirst(2).map(\.id), "from the section's phrase to the end")
        // The session's chapters are the contents' too: chapter two lasts until the entry's phrase, where the sleep
        // timer set to the end of the chapter stops.
        let (lighthouse, _) = try play(book.path, ["--chapter", "2", "--sleep", "chapter"])
        XCTAssertEqual(lighthouse["stoppedBecause"] as? String, "the sleep timer")
        let position = try XCTUnwrap((lighthouse["state"] as? [String: Any])?["position"] as? Double)
        XCTAssertEqual(position, chapters[1].prefix(2).reduce(0) { $0 + $1.duration }, accuracy: 0.1)
    }

    func testAPartlyNarratedBookPlaysItsNarrationAndSaysWhatItPassesOver() throws {
        let (book, chapters) = try NarrationBook.make()
        let partly = try NarrationBook.withInterlude(book, in: shelf.home)
        let result = try shelf.run(["play", partly.path, "--null", "--json"], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let clips = try XCTUnwrap((try result.json() as? [String: Any])?["clips"] as? [[String: Any]])
        // The narration of both chapters, nothing in place of the interlude, which is said to be passed over.
        XCTAssertEqual(clips.map(fragment), chapters.flatMap { $0 }.map(\.id))
        XCTAssertTrue(
            result.stderr.contains("“Interlude” has no narration of its own: the narration passes over it."),
            result.stderr)
        // From the chapter after it (the contents' third entry), nothing is passed over and nothing is said.
        let later = try shelf.run(["play", partly.path, "--null", "--json", "--chapter", "3"], timeout: 300)
        XCTAssertEqual(later.status, 0, later.stderr)
        XCTAssertFalse(later.stderr.contains("no narration of its own"), later.stderr)
    }

    func testListeningThenReadingOpensAtThePhraseWhereListeningStopped() throws {
        let (book, _) = try NarrationBook.make()
        XCTAssertEqual(try shelf.run(["add", book.path]).status, 0)
        // The sleep timer stops after a minute of listening at half speed: half a minute into the narration.
        let (report, clips) = try play("Narrated Crossing", ["--sleep", "1", "--speed", "0.5"])
        XCTAssertEqual(report["stoppedBecause"] as? String, "the sleep timer")
        let position = try XCTUnwrap((report["state"] as? [String: Any])?["position"] as? Double)
        let heard = try XCTUnwrap(clips.last { ($0["time"] as? Double ?? 0) <= position }?["phrase"] as? String)
        XCTAssertFalse(letters(heard).hasPrefix("chapterone"))
        // Listening again starts at that phrase...
        let again = try play("Narrated Crossing", ["--sleep", "1", "--speed", "2"])
        XCTAssertEqual(again.report["started"] as? String, "from the phrase where you stopped")
        XCTAssertEqual(letters(again.clips.first?["phrase"] as? String ?? ""), letters(heard))
        // ...and reading opens on the page that shows the phrase where it stopped.
        let stopped = try XCTUnwrap((again.report["state"] as? [String: Any])?["position"] as? Double)
        let last = try XCTUnwrap(again.clips.last { ($0["time"] as? Double ?? 0) <= stopped }?["phrase"] as? String)
        let page = try shelf.run(["read", "Narrated Crossing", "--json"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let text = try XCTUnwrap((try page.json() as? [String: Any])?["text"] as? String)
        XCTAssertTrue(letters(text).contains(letters(last)), "the page shows the phrase heard, \"\(last)\":\n\(text)")
    }

    func testReadingThenListeningStartsAtThePhraseWhereReadingStopped() throws {
        let (book, chapters) = try NarrationBook.make()
        XCTAssertEqual(try shelf.run(["add", book.path]).status, 0)
        let page = try shelf.run(["read", "Narrated Crossing", "--goto", "2", "--json"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let text = try XCTUnwrap((try page.json() as? [String: Any])?["text"] as? String)
        let (report, clips) = try play("Narrated Crossing", ["--sleep", "1", "--speed", "3"])
        XCTAssertEqual(report["started"] as? String, "from the phrase where you stopped")
        // The page reading stopped on begins the second chapter: listening begins with its first phrase.
        let first = try XCTUnwrap(clips.first)
        XCTAssertEqual(fragment(first), chapters[1][0].id)
        XCTAssertTrue(letters(text).hasPrefix(letters(first["phrase"] as? String ?? "-")), text)
    }

    func testTheCorpusOverlayBookPlaysItsNarration() throws {
        guard let root = Corpus.root else {
            throw XCTSkip("../shared/corpus is absent: this test needs the shared corpus")
        }
        let book = root.appendingPathComponent("epub/epub3-readium-smoketest-fxl.epub")
        guard FileManager.default.fileExists(atPath: book.path) else { throw XCTSkip("the corpus has no \(book.path)") }
        let wav = shelf.home.appendingPathComponent("fxl.wav")
        let (_, clips) = try play(book.path, wav: wav)
        // Six pages narrated by three SMIL files; 63 phrases, the three page numbers among them.
        XCTAssertEqual(Set(clips.compactMap { ($0["chapter"] as? String) }).count, 6)
        XCTAssertEqual(clips.count, 63)
        XCTAssertEqual(clips.filter { ($0["types"] as? [String] ?? []).contains("pagebreak") }.count, 3)
        var last = -1.0
        for clip in clips {
            let time = try XCTUnwrap(clip["time"] as? Double)
            XCTAssertGreaterThan(time, last)
            last = time
            let span = try XCTUnwrap(clip["clipEnd"] as? Double) - (clip["clipBegin"] as? Double ?? 0)
            XCTAssertEqual(clip["duration"] as? Double ?? 0, span, accuracy: 0.05, "\(clip["text"] ?? "")")
        }
        // A glossary inside a glossary is one structure: escaping it goes on after both.
        let nested = clips.filter { ($0["chapter"] as? String)?.hasSuffix("media-overlays-007.xhtml") ?? false }
        XCTAssertEqual(Set(nested.compactMap { $0["structure"] as? String }).count, 1)
        XCTAssertEqual(nested.filter { $0["structure"] != nil }.count, 7)
        let skipped = try play(book.path, ["--skip-extras"])
        XCTAssertEqual(skipped.clips.count, 60, "the three page numbers skipped when asked")
        let (seconds, rms) = try measure(wav)
        XCTAssertEqual(seconds, last + (clips.last?["duration"] as? Double ?? 0), accuracy: 0.2)
        XCTAssertGreaterThan(rms, 0.01)
    }

    func testAMissingAudioFileSilencesItsPhrasesAndTheRestPlays() throws {
        let (book, chapters) = try NarrationBook.make()
        let broken = shelf.home.appendingPathComponent("broken.epub")
        try FileManager.default.copyItem(at: book, to: broken)
        try NarrationBook.zip(in: shelf.home, ["-d", broken.path, "OEBPS/audio/ch2.mp3"])
        let result = try shelf.run(["play", broken.path, "--null", "--json"], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let clips = try XCTUnwrap((try result.json() as? [String: Any])?["clips"] as? [[String: Any]])
        // Every phrase is still in the narration; the second chapter's are silent.
        XCTAssertEqual(clips.map(fragment), chapters.flatMap { $0 }.map(\.id))
        XCTAssertEqual(
            clips.suffix(chapters[1].count).compactMap { $0["duration"] as? Double }, chapters[1].map { _ in 0 })
        XCTAssertGreaterThan(clips.first?["duration"] as? Double ?? 0, 0.5)
        XCTAssertTrue(
            result.stderr.contains("The narration's audio OEBPS/audio/ch2.mp3 cannot be played"), result.stderr)
    }
}
