import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Real audio made by Debian's tools (espeak-ng, lame, ffmpeg), once per test run, in a
/// temporary folder. Tests that need a missing tool skip with the tool's name.
enum AudioFixtures {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-audio-fixtures-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func tool(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func require(_ tools: String...) throws {
        let missing = tools.filter { tool($0) == nil }
        if !missing.isEmpty {
            throw XCTSkip(
                "needs \(missing.joined(separator: ", ")) to make test audio (scripts/install-deps.sh installs them)")
        }
    }

    @discardableResult
    static func run(_ tool: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: self.tool(tool) ?? "/usr/bin/\(tool)")
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw NSError(
                domain: "fixtures", code: Int(p.terminationStatus),
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(tool) \(args.joined(separator: " ")) failed: \(String(decoding: e, as: UTF8.self).suffix(600))"
                ])
        }
        return String(decoding: o, as: UTF8.self)
    }

    static let sentences = [
        "Chapter one. The ferry came in late that evening, low in the water and slow against the tide, and Ada watched the harbour lights gather out of the dark.",
        "Chapter two. The stairs of the lighthouse turned one hundred and twelve times, and by the second night her legs had learned the number for her.",
        "Chapter three. In the back of the logbook, upside down, were other entries: a list of birds, a recipe for fish soup, and a drawing of the lens."
    ]

    // Recursive: one fixture is made from others (an M4B from the speech WAVs) inside `once`.
    private static let lock = NSRecursiveLock()
    private static var made: [String: URL] = [:]

    static func once(_ key: String, _ make: () throws -> URL) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let u = made[key] { return u }
        let u = try make()
        made[key] = u
        return u
    }

    /// Speech as 44.1 kHz mono WAV, one file per sentence.
    static func speechWAV(_ i: Int) throws -> URL {
        try require("espeak-ng", "ffmpeg")
        return try once("wav\(i)") {
            let raw = directory.appendingPathComponent("raw\(i).wav")
            let wav = directory.appendingPathComponent("speech\(i).wav")
            try run("espeak-ng", ["-s", "160", "-w", raw.path, sentences[i]])
            try run(
                "ffmpeg",
                ["-y", "-v", "error", "-i", raw.path, "-ar", "44100", "-ac", "1", "-c:a", "pcm_s16le", wav.path])
            return wav
        }
    }

    /// Three MP3 tracks (lame, 64 kb/s CBR) and a Readium audiobook manifest beside them, with a TOC
    /// that points into the second track.
    static func mp3Book() throws -> URL {
        try require("espeak-ng", "ffmpeg", "lame")
        return try once("mp3book") {
            let dir = directory.appendingPathComponent("mp3book")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            var order: [[String: Any]] = []
            for i in 0..<3 {
                let mp3 = dir.appendingPathComponent("track\(i + 1).mp3")
                try run("lame", ["--quiet", "-b", "64", "-m", "m", try speechWAV(i).path, mp3.path])
                order.append([
                    "href": "track\(i + 1).mp3", "type": "audio/mpeg", "title": "Track \(i + 1)", "duration": "1"
                ])
            }
            let manifest: [String: Any] = [
                "@context": "https://readium.org/webpub-manifest/context.jsonld",
                "metadata": [
                    "@type": "http://schema.org/Audiobook", "title": "Three Openings", "author": "Test Voices"
                ],
                "readingOrder": order,
                "toc": [
                    ["href": "track1.mp3#t=0", "title": "One"],
                    [
                        "href": "track2.mp3", "title": "Two",
                        "children": [["href": "track2.mp3#t=2.5", "title": "Two, later"]]
                    ],
                    ["href": "track3.mp3#t=0", "title": "Three"]
                ]
            ]
            let url = dir.appendingPathComponent("manifest.json")
            try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted]).write(to: url)
            return url
        }
    }

    /// The same book as a `.audiobook` zip.
    static func packagedBook() throws -> URL {
        let manifest = try mp3Book()
        try require("zip")
        return try once("package") {
            let out = directory.appendingPathComponent("three.audiobook")
            try? FileManager.default.removeItem(at: out)
            let dir = manifest.deletingLastPathComponent()
            let p = Process()
            p.executableURL = URL(fileURLWithPath: tool("zip")!)
            p.currentDirectoryURL = dir
            p.arguments = ["-q", "-0", out.path, "manifest.json", "track1.mp3", "track2.mp3", "track3.mp3"]
            try p.run()
            p.waitUntilExit()
            return out
        }
    }

    /// All three sentences as one M4B (AAC) with a chapter atom per sentence; returns it and the chapter starts.
    static func m4b() throws -> (URL, [Double]) {
        try require("espeak-ng", "ffmpeg")
        var starts: [Double] = []
        let url = try once("m4b") {
            let dir = directory.appendingPathComponent("m4b")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let list = dir.appendingPathComponent("list.txt")
            try (0..<3).map { "file '\(try speechWAV($0).path)'" }.joined(separator: "\n").write(
                to: list, atomically: true, encoding: .utf8)
            let joined = dir.appendingPathComponent("joined.wav")
            try run(
                "ffmpeg",
                ["-y", "-v", "error", "-f", "concat", "-safe", "0", "-i", list.path, "-c", "copy", joined.path])
            var meta = ";FFMETADATA1\ntitle=Joined Openings\nartist=Test Voices\n"
            var t = 0.0
            for i in 0..<3 {
                let d = try duration(of: try speechWAV(i))
                meta +=
                    "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int((t * 1000).rounded()))\nEND=\(Int(((t + d) * 1000).rounded()))\ntitle=Opening \(i + 1)\n"
                t += d
            }
            let metaURL = dir.appendingPathComponent("meta.txt")
            try meta.write(to: metaURL, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("joined.m4b")
            try run(
                "ffmpeg",
                [
                    "-y", "-v", "error", "-i", joined.path, "-i", metaURL.path, "-map_metadata", "1", "-map_chapters",
                    "1",
                    "-c:a", "aac", "-b:a", "96k", "-f", "ipod", out.path
                ])
            return out
        }
        var t = 0.0
        for i in 0..<3 { starts.append(t); t += try duration(of: try speechWAV(i)) }
        return (url, starts)
    }

    /// An MP3 of the three sentences with ID3v2 CHAP frames.
    static func chapteredMP3() throws -> URL {
        let (m4b, _) = try m4b()
        return try once("chapmp3") {
            let dir = m4b.deletingLastPathComponent()
            let out = dir.appendingPathComponent("joined.mp3")
            try run(
                "ffmpeg",
                [
                    "-y", "-v", "error", "-i", dir.appendingPathComponent("joined.wav").path,
                    "-i", dir.appendingPathComponent("meta.txt").path, "-map_metadata", "1", "-map_chapters", "1",
                    "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "3", out.path
                ])
            return out
        }
    }

    /// Seconds, from the WAV header (16-bit PCM as written above).
    static func duration(of wav: URL) throws -> Double {
        let data = try Data(contentsOf: wav)
        guard let range = data.range(of: Data("data".utf8)) else { return 0 }
        let size = data[range.upperBound..<range.upperBound + 4].enumerated().reduce(0) {
            $0 | Int($1.element) << (8 * $1.offset)
        }
        return Double(size) / 2 / 44100
    }

    /// Reads 16-bit or float WAV as mono floats (first channel) with its rate.
    static func readWAV(_ url: URL) throws -> (samples: [Float], rate: Int) {
        let data = [UInt8](try Data(contentsOf: url))
        func u32(_ o: Int) -> Int {
            Int(data[o]) | Int(data[o + 1]) << 8 | Int(data[o + 2]) << 16 | Int(data[o + 3]) << 24
        }
        func u16(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 }
        var o = 12, rate = 0, channels = 1, bits = 16, format = 1
        var samples: [Float] = []
        while o + 8 <= data.count {
            let id = String(decoding: data[o..<o + 4], as: UTF8.self), size = u32(o + 4)
            if id == "fmt " { format = u16(o + 8); channels = u16(o + 10); rate = u32(o + 12); bits = u16(o + 22) }
            if id == "data" {
                let end = min(data.count, o + 8 + size)
                let step = channels * bits / 8
                var p = o + 8
                while p + step <= end {
                    if format == 3 || bits == 32 {
                        samples.append(Float(bitPattern: UInt32(u32(p))))
                    } else {
                        samples.append(Float(Int16(bitPattern: UInt16(u16(p)))) / 32768)
                    }
                    p += step
                }
                break
            }
            o += 8 + size + (size & 1)
        }
        return (samples, rate)
    }
}
