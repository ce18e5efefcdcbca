import Foundation
import TestSupport
import XCTest

/// Every command's `--json` document, kept in Tests/Golden and compared byte for byte: a refactoring that changes
/// what a script or the browser app reads fails here. `make golden` writes the files anew (SHELF_GOLDEN_WRITE=1);
/// a change that means to alter a document shows its diff in the commit that makes it.
///
/// Each scenario runs its commands in order in one fresh home, as a patron would, and records each command's exit
/// status, stdout and stderr. What differs from run to run is replaced before comparing (see `GoldenNormaliser`):
/// the temporary home, the checkout, the build folder, the fake library's port, and times near the moment of the run.
final class GoldenTests: XCTestCase {
    static let folder = ShelfProcess.packageRoot.appendingPathComponent("Tests/Golden")
    let samples = ShelfProcess.packageRoot.appendingPathComponent("samples").path

    /// shelf's own job on the bundled samples, as `make sample` does it and further: books, the on-disk library,
    /// the bookshelf, reading, bookmarks, settings, sharing, reading lists, audio.
    func testSamples() throws {
        let lighthouse = "\(samples)/the-lighthouse-keeper.epub", winter = "\(samples)/a-winter-crossing.epub"
        try check(
            "samples",
            steps: [
                ["plugins"],
                ["info", lighthouse], ["info", winter],
                ["manifest", winter],
                ["toc", lighthouse], ["toc", winter],
                ["render", lighthouse, "--width", "72"],
                ["render", winter, "--chapter", "2", "--as", "html", "--theme", "night", "--font-scale", "120"],
                ["positions", winter],
                ["search", lighthouse, "lamp"], ["search", winter, "no-such-words-anywhere"],
                ["cover", winter, "-o", "{home}/cover.bin"],
                ["info", "/no/such/book.epub"],
                ["account", "add", "file://\(samples)/library"],
                ["account", "list"],
                ["browse", "--format", "audiobook"], ["browse", "--format", "ebook"], ["browse"],
                ["browse", "--format", "all", "--available", "--supported"],
                ["catalog-search", "winter"],
                ["book", "urn:shelf:sample:a-winter-crossing"],
                ["borrow", "urn:shelf:sample:a-winter-crossing"],
                ["reserve", "urn:shelf:sample:a-winter-crossing"],
                ["download", "urn:shelf:sample:a-winter-crossing"],
                ["download", "urn:shelf:sample:harbour-bells"],
                ["loans"], ["holds"], ["sync"], ["status"], ["notifications", "--all"],
                ["add", lighthouse],
                ["add", "{home}/cover.bin"],
                ["books"],
                ["read", "Lighthouse", "--width", "60"],
                ["read", "Lighthouse", "--next", "--width", "60"],
                ["read", "Lighthouse", "--search", "lamp", "--width", "60"],
                ["read", "Winter", "--toc", "2", "--width", "60"],
                ["bookmark", "add", "Lighthouse", "--note", "the lamp"],
                ["bookmarks", "Lighthouse"],
                ["read", "Lighthouse", "--bookmark", "1", "--width", "60"],
                ["bookmark", "remove", "1"],
                ["settings"], ["settings", "Lighthouse", "--font-scale", "130", "--theme", "sepia"],
                ["settings", "Lighthouse"],
                ["share", "Lighthouse", "--page", "2"],
                ["finished", "Lighthouse"], ["finished", "The Lighthouse Keeper"],
                ["wish", "The Lamp Room Clock"], ["wish", "9780000000002", "--author", "Nobody"],
                ["wishlist", "--offline"],
                ["lists", "services"], ["lists", "show"], ["lists", "push"],
                ["play", "harbour-bells", "--null", "--speed", "1.5"],
                ["play", "harbour-bells", "--null"],
                ["play", "\(samples)/library/audio/lamp-room-clock.json", "--null", "--chapter", "1"],
                ["downloads"],
                ["books"],
                ["remove", "Lighthouse"], ["remove", "The Lighthouse Keeper"],
                ["books"]
            ])
    }

    /// The library commands against the fake library on loopback: sign-in, browsing, borrowing, holds, sync and the
    /// notifications it makes, the watcher, sign-out.
    func testLibrary() throws {
        let library = try FakeLibrary()
        defer { library.stop() }
        let steps: [[String]] = [
            ["account", "add", library.root, "--name", "fake"],
            ["login", "--username", library.username, "--password-stdin"],
            ["account", "list"],
            ["browse"], ["browse", "--format", "audiobook"], ["browse", "--format", "all"],
            ["catalog-search", "open"],
            ["book", "urn:fake:ebook-out"],
            ["borrow", "urn:fake:ebook-free"], ["borrow", "urn:fake:ebook-free"],
            ["borrow", "urn:fake:ebook-out"],
            ["reserve", "urn:fake:ebook-out"], ["reserve", "urn:fake:ebook-out"],
            ["reserve", "urn:fake:audio-free"],
            ["borrow", "urn:fake:classic"],
            ["loans"], ["holds"],
            ["sync"],
            ["download", "urn:fake:ebook-free"],
            ["books"],
            ["status"], ["notifications", "--all"],
            ["return", "urn:fake:ebook-free"],
            ["cancel-hold", "urn:fake:ebook-out"],
            ["sync"], ["loans"], ["holds"],
            ["watch", "--once"],
            ["logout"],
            ["account", "use", "fake"],
            ["account", "remove", "fake"],
            ["account", "list"]
        ]
        try check(
            "library", steps: steps, stdin: ["login": library.password + "\n"],
            replacing: [(library.root.replacingOccurrences(of: "/catalog", with: ""), "<library>")])
    }

    /// `info` and `toc` of every corpus book, when ../shared/corpus is beside the checkout.
    func testCorpus() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("epub") else {
            throw XCTSkip("../shared/corpus is absent")
        }
        let books = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".epub") }
            .sorted()
        try check(
            "corpus-epub", steps: books.flatMap { [["info", "{corpus}/\($0)"], ["toc", "{corpus}/\($0)"]] },
            replacing: [(corpus.path, "{corpus}")], expand: ["{corpus}": corpus.path])
    }

    // MARK: Running and comparing

    private func check(
        _ name: String, steps: [[String]], stdin: [String: String] = [:],
        replacing: [(String, String)] = [], expand: [String: String] = [:]
    ) throws {
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        var process = shelf
        process.environment["SHELF_HTTP_RETRIES"] = "1"
        process.environment["SHELF_HTTP_TIMEOUT"] = "10"
        process.environment["COLUMNS"] = "80"
        process.environment["TZ"] = "UTC"
        process.environment["LC_ALL"] = "C.UTF-8"
        let normaliser = GoldenNormaliser(
            replacing: replacing + [
                (shelf.home.path, "{home}"),
                (ShelfProcess.buildDirectory.path, "{build}"),
                (ShelfProcess.packageRoot.path, "{root}")
            ])
        var transcript = ""
        for step in steps {
            var words = step.map { word in
                var word = word.replacingOccurrences(of: "{home}", with: shelf.home.path)
                for (key, value) in expand { word = word.replacingOccurrences(of: key, with: value) }
                return word
            }
            words.append("--json")
            let result = try process.run(words, stdin: stdin[step[0]].map { Data($0.utf8) })
            transcript += "$ shelf " + normaliser.apply(words.joined(separator: " ")) + "\n"
            transcript += "exit \(result.status)\n"
            if !result.stdout.isEmpty {
                transcript += normaliser.apply(result.stdout) + (result.stdout.hasSuffix("\n") ? "" : "\n")
            }
            if !result.stderr.isEmpty {
                transcript += "stderr: " + normaliser.apply(result.stderr) + (result.stderr.hasSuffix("\n") ? "" : "\n")
            }
            transcript += "\n"
        }
        let file = Self.folder.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["SHELF_GOLDEN_WRITE"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(transcript.utf8).write(to: file)
            return
        }
        guard let kept = try? String(contentsOf: file, encoding: .utf8) else {
            return XCTFail("\(file.path) is missing: `make golden` writes it")
        }
        if kept != transcript {
            let keptLines = kept.components(separatedBy: "\n"), newLines = transcript.components(separatedBy: "\n")
            let first =
                zip(keptLines, newLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(keptLines.count, newLines.count)
            let context = { (lines: [String]) in
                lines[max(0, first - 3)..<min(lines.count, first + 4)].joined(separator: "\n")
            }
            XCTFail(
                """
                \(name): the output differs from \(file.lastPathComponent) at line \(first + 1). Kept:
                \(context(keptLines))
                Now:
                \(context(newLines))
                If the change is meant, `make golden` writes the new files; commit their diff with it.
                """)
        }
    }
}

/// What varies from one run to the next, replaced by a name: given paths, and the dates of around now (a date in
/// a fixture file, far from now, stays as it is).
struct GoldenNormaliser {
    let replacing: [(String, String)]
    let now = Date()

    func apply(_ text: String) -> String {
        var text = text
        // Longest first, so that a path inside another is not half replaced.
        for (from, to) in replacing.sorted(by: { $0.0.count > $1.0.count }) where !from.isEmpty {
            text = text.replacingOccurrences(of: from, with: to)
        }
        return nearNowDays(nearNowDates(text))
    }

    /// Days in words ("on loan until Dec 22, 2026") within 60 days of now become <day±Nd>.
    private func nearNowDays(_ text: String) -> String {
        guard
            let pattern = try? NSRegularExpression(
                pattern: #"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}"#)
        else { return text }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d, yyyy"
        return replace(pattern, in: text) { found in
            guard let date = formatter.date(from: found), abs(date.timeIntervalSince(now)) < 60 * 86_400 else {
                return found
            }
            // Counted from the start of today (UTC), so the name does not depend on the hour of the run.
            let today = floor(now.timeIntervalSince1970 / 86_400) * 86_400
            let days = Int(((date.timeIntervalSince1970 - today) / 86_400).rounded())
            return "<day\(days >= 0 ? "+" : "")\(days)d>"
        }
    }

    private func replace(_ pattern: NSRegularExpression, in text: String, with make: (String) -> String) -> String {
        var result = ""
        var last = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            result += text[last..<range.lowerBound]
            result += make(String(text[range]))
            last = range.upperBound
        }
        return result + text[last...]
    }

    /// ISO dates within 60 days of now become <now±Nd>: made by the clock of the run (added, opened, synced), or by
    /// the fake library counting from it (loans end in three weeks).
    private func nearNowDates(_ text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"#) else {
            return text
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return replace(pattern, in: text) { found in
            let plain = found.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)
            guard let date = formatter.date(from: plain), abs(date.timeIntervalSince(now)) < 60 * 86_400 else {
                return found
            }
            let days = Int((date.timeIntervalSince(now) / 86_400).rounded())
            return days == 0 ? "<now>" : "<now\(days > 0 ? "+" : "")\(days)d>"
        }
    }
}
