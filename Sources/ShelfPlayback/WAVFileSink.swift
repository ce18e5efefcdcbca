import ShelfCore
import Foundation

/// A RIFF/WAVE file of 16-bit PCM; the header's sizes are written when playback ends, so a
/// crash leaves a file that players still open (with sizes of 0xFFFFFFFF meaning "to the end"). The same header lets
/// a track be read while it grows (ffmpeg reads what is there): `shelf play --out`, and the spoken and narrated
/// tracks the recorders write as they go.
public final class WAVFileSink: AudioSink {
    public let path: String
    public var isPaced: Bool { false }
    public var name: String { "WAV file \(path)" }
    private var descriptor: Int32 = -1
    private var dataBytes: UInt64 = 0
    private var rate = 0, channels = 0
    private var buffer = [UInt8]()

    public init(path: String) { self.path = path }

    /// The rate and channels once started.
    public var format: (rate: Int, channels: Int)? { channels > 0 ? (rate, channels) : nil }

    /// The frames written so far.
    public var frames: Int64 { channels > 0 ? Int64(dataBytes) / Int64(2 * channels) : 0 }

    public func start(sampleRate: Int, channels: Int) throws {
        rate = sampleRate
        self.channels = channels
        // Written through a link and refused on a device or folder (OutputFile), never replaced by a new file.
        let opened = try OutputFile.open(path)
        dataBytes = 0
        do {
            try header(dataSize: 0xFFFF_FFFF).withUnsafeBytes {
                try OutputFile.write($0, at: 0, to: opened, path: path)
            }
        } catch {
            close(opened)
            throw error
        }
        descriptor = opened
    }

    private func header(dataSize: UInt64) -> Data { Self.header(rate: rate, channels: channels, dataSize: dataSize) }

    /// A 16-bit PCM WAV header; a `dataSize` of 0xFFFFFFFF or more says "to the end of the file".
    static func header(rate: Int, channels: Int, dataSize: UInt64) -> Data {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        let data32 = UInt32(min(dataSize, 0xFFFF_FFFF - 36))
        d.append(contentsOf: Array("RIFF".utf8)); u32(dataSize >= 0xFFFF_FFFF - 36 ? 0xFFFF_FFFF : data32 + 36)
        d.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16)
        u16(1); u16(UInt16(channels)); u32(UInt32(rate)); u32(UInt32(rate * channels * 2)); u16(UInt16(channels * 2));
        u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(dataSize >= 0xFFFF_FFFF - 36 ? 0xFFFF_FFFF : data32)
        return d
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        guard descriptor >= 0 else { return }
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(samples.count * 2)
        for x in samples {
            let v = UInt16(bitPattern: int16Sample(x))
            buffer.append(UInt8(v & 0xFF))
            buffer.append(UInt8(v >> 8))
        }
        try buffer.withUnsafeBytes { try OutputFile.write($0, at: 44 + dataBytes, to: descriptor, path: path) }
        dataBytes += UInt64(buffer.count)
    }

    /// `seconds` of silence (a pause between passages read aloud).
    public func silence(_ seconds: Double) throws {
        guard descriptor >= 0, seconds > 0 else { return }
        let zeros = [Float](repeating: 0, count: Int(seconds * Double(rate)) * channels)
        try zeros.withUnsafeBufferPointer { try write($0) }
    }

    public func finish() throws {
        guard descriptor >= 0 else { return }
        let finishing = descriptor
        descriptor = -1
        do {
            try header(dataSize: dataBytes).withUnsafeBytes {
                try OutputFile.write($0, at: 0, to: finishing, path: path)
            }
        } catch {
            close(finishing)
            throw error
        }
        guard close(finishing) == 0 else { throw OutputFile.failure("cannot finish", path, errno) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
