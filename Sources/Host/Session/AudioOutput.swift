internal import ShelfPlayback

/// Where a listening session's sound goes, as a front end chooses it (`shelf play --out FILE.wav`, `--raw`,
/// `--null`, else the sound device): the front end picks one of these and hands it to `ListeningSession.run(to:)`;
/// the sink behind it is the playback subsystem's.
///
/// Sendable by hand: an output serves one `run`, on whichever thread runs it, and a front end reads `name` only
/// before that run starts or after it returns (the device's name is settled as it starts).
public final class AudioOutput: @unchecked Sendable {
    let sink: any AudioSink

    private init(_ sink: any AudioSink) { self.sink = sink }

    /// The sound device: PulseAudio, else ALSA. Plays at the speed of listening.
    public static func device() -> AudioOutput { AudioOutput(DeviceSink()) }

    /// A 16-bit WAV file at `path`, written as fast as the machine allows.
    public static func wavFile(_ path: String) -> AudioOutput { AudioOutput(WAVFileSink(path: path)) }

    /// Raw signed 16-bit little-endian PCM on standard output, as fast as the reader takes it.
    public static func rawPCM() -> AudioOutput { AudioOutput(RawPCMSink()) }

    /// A 16-bit WAV stream on standard output (`--out -`), as fast as the reader takes it.
    public static func wavOnStandardOutput() -> AudioOutput { AudioOutput(RawPCMSink(wav: true)) }

    /// Nowhere, as fast as possible (for tests and measurements).
    public static func nothing() -> AudioOutput { AudioOutput(NullSink()) }

    /// The output in words: "sound device" ("PulseAudio" or "ALSA" once it played), "WAV file PATH",
    /// "raw PCM on standard output", "nothing (--null)".
    public var name: String { sink.name }
}

extension ListeningSession {
    /// Opens `output` (the sound device, a file) for this book before anything says it plays: a device that is not
    /// there is an error that says what to do. `run(to:)` then plays into it.
    public func open(_ output: AudioOutput) throws { try engine.open(output.sink) }

    /// Plays into `output` until the end, the sleep timer, `quit()` or (with `stopOnInterrupt`) Ctrl-C; the
    /// position is saved as it goes, and when it stops. Says what stopped it.
    @discardableResult
    public func run(to output: AudioOutput, startPaused: Bool = false, stopOnInterrupt: Bool = false) throws
        -> StopReason
    {
        try run(sink: output.sink, startPaused: startPaused, stopOnInterrupt: stopOnInterrupt)
    }
}
