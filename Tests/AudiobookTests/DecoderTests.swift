import Foundation
@testable import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Loads the built plugins into this process, with a home of its own.
enum TestHost {
    static let home: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-audio-home-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let shelf: Shelf = Shelf(
        pluginPaths: [ShelfProcess.buildDirectory.path],
        environment: ["SHELF_HOME": home.path, "HOME": home.path])

    static func book(_ url: URL) throws -> AudioBook {
        try AudioBook(path: url.path, router: shelf.router)
    }
}

final class DecoderTests: XCTestCase {
    /// Seeking to a frame yields the frames that decoding from the start and discarding gives.
    func assertSeeksMatch(
        _ url: URL, track: Int = 0, at seconds: [Double], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let book = try TestHost.book(url)
        let whole = try book.openDecoder(track: track).readAll()
        let probe = try book.openDecoder(track: track)
        let rate = probe.sampleRate
        XCTAssertEqual(probe.channels, 1)
        if probe.framesExact, let total = probe.totalFrames {
            XCTAssertEqual(Int(total), whole.count, "stated frame count is exact", file: file, line: line)
        }
        for s in seconds {
            let frame = Int(s * Double(rate))
            guard frame + 4410 < whole.count else { continue }
            try probe.seek(toFrame: Int64(frame))
            let got = try probe.readAll(limit: 4410)
            let want = Array(whole[frame..<frame + 4410])
            // Where does `got` line up in the reference? Search ±1000 samples for the best match.
            var best = (offset: Int.max, error: Float.infinity)
            for off in -1000...1000 where frame + off >= 0 && frame + off + 4410 <= whole.count {
                var e: Float = 0
                for i in stride(from: 0, to: 4410, by: 7) { e += abs(got[i] - whole[frame + off + i]) }
                if e < best.error { best = (off, e) }
            }
            let ms = Double(abs(best.offset)) / Double(rate) * 1000
            // In a pause between words any offset matches silence: only speech can show a misalignment.
            let rms = (want.reduce(0) { $0 + $1 * $1 } / Float(want.count)).squareRoot()
            if rms > 0.02 {
                XCTAssertLessThanOrEqual(
                    ms, 1.0, "seek to \(s)s is \(ms) ms off (\(best.offset) samples of \(whole.count))", file: file,
                    line: line)
            }
            let maxDiff = zip(got, want).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThan(
                maxDiff, 0.01, "seek to \(s)s: samples differ by up to \(maxDiff)", file: file, line: line)
        }
    }

    func testMP3SeekIsSampleAccurate() throws {
        let url = try AudioFixtures.mp3Book()
        try assertSeeksMatch(
            url, track: 1, at: [0, 0.013, 0.5, 1.234, 2.0, 3.333, 4.9] + stride(from: 0.1, to: 9, by: 0.37).map { $0 })
    }

    func testM4BSeekIsSampleAccurate() throws {
        let (url, _) = try AudioFixtures.m4b()
        try assertSeeksMatch(url, at: [0, 0.021, 1.5, 4.321, 9.87, 14.2])
    }

    func testMP3DurationIsExact() throws {
        let url = try AudioFixtures.mp3Book()
        let book = try TestHost.book(url)
        for i in 0..<3 {
            let d = try book.openDecoder(track: i)
            let n = try d.readAll().count
            let wav = try AudioFixtures.duration(of: AudioFixtures.speechWAV(i))
            XCTAssertTrue(d.framesExact)
            XCTAssertEqual(Int(d.totalFrames ?? -1), n)
            // lame keeps the length (gapless info) to within a frame.
            XCTAssertEqual(Double(n) / 44100, wav, accuracy: 0.03)
        }
    }
}
