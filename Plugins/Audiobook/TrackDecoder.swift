import CFFmpeg
import Foundation
import PluginAPI
import PluginKit

/// One track decoded with FFmpeg to interleaved float32, with sample-accurate seeking.
///
/// Frame numbers count from the first sample decoding from the start yields (encoder delay and
/// priming already removed by FFmpeg's skip-samples handling). A seek goes to a packet some way
/// before the target (pre-roll, so that the decoder's state has settled), aligns on the first
/// decoded frame's timestamp, and drops samples up to the target.
final class TrackDecoder: AudioDecoder {
    private let media: MediaFile
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var swr: OpaquePointer?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let inRate: Int
    private let tb: AVRational
    let format: AudioFormat

    /// Timestamp (stream time base) of frame 0.
    private var origin: Int64 = 0
    private var pending: [Float] = []
    private var pendingHead = 0
    private var scratch: [Float] = []
    private var nextIndex: Int64 = 0  // output frame index of the next decoded sample
    private var dropUntil: Int64?  // after a seek: drop samples before this frame
    private var needAlign = true
    private var inputEnded = false
    private var ended = false
    private var seekTarget: Int64 = 0
    private var seekAttempt = 0
    private var consecutiveErrors = 0
    /// The frame the next read returns.
    private var cursor: Int64 = 0

    init(path: String, sampleRate: Int?, channels: Int?) throws {
        media = try MediaFile(path: path)
        let stream = media.stream
        tb = stream.pointee.time_base
        guard let par = stream.pointee.codecpar, let decoderCodec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw PluginFailure.badData("uses an audio codec this FFmpeg cannot decode", at: path)
        }
        guard let ctx = avcodec_alloc_context3(decoderCodec) else {
            throw PluginFailure(SHELF_E_NO_MEMORY, "out of memory")
        }
        codec = ctx
        guard avcodec_parameters_to_context(ctx, par) >= 0 else {
            throw PluginFailure.badData("has audio parameters FFmpeg refuses", at: path)
        }
        ctx.pointee.pkt_timebase = tb
        let status = avcodec_open2(ctx, decoderCodec, nil)
        guard status >= 0 else { throw PluginFailure.badData("cannot be decoded (\(FF.message(status)))", at: path) }
        inRate = Int(ctx.pointee.sample_rate)
        let inChannels = Int(ctx.pointee.ch_layout.nb_channels)
        guard (1...768_000).contains(inRate), (1...64).contains(inChannels) else {
            throw PluginFailure.badData(
                "declares an impossible sample rate or channel count (\(inRate) Hz, \(inChannels))", at: path)
        }
        let outRate = sampleRate ?? inRate
        let outChannels = channels ?? min(inChannels, 16)
        guard (1...768_000).contains(outRate), (1...16).contains(outChannels) else {
            throw PluginFailure.unsupported("cannot produce \(outRate) Hz with \(outChannels) channels")
        }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, frame != nil else { throw PluginFailure(SHELF_E_NO_MEMORY, "out of memory") }

        // The length the data holds (TrackLength), else the header's claim.
        let measured = TrackLength.measure(media)
        var total = measured?.frames
        let exact = measured?.exact ?? false
        if total == nil, let d = media.declaredDuration { total = Int64((d * Double(inRate)).rounded()) }
        let rateIn = inRate
        let outTotal = total.map {
            outRate == rateIn ? $0 : Int64((Double($0) * Double(outRate) / Double(rateIn)).rounded())
        }
        format = AudioFormat(
            sampleRate: outRate, channels: outChannels, totalFrames: outTotal,
            framesExact: exact && outRate == rateIn)
        try makeResampler()
        // Frame 0's timestamp: the first frame decoded from the start.
        try rewind()
        needAlign = false
        origin = FF.noPTS
        if try decodeMore(), origin == FF.noPTS { origin = 0 }
        if origin == FF.noPTS { origin = 0 }
    }

    deinit {
        if swr != nil { swr_free(&swr) }
        if codec != nil { avcodec_free_context(&codec) }
        if packet != nil { av_packet_free(&packet) }
        if frame != nil { av_frame_free(&frame) }
    }

    private func makeResampler() throws {
        guard let codec else { return }
        var inLayout = AVChannelLayout()
        if codec.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inLayout, codec.pointee.ch_layout.nb_channels)
        } else {
            av_channel_layout_copy(&inLayout, &codec.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(format.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        if swr != nil { swr_free(&swr) }
        var ctx: OpaquePointer?
        let status = swr_alloc_set_opts2(
            &ctx, &outLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate),
            &inLayout, codec.pointee.sample_fmt, Int32(inRate), 0, nil)
        guard status >= 0, let ctx, swr_init(ctx) >= 0 else {
            var c = ctx
            swr_free(&c)
            throw PluginFailure(
                SHELF_E_UNSUPPORTED, "cannot convert this track's samples (\(FF.message(status)))", at: media.path)
        }
        swr = ctx
    }

    /// Back to the first packet, decoder and resampler emptied.
    private func rewind() throws {
        guard let ctx = media.context else { return }
        let start = media.stream.pointee.start_time
        var first = start == FF.noPTS ? 0 : start
        // The first packet may lie before the start: AAC's priming frame in an MP4, at a time before 0 that the edit
        // list hides. Seeking to the start passed over it, and without that frame, which the first sound overlaps,
        // the decoder began nearly silent for about 10 ms (a gap at every join of AAC tracks).
        if let entry = avformat_index_get_entry(media.stream, 0), entry.pointee.timestamp < first {
            first = entry.pointee.timestamp
        }
        var status = avformat_seek_file(ctx, media.streamIndex, Int64.min, first, first, 0)
        if status < 0 { status = av_seek_frame(ctx, -1, 0, 4) }  // AVSEEK_FLAG_BYTE
        if status < 0 { status = av_seek_frame(ctx, media.streamIndex, Int64.min, 1) }
        resetDecoding()
    }

    private func resetDecoding() {
        if let codec { avcodec_flush_buffers(codec) }
        if let swr {
            swr_close(swr)
            swr_init(swr)
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
        inputEnded = false
        ended = false
        needAlign = true
    }

    // MARK: AudioDecoder

    func seek(toFrame target: Int64) throws {
        seekTarget = max(0, target)
        cursor = seekTarget
        seekAttempt = 0
        try seekForTarget()
    }

    private func seekForTarget() throws {
        guard let ctx = media.context else { return }
        dropUntil = seekTarget
        let preroll = Int64(inRate / 5) << (2 * Int64(seekAttempt))
        let inTarget =
            format.sampleRate == inRate
            ? seekTarget
            : Int64((Double(seekTarget) * Double(inRate) / Double(format.sampleRate)).rounded(.down))
        let from = inTarget - preroll
        if from <= 0 || seekAttempt >= 3 {
            try rewind()
            return
        }
        let ts = origin &+ av_rescale_q(from, AVRational(num: 1, den: Int32(inRate)), tb)
        let status = av_seek_frame(ctx, media.streamIndex, ts, 1)  // AVSEEK_FLAG_BACKWARD
        if status < 0 {
            try rewind()
            return
        }
        resetDecoding()
    }

    func read(into buffer: UnsafeMutablePointer<Float>, capacity: Int) throws -> Int {
        let channels = format.channels
        guard capacity > 0 else { return 0 }
        while pending.count - pendingHead < capacity * channels, !ended {
            if try !decodeMore() { ended = true }
        }
        var available = (pending.count - pendingHead) / channels
        // A stated exact length is the truth: codecs pad their last frame (AAC) beyond it.
        if format.framesExact, let total = format.totalFrames {
            available = Int(min(Int64(available), max(0, total - cursor)))
        }
        let n = min(available, capacity)
        cursor += Int64(n)
        if n > 0 {
            pending.withUnsafeBufferPointer { src in
                buffer.update(from: src.baseAddress! + pendingHead, count: n * channels)
            }
            pendingHead += n * channels
        }
        if pendingHead > 0, pendingHead * 2 >= pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return n
    }

    // MARK: Decoding

    /// Decodes one more frame into `pending`; false at the end of the track.
    private func decodeMore() throws -> Bool {
        guard let codec, let packet, let frame, let ctx = media.context else { return false }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                consecutiveErrors = 0
                if try handle(frame) { return true }
                continue
            }
            if received == FF.eof { return flushResampler() }
            if received != FF.again {
                consecutiveErrors += 1
                if consecutiveErrors > 1000 {
                    throw PluginFailure.badData("cannot be decoded further (\(FF.message(received)))", at: media.path)
                }
                continue
            }
            if inputEnded { return flushResampler() }
            let read = av_read_frame(ctx, packet)
            if read < 0 {
                inputEnded = true
                avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == media.streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0, sent != FF.again {
                consecutiveErrors += 1  // a broken packet: skip it
                if consecutiveErrors > 1000 {
                    throw PluginFailure.badData("cannot be decoded further (\(FF.message(sent)))", at: media.path)
                }
            }
        }
    }

    private func flushResampler() -> Bool {
        guard let swr else { return false }
        let extra = Int(swr_get_delay(swr, Int64(format.sampleRate))) + 32
        guard extra > 32 else { return false }
        let got = convert(nil, count: 0, capacity: extra)
        if got > 0 { append(got); return true }
        return false
    }

    /// Converts and appends one decoded frame; false when all of it was dropped.
    private func handle(_ frame: UnsafeMutablePointer<AVFrame>) throws -> Bool {
        let nb = Int(frame.pointee.nb_samples)
        guard nb > 0 else { return false }
        if origin == FF.noPTS {
            let pts = frame.pointee.best_effort_timestamp
            origin = pts == FF.noPTS ? 0 : pts
        }
        if needAlign {
            needAlign = false
            let pts = frame.pointee.best_effort_timestamp
            if pts != FF.noPTS {
                let inIndex = av_rescale_q(pts &- origin, tb, AVRational(num: 1, den: Int32(inRate)))
                nextIndex =
                    format.sampleRate == inRate
                    ? inIndex
                    : Int64((Double(inIndex) * Double(format.sampleRate) / Double(inRate)).rounded())
                if let drop = dropUntil, nextIndex > drop, seekAttempt < 3 {
                    // Landed after the target: seek again from further back.
                    seekAttempt += 1
                    try seekForTarget()
                    return false
                }
            } else if dropUntil != nil, dropUntil != 0 {
                // Cannot tell where this is: decode from the start instead.
                seekAttempt = 3
                try seekForTarget()
                return false
            }
        }
        let capacity = swr_get_out_samples(swr, Int32(nb))
        let got = convert(frame, count: nb, capacity: max(Int(capacity), nb) + 16)
        guard got > 0 else { return false }
        return append(got)
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>?, count: Int, capacity: Int) -> Int {
        guard let swr else { return 0 }
        let channels = format.channels
        if scratch.count < capacity * channels { scratch = [Float](repeating: 0, count: capacity * channels) }
        return scratch.withUnsafeMutableBytes { raw -> Int in
            var out: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let got: Int32
            if let frame, let data = frame.pointee.extended_data {
                got = data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { input in
                    swr_convert(swr, &out, Int32(capacity), input, Int32(count))
                }
            } else {
                got = swr_convert(swr, &out, Int32(capacity), nil, 0)
            }
            return got > 0 ? Int(got) : 0
        }
    }

    /// Appends `count` converted frames from scratch, dropping what lies before a seek target.
    @discardableResult
    private func append(_ count: Int) -> Bool {
        let channels = format.channels
        var skip = 0
        if let drop = dropUntil {
            if nextIndex + Int64(count) <= drop {
                nextIndex += Int64(count)
                return false
            }
            skip = Int(max(0, drop - nextIndex))
            dropUntil = nil
        }
        if nextIndex < 0 { skip = max(skip, Int(min(Int64(count), -nextIndex))) }
        nextIndex += Int64(count)
        guard skip < count else { return false }
        scratch.withUnsafeBufferPointer { src in
            pending.append(
                contentsOf: UnsafeBufferPointer(
                    start: src.baseAddress! + skip * channels,
                    count: (count - skip) * channels))
        }
        return true
    }
}
