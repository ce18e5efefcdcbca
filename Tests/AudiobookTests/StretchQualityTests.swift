import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Speech played faster or slower keeps its voicing at least as well as every peer does (issue 35): FFmpeg's
/// atempo and sox's tempo (both its default and its speech preset, `-s`), at each speed a listener picks from
/// 0.5x to 3x, for two voices. The measure is bench/audio/periodicity.py itself, at full rate, so the test and
/// the benchmark (bench/audio/stretch.sh) cannot drift apart.
final class StretchQualityTests: XCTestCase {
    static let voices = ["en-us", "en-gb+f3"]
    static let speeds = [0.5, 1.5, 2.0, 2.5, 3.0]
    static let peers: [(name: String, tool: String, arguments: (URL, URL, Double) -> [String])] = [
        (
            "ffmpeg atempo", "ffmpeg",
            { ["-y", "-v", "error", "-i", $0.path, "-filter:a", "atempo=\($2)", "-c:a", "pcm_s16le", $1.path] }
        ),
        ("sox tempo", "sox", { [$0.path, $1.path, "tempo", "\($2)"] }),
        ("sox tempo -s", "sox", { [$0.path, $1.path, "tempo", "-s", "\($2)"] })
    ]
    static let measure = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("bench/audio/periodicity.py")

    func speech(_ voice: String) throws -> URL {
        return try AudioFixtures.once("voice-\(voice)") {
            let raw = AudioFixtures.directory.appendingPathComponent("voice-\(voice)-raw.wav")
            let wav = AudioFixtures.directory.appendingPathComponent("voice-\(voice).wav")
            try AudioFixtures.run(
                "espeak-ng",
                ["-v", voice, "-s", "165", "-w", raw.path, AudioFixtures.sentences.prefix(2).joined(separator: " ")])
            try AudioFixtures.run(
                "ffmpeg",
                ["-y", "-v", "error", "-i", raw.path, "-ar", "44100", "-ac", "1", "-c:a", "pcm_s16le", wav.path])
            return wav
        }
    }

    func testStretchedSpeechKeepsAtLeastEveryPeersPeriodicity() throws {
        try AudioFixtures.require("espeak-ng", "ffmpeg", "sox", "python3")
        do { try AudioFixtures.run("python3", ["-c", "import numpy"]) } catch {
            throw XCTSkip("needs python3-numpy to measure periodicity (scripts/install-deps.sh installs it)")
        }
        // Every file first, then one run of the measure over all of them.
        var files: [URL] = []
        func file(_ who: String, _ voice: String, _ speed: Double) -> URL {
            AudioFixtures.directory.appendingPathComponent("stretch-\(who.filter(\.isLetter))-\(voice)-\(speed).wav")
        }
        for voice in Self.voices {
            let wav = try speech(voice)
            for speed in Self.speeds {
                let ours = file("shelf", voice, speed)
                let engine = try PlaybackEngine(book: TestHost.book(wav))
                engine.setSpeed(speed)
                try engine.run(sink: WAVFileSink(path: ours.path))
                files.append(ours)
                for peer in Self.peers {
                    let theirs = file(peer.name, voice, speed)
                    try AudioFixtures.run(peer.tool, peer.arguments(wav, theirs, speed))
                    files.append(theirs)
                }
            }
        }
        let output = try AudioFixtures.run("python3", [Self.measure.path] + files.map(\.path))
        var share: [String: Double] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[0]) { share[String(parts[1])] = value }
        }
        XCTAssertEqual(share.count, files.count, "periodicity.py measured every file:\n\(output)")
        for voice in Self.voices {
            for speed in Self.speeds {
                let ours = try XCTUnwrap(share[file("shelf", voice, speed).path])
                var row = "periodicity \(voice) at \(speed)x: shelf \(ours)"
                for peer in Self.peers {
                    let theirs = try XCTUnwrap(share[file(peer.name, voice, speed).path])
                    row += ", \(peer.name) \(theirs)"
                    XCTAssertGreaterThanOrEqual(ours, theirs, "\(voice) at \(speed)x: shelf against \(peer.name)")
                }
                print(row)
            }
        }
    }

    /// The layouts that keep voicing at the fast speeds (long flat-topped fragments of 100 ms to 2.25x, of
    /// 120 ms beyond) keep the voice's fundamental within 2 Hz (SpeedTests checks the 1.5x layout).
    func testStretchedSpeechKeepsItsPitch() throws {
        try AudioFixtures.require("espeak-ng", "ffmpeg")
        let wav = try speech("en-us")
        let input = try AudioFixtures.readWAV(wav)
        let f0In = Spectral.medianF0(input.samples, rate: input.rate)
        XCTAssertGreaterThan(f0In, 60)
        for speed in [2.0, 3.0] {
            let engine = try PlaybackEngine(book: TestHost.book(wav))
            engine.setSpeed(speed)
            let sink = NullSink(keep: true)
            try engine.run(sink: sink)
            let f0Out = Spectral.medianF0(sink.samples, rate: engine.sampleRate)
            print("fundamental en-us at \(speed)x: \(f0In) Hz became \(f0Out) Hz")
            XCTAssertEqual(f0Out, f0In, accuracy: 2, "en-us at \(speed)x: fundamental \(f0In) Hz became \(f0Out) Hz")
        }
    }
}
