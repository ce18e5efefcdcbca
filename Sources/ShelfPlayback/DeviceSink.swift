import ShelfCore
import Foundation
import Glibc

/// The sound device: PulseAudio (libpulse-simple, also served by PipeWire) or else ALSA, both
/// opened with dlopen so that shelf has no link dependency on either. Paced: `write` blocks.
public final class DeviceSink: AudioSink {
    public var isPaced: Bool { true }
    public private(set) var name = "sound device"
    private var backend: Backend?

    private enum Backend {
        case pulse(
            library: UnsafeMutableRawPointer, simple: OpaquePointer, write: PulseWrite, drain: PulseDrain,
            flush: PulseDrain, free: PulseFree)
        case alsa(
            library: UnsafeMutableRawPointer, pcm: OpaquePointer, writei: AlsaWrite, recover: AlsaRecover,
            drain: AlsaClose, drop: AlsaClose, close: AlsaClose, channels: Int)
    }

    private struct PASampleSpec { var format: Int32; var rate: UInt32; var channels: UInt8 }
    private typealias PulseNew =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?,
            UnsafeMutablePointer<Int32>?
        ) -> OpaquePointer?
    private typealias PulseWrite =
        @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias PulseDrain = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias PulseFree = @convention(c) (OpaquePointer?) -> Void
    private typealias AlsaOpen =
        @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    private typealias AlsaSetParams =
        @convention(c) (OpaquePointer?, Int32, Int32, UInt32, UInt32, Int32, UInt32) -> Int32
    private typealias AlsaWrite = @convention(c) (OpaquePointer?, UnsafeRawPointer?, UInt) -> Int
    private typealias AlsaRecover = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    private typealias AlsaClose = @convention(c) (OpaquePointer?) -> Int32
    /// snd_lib_error_handler_t is variadic; a handler that reads none of its arguments can be given as one that
    /// takes only the fixed ones (the caller's extra arguments are ignored, as the C calling convention allows).
    private typealias AlsaErrorHandler =
        @convention(c) (
            UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32,
            UnsafePointer<CChar>?
        ) -> Void
    private typealias AlsaSetErrorHandler = @convention(c) (AlsaErrorHandler?) -> Int32

    public init() {}

    public func start(sampleRate: Int, channels: Int) throws {
        var reasons: [String] = []
        if let lib = dlopen("libpulse-simple.so.0", RTLD_NOW | RTLD_LOCAL) {
            if let n = dlsym(lib, "pa_simple_new"), let w = dlsym(lib, "pa_simple_write"),
                let d = dlsym(lib, "pa_simple_drain"),
                let fl = dlsym(lib, "pa_simple_flush"), let f = dlsym(lib, "pa_simple_free")
            {
                var spec = PASampleSpec(
                    format: 5 /* PA_SAMPLE_FLOAT32LE */, rate: UInt32(sampleRate), channels: UInt8(channels))
                var error: Int32 = 0
                let new = unsafeBitCast(n, to: PulseNew.self)
                let simple = withUnsafePointer(to: &spec) {
                    new(nil, "shelf", 1 /* PLAYBACK */, nil, "audiobook", UnsafeRawPointer($0), nil, nil, &error)
                }
                if let simple {
                    backend = .pulse(
                        library: lib, simple: simple, write: unsafeBitCast(w, to: PulseWrite.self),
                        drain: unsafeBitCast(d, to: PulseDrain.self), flush: unsafeBitCast(fl, to: PulseDrain.self),
                        free: unsafeBitCast(f, to: PulseFree.self))
                    name = "PulseAudio"
                    return
                }
                reasons.append("PulseAudio refused the connection (error \(error))")
            }
            dlclose(lib)
        } else {
            reasons.append("PulseAudio is not installed (libpulse-simple.so.0)")
        }
        if let lib = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL) {
            if let o = dlsym(lib, "snd_pcm_open"), let p = dlsym(lib, "snd_pcm_set_params"),
                let w = dlsym(lib, "snd_pcm_writei"),
                let r = dlsym(lib, "snd_pcm_recover"), let d = dlsym(lib, "snd_pcm_drain"),
                let dr = dlsym(lib, "snd_pcm_drop"),
                let c = dlsym(lib, "snd_pcm_close")
            {
                // ALSA prints its own errors ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'", eight
                // lines without a sound card) before shelf can say what is wrong: its reasons are in the status codes.
                if let setHandler = dlsym(lib, "snd_lib_error_set_handler") {
                    _ = unsafeBitCast(setHandler, to: AlsaSetErrorHandler.self)({ _, _, _, _, _ in })
                }
                var pcm: OpaquePointer?
                let status = unsafeBitCast(o, to: AlsaOpen.self)(&pcm, "default", 0, 0)
                if status >= 0, let pcm {
                    let set = unsafeBitCast(p, to: AlsaSetParams.self)(
                        pcm, 14 /* FLOAT_LE */, 3 /* RW_INTERLEAVED */,
                        UInt32(channels), UInt32(sampleRate), 1, 300_000)
                    if set >= 0 {
                        backend = .alsa(
                            library: lib, pcm: pcm, writei: unsafeBitCast(w, to: AlsaWrite.self),
                            recover: unsafeBitCast(r, to: AlsaRecover.self),
                            drain: unsafeBitCast(d, to: AlsaClose.self),
                            drop: unsafeBitCast(dr, to: AlsaClose.self), close: unsafeBitCast(c, to: AlsaClose.self),
                            channels: channels)
                        name = "ALSA"
                        return
                    }
                    _ = unsafeBitCast(c, to: AlsaClose.self)(pcm)
                    reasons.append("ALSA refused \(sampleRate) Hz (error \(set))")
                } else {
                    reasons.append("ALSA has no default device (error \(status))")
                }
            }
            dlclose(lib)
        } else {
            reasons.append("ALSA is not installed (libasound.so.2)")
        }
        throw ShelfError(
            .unavailable, "there is no sound device to play on: \(reasons.joined(separator: "; "))",
            subject: "sound device",
            hint: "Start PipeWire or PulseAudio (or give ALSA a sound card: apt-get install libasound2); "
                + "or play into a file with --out book.wav, or with --null to play without sound.")
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        switch backend {
        case .pulse(_, let s, let write, _, _, _)?:
            var error: Int32 = 0
            if write(s, samples.baseAddress, samples.count * 4, &error) < 0 {
                throw ShelfError(.ioError, "PulseAudio stopped taking sound (error \(error))", subject: "sound device")
            }
        case .alsa(_, let pcm, let writei, let recover, _, _, _, let channels)?:
            var offset = 0
            let frames = samples.count / channels
            var attempts = 0
            while offset < frames {
                let n = writei(pcm, samples.baseAddress! + offset * channels, UInt(frames - offset))
                if n < 0 {
                    attempts += 1
                    if attempts > 5 || recover(pcm, Int32(n), 1) < 0 {
                        throw ShelfError(.ioError, "ALSA stopped taking sound (error \(n))", subject: "sound device")
                    }
                    continue
                }
                offset += n
            }
        case nil: return
        }
    }

    public func discardQueued() {
        switch backend {
        case .pulse(_, let s, _, _, let flush, _)?: var e: Int32 = 0; _ = flush(s, &e)
        case .alsa(_, let pcm, _, _, _, let drop, _, _)?: _ = drop(pcm)
        case nil: break
        }
    }

    public func finish() throws {
        switch backend {
        case .pulse(let lib, let s, _, let drain, _, let free)?:
            var e: Int32 = 0
            _ = drain(s, &e)
            free(s)
            dlclose(lib)
        case .alsa(let lib, let pcm, _, _, let drain, _, let close, _)?:
            _ = drain(pcm)
            _ = close(pcm)
            dlclose(lib)
        case nil: break
        }
        backend = nil
    }
}
