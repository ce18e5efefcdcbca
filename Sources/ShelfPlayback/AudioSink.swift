import Foundation

/// Where the engine's PCM goes: interleaved float32 frames at the engine's rate and channels.
/// A paced sink (a sound device) blocks in `write` at the speed of playback; an unpaced one (a
/// file, nothing) returns at once, so the book plays as fast as the machine allows.
public protocol AudioSink: AnyObject {
    var isPaced: Bool { get }
    var name: String { get }
    func start(sampleRate: Int, channels: Int) throws
    func write(_ samples: UnsafeBufferPointer<Float>) throws
    /// Drops what is queued but not yet heard (pause, seek). Unpaced sinks ignore it.
    func discardQueued()
    /// Plays out what is queued and closes (files are completed here).
    func finish() throws
}

extension AudioSink {
    public func discardQueued() {}
}

/// Float to signed 16-bit, clipped, rounded to nearest.
@inline(__always) func int16Sample(_ x: Float) -> Int16 {
    let v = (x * 32767).rounded()
    return v >= 32767 ? 32767 : v <= -32768 ? -32768 : Int16(v)
}
