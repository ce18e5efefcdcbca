// stdout is a C variable set before main and never reassigned; stdio locks the stream in each call.
// (Before Foundation, which would bring Glibc in without @preconcurrency.)
@preconcurrency import Glibc
import ShelfCore
import Foundation

/// Raw signed 16-bit little-endian interleaved PCM on standard output (for `| aplay -f S16_LE`).
public final class RawPCMSink: AudioSink {
    public var isPaced: Bool { false }
    public var name: String { "raw PCM on standard output" }
    private var buffer = [Int16]()
    public init() {}
    public func start(sampleRate: Int, channels: Int) throws {}
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
