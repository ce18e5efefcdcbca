import Foundation
import TestSupport
import TextFolding
import XCTest

/// Any EPUB listened to: `shelf play BOOK.epub --out x.wav` speaks the book through the speech plugin into the
/// listening session (a WAV of speech, its length in proportion to the words; `--json` gives the word and sentence
/// marks in order, covering each chapter), and the place is the reader's: listening stops on a sentence and
/// `shelf read` opens on the page that shows it; reading stops on a page and listening starts at its sentence.
final class SpeechListeningTests: XCTestCase {
    var shelf: ShelfProcess!
    let book = ShelfProcess.packageRoot.appendingPathComponent("samples/the-lighthouse-keeper.epub").path

    override func setUpWithError() throws { shelf = try ShelfProcess() }
    override func tearDown() { shelf.cleanUp() }

    struct Played {
        let report: [String: Any]
        let marks: [[String: Any]]
        var sentences: [[String: Any]] { marks.filter { $0["kind"] as? String == "sentence" } }
        var words: [[String: Any]] { marks.filter { $0["kind"] as? String == "word" } }
    }

    func play(_ target: String, _ extra: [String] = [], wav: URL? = nil) throws -> Played {
        let out = wav ?? shelf.home.appendingPathComponent("x.wav")
        let result = try shelf.run(["play", target, "--out", out.path, "--json"] + extra, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
        let marks = try XCTUnwrap(
            report["marks"] as? [[String: Any]], "play --json of an EPUB gives its marks: \(result.stdout.prefix(400))")
        return Played(report: report, marks: marks)
    }

    /// 16-bit PCM of a WAV file written by `--out`, as floats, and its rate.
    func samples(_ url: URL) throws -> (rate: Int, samples: [Float]) {
        let data = try Data(contentsOf: url)
        XCTAssertGreaterThan(data.count, 44)
        let rate = Int(data[24]) | Int(data[25]) << 8 | Int(data[26]) << 16
        let channels = Int(data[22])
        var out: [Float] = []
        data.dropFirst(44).withUnsafeBytes { raw in
            let values = raw.bindMemory(to: Int16.self)
            out.reserveCapacity(values.count / max(1, channels))
            var i = 0
            while i + channels <= values.count {
                out.append(Float(Int16(littleEndian: values[i])) / 32768)
                i += channels
            }
        }
        return (rate, out)
    }

    func letters(_ text: String) -> String { FoldedText(text, keep: .lettersAndDigits).string }

    func testPlayingAnEPUBWritesSpeechInProportionToItsWordsWithItsMarks() throws {
        let wav = shelf.home.appendingPathComponent("book.wav")
        let played = try play(book, ["--chapter", "1"], wav: wav)
        let (rate, pcm) = try samples(wav)
        let seconds = Double(pcm.count) / Double(rate)
        let rms = (pcm.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, pcm.count))).squareRoot()
        XCTAssertGreaterThan(rms, 0.01, "speech, not silence")
        // Every frame spoken is played: each track finishes while playback waits at the end of what was spoken, and
        // measuring it then keeps the place (the engine once moved it to the next track's start, skipping the rest).
        let state = try XCTUnwrap(played.report["state"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(state["duration"] as? Double), seconds, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(state["listened"] as? Double), seconds, accuracy: 0.05)
        // Speech runs at 100 to 300 words a minute (pauses between paragraphs included).
        let words = played.words.count
        XCTAssertGreaterThan(words, 200, "every chapter spoken: \(words) words")
        XCTAssertGreaterThan(seconds, Double(words) / 5, "\(seconds) s for \(words) words")
        XCTAssertLessThan(seconds, Double(words) / 1.6, "\(seconds) s for \(words) words")
        // In order, and each chapter covered: every word of the chapter's text inside a sentence, the sentences
        // following one another over the whole of it.
        var last = -1.0
        for mark in played.marks {
            let time = try XCTUnwrap(mark["time"] as? Double)
            XCTAssertGreaterThanOrEqual(time, last, "marks in order: \(mark)")
            last = time
            XCTAssertLessThanOrEqual(time, seconds + 0.01)
        }
        let hrefs = Set(played.sentences.compactMap { $0["href"] as? String })
        XCTAssertEqual(hrefs.count, 3, "the three chapters: \(hrefs)")
        for href in hrefs {
            let sentences = played.sentences.filter { $0["href"] as? String == href }
            var end = 0
            for s in sentences {
                let offset = try XCTUnwrap(s["offset"] as? Int), length = try XCTUnwrap(s["length"] as? Int)
                XCTAssertGreaterThanOrEqual(offset, end, "sentences do not overlap in \(href)")
                XCTAssertLessThanOrEqual(
                    offset - end, 2, "no text left out between sentences in \(href) at \(offset): \(s)")
                end = offset + length
            }
            let chapterWords = played.words.filter { $0["href"] as? String == href }
            let text = sentences.compactMap { $0["text"] as? String }.joined(separator: " ")
            let inText = text.split(whereSeparator: \.isWhitespace).filter { $0.contains { $0.isLetter } }.count
            XCTAssertGreaterThanOrEqual(Double(chapterWords.count), Double(inText) * 0.9, "word marks cover \(href)")
        }
        let renderedFirst = try shelf.run(["render", book, "--chapter", "1", "--as", "text"]).stdout
        let firstChapter = played.sentences.first.flatMap { $0["href"] as? String }
        let spokenFirst = played.sentences.filter { $0["href"] as? String == firstChapter }.compactMap {
            $0["text"] as? String
        }.joined(separator: " ")
        XCTAssertTrue(
            letters(renderedFirst).contains(letters(spokenFirst).prefix(200)),
            "chapter 1 is spoken as the reader shows it")
    }

    /// `--from TIME` starts a book read aloud at that time in the book as spoken from its start: what plays is the
    /// whole book's sound from there. Failed before: a book read aloud refused any time (exit 64, "has no times
    /// before it is spoken").
    func testPlayingFromATimeStartsThereInTheBookSpoken() throws {
        let wholeWAV = shelf.home.appendingPathComponent("whole.wav"),
            partWAV = shelf.home.appendingPathComponent("part.wav")
        _ = try play(book, ["--from", "0"], wav: wholeWAV)
        let part = try play(book, ["--from", "0:40"], wav: partWAV)
        XCTAssertEqual(part.report["started"] as? String, "from 0:40")
        let (rate, whole) = try samples(wholeWAV)
        let (_, from40) = try samples(partWAV)
        XCTAssertEqual(Double(from40.count) / Double(rate), Double(whole.count) / Double(rate) - 40, accuracy: 0.1)
        // The same sound: two seconds a second in, against the whole book's at 0:41.
        let window = 2 * rate
        let difference = (0..<window).map { abs(Double(from40[rate + $0]) - Double(whole[41 * rate + $0])) }.reduce(
            0, +)
        let level = (0..<window).map { abs(Double(whole[41 * rate + $0])) }.reduce(0, +)
        XCTAssertGreaterThan(level / Double(window), 0.005, "speech at 0:41")
        XCTAssertLessThan(difference, level * 0.05, "the sound from 0:40 is the book's from 0:40")
    }

    /// A time past the end of a book read aloud is refused, once it is all spoken, with how long it lasts.
    func testPlayingFromATimePastTheEndSaysHowLongTheBookIs() throws {
        let wav = shelf.home.appendingPathComponent("whole.wav")
        _ = try play(book, ["--from", "0"], wav: wav)
        let (rate, whole) = try samples(wav)
        let seconds = Int((Double(whole.count) / Double(rate)).rounded())
        let result = try shelf.run(["play", book, "--from", "9:00", "--null"], timeout: 300)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "9:00 is past the end of the book, which lasts \(seconds / 60):\(String(format: "%02d", seconds % 60)) read aloud."
            ),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("--chapter N"), result.stderr)
    }

    func testListeningThenReadingOpensAtTheSentenceWhereListeningStopped() throws {
        XCTAssertEqual(try shelf.run(["add", book]).status, 0)
        // The sleep timer stops after a minute of listening, inside the second chapter.
        let played = try play("Lighthouse", ["--sleep", "1"])
        let state = try XCTUnwrap(played.report["state"] as? [String: Any])
        let position = try XCTUnwrap(state["position"] as? Double)
        XCTAssertEqual(played.report["stoppedBecause"] as? String, "the sleep timer")
        let heard = try XCTUnwrap(
            played.sentences.last { ($0["time"] as? Double ?? 0) <= position + 0.01 }?["text"] as? String)
        let page = try shelf.run(["read", "Lighthouse", "--json"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let text = try XCTUnwrap((try page.json() as? [String: Any])?["text"] as? String, page.stdout)
        XCTAssertTrue(
            letters(text).contains(letters(heard).prefix(30)),
            "the page shows the sentence heard, \"\(heard)\":\n\(text)")
    }

    func testReadingThenListeningStartsAtTheSentenceWhereReadingStopped() throws {
        XCTAssertEqual(try shelf.run(["add", book]).status, 0)
        let page = try shelf.run(["read", "Lighthouse", "--goto", "3", "--json"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let text = try XCTUnwrap((try page.json() as? [String: Any])?["text"] as? String)
        let played = try play("Lighthouse", ["--sleep", "1"])
        let first = try XCTUnwrap(played.sentences.first?["text"] as? String)
        let pageLetters = letters(text), firstLetters = letters(first)
        XCTAssertTrue(
            pageLetters.hasPrefix(firstLetters.suffix(min(20, firstLetters.count)))
                || pageLetters.contains(firstLetters.prefix(30))
                || firstLetters.contains(pageLetters.prefix(20)),
            "listening starts at the sentence reading stopped on (\"\(first)\"), page 3:\n\(text)")
        // And not at the book's start.
        let opening = try shelf.run(["render", book, "--chapter", "1", "--as", "text"]).stdout
        XCTAssertFalse(letters(opening).contains(firstLetters.prefix(30)), "not chapter 1: \(first)")
    }

    func testListeningWithoutASpeechPluginSaysHowToInstallOne() throws {
        let fake = shelf.home.appendingPathComponent("fake-lib")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        let source = fake.appendingPathComponent("empty.c")
        try "int shelf_not_espeak;\n".write(to: source, atomically: true, encoding: .utf8)
        try CCompiler.sharedLibrary(sources: [source], output: fake.appendingPathComponent("libespeak-ng.so.1"))
        shelf.environment["LD_LIBRARY_PATH"] = fake.path
        let result = try shelf.run(["play", book, "--null"])
        XCTAssertEqual(result.status, 69, result.stderr)
        XCTAssertTrue(result.stderr.contains("apt-get install libespeak-ng1"), result.stderr)
    }
}
