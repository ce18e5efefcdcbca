// stdout is a C variable set before main and never reassigned; stdio locks the stream in each call.
// (Before Foundation, which would bring Glibc in without @preconcurrency.)
@preconcurrency import Glibc
import ShelfCore
import Foundation

/// Raw signed 16-bit little-endian interleaved PCM on standard output (for `| aplay -f S16_LE`); with `wav`, after
/// a WAV header whose sizes say "to the end" (`--out -`: a pipe cannot be rewound to write them when playback ends).
public final class RawPCMSink: AudioSink {
    public var isPaced: Bool { false }
    public var name: String { wav ? "WAV on standard output" : "raw PCM on standard output" }
    private var buffer = [Int16]()
    private let wav: Bool
    public init(wav: Bool = false) { self.wav = wav }
    public func start(sampleRate: Int, channels: Int) throws {
        guard wav else { return }
        let header = WAVFileSink.header(rate: sampleRate, channels: channels, dataSize: 0xFFFF_FFFF)
        let written = header.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
        if written < header.count { throw ShelfError(.ioError, "standard output was closed", subject: "stdout") }
    }
    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        buffer.removeAll(keepingCapacity: true)
        for x in samples { buffer.append(int16Sample(x).littleEndian) }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
        if written < buffer.count * 2 {
            throw ShelfError(.ioError, "standard output was closed", subject: "stdout")
        }
    }
    public func finish() throws { fflush(stdout) }
}
