import Foundation
import Host
import ShelfPlayback
import TestSupport
import XCTest

/// The book's own volume above 100% is louder without clipping: espeak-ng's speech peaks at
/// about -1.4 dBFS, so doubling it would cut thousands of samples flat.
final class VolumeTests: XCTestCase {
    func render(volume: Double) throws -> [Float] {
        let engine = try PlaybackEngine(book: TestHost.book(AudioFixtures.mp3Book()))
        engine.setVolume(volume)
        let sink = NullSink(keep: true)
        try engine.run(sink: sink)
        return sink.samples
    }

    func rms(_ x: [Float]) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot() }

    func testVolumeAboveFullNeverClipsAndIsLouder() throws {
        let plain = try render(volume: 1)
        XCTAssertGreaterThan(plain.map { abs($0) }.max() ?? 0, 0.5, "the speech is loud enough to clip when doubled")
        for volume in [1.5, 2.0] {
            let loud = try render(volume: volume)
            XCTAssertEqual(loud.count, plain.count)
            // What 16-bit output would hold at its extremes: a sample at or past full scale is clipped.
            let clipped = loud.filter { abs($0) >= 1 }.count
            XCTAssertEqual(clipped, 0, "\(clipped) clipped samples at \(Int(volume * 100))%")
            XCTAssertGreaterThan(
                rms(loud) / rms(plain), volume * 0.8, "the limiter keeps most of the gain at \(Int(volume * 100))%")
        }
        // At or below 100% the volume is a plain multiplication.
        let half = try render(volume: 0.5)
        XCTAssertEqual(
            Double(half[1000...].first { $0 != 0 } ?? 0), Double(plain[1000...].first { $0 != 0 } ?? 0) / 2,
            accuracy: 1e-6)
    }
}
