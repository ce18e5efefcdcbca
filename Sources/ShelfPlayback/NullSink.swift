import Foundation

/// Discards everything, as fast as it comes; counts what it was given (for tests).
public final class NullSink: AudioSink {
    public var isPaced: Bool { false }
    public var name: String { "nothing (--null)" }
    public private(set) var framesWritten: Int64 = 0
    public private(set) var channels = 1
    /// Keeps the samples when asked (tests compare them).
    public var keep = false
    public private(set) var samples: [Float] = []
    public init(keep: Bool = false) { self.keep = keep }
    public func start(sampleRate: Int, channels: Int) throws { self.channels = max(1, channels) }
    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        framesWritten += Int64(samples.count / channels)
        if keep { self.samples.append(contentsOf: samples) }
    }
    public func finish() throws {}
}
