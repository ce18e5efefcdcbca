import CFFmpeg
import Foundation

/// How many frames a track's data really holds, found by demuxing only (no decoding).
///
/// A header's duration is a claim: a file cut short still declares its whole length. Elementary
/// streams (MP3, ADTS, Ogg, FLAC, WAV) are scanned packet by packet, which also indexes them for
/// seeking; MP4/M4B state every sample in their table, so the table is checked against the bytes
/// that are actually in the file.
enum TrackLength {
    struct Measure {
        /// Frames at the stream's own sample rate.
        var frames: Int64
        /// True when `frames` is the count decoding delivers (not a header's or index's estimate).
        var exact: Bool
    }

    static func measure(_ media: MediaFile) -> Measure? {
        let name = media.formatName
        if name.contains("mov") { return sampleTable(media) }
        if let scanned = scan(media) { return Measure(frames: scanned, exact: true) }
        return nil
    }

    static func frames(_ value: Int64, _ tb: AVRational, rate: Int) -> Int64? {
        guard value != FF.noPTS, value > 0, tb.den > 0, tb.num > 0, rate > 0 else { return nil }
        return av_rescale_q(value, tb, AVRational(num: 1, den: Int32(rate)))
    }

    /// The sample table's length, cut at the first sample whose bytes lie beyond the end of the file.
    private static func sampleTable(_ media: MediaFile) -> Measure? {
        let stream = media.stream
        let tb = stream.pointee.time_base
        let rate = Int(stream.pointee.codecpar.pointee.sample_rate)
        guard let whole = frames(stream.pointee.duration, tb, rate: rate) else { return nil }
        let count = avformat_index_get_entries_count(stream)
        guard count > 0, let size = fileSize(media.path),
            let last = avformat_index_get_entry(stream, count - 1), let first = avformat_index_get_entry(stream, 0)
        else {
            return Measure(frames: whole, exact: true)
        }
        func beyond(_ e: UnsafePointer<AVIndexEntry>) -> Bool { e.pointee.pos + Int64(e.pointee.size) > size }
        guard beyond(last) else {
            // iTunes' gapless count is exact where the edit list's length is rounded to milliseconds.
            let frameSize = Int64(stream.pointee.codecpar.pointee.frame_size)
            let gapless = ITunesGapless(media.tag("iTunSMPB"))?.length(
                decodable: frameSize > 0 ? Int64(count) * frameSize : nil)
            return Measure(frames: gapless ?? whole, exact: true)
        }
        // Samples are stored in time order; walk back to the first one that is not all here.
        var cut = count - 1
        while cut > 0, let e = avformat_index_get_entry(stream, cut - 1), beyond(e) { cut -= 1 }
        guard let entry = avformat_index_get_entry(stream, cut) else { return nil }
        let kept = frames(entry.pointee.timestamp - first.pointee.timestamp, tb, rate: rate) ?? 0
        // The decoder finds the exact end when it runs out of data.
        return Measure(frames: min(kept, whole), exact: false)
    }

    /// Sums packet durations, less the skip-samples FFmpeg will drop at the start and the end.
    private static func scan(_ media: MediaFile) -> Int64? {
        guard let ctx = media.context else { return nil }
        var allocated = av_packet_alloc()
        guard let pkt = allocated else { return nil }
        defer { av_packet_free(&allocated) }
        let stream = media.stream
        let rate = Int(stream.pointee.codecpar.pointee.sample_rate)
        guard rate > 0 else { return nil }
        var sum: Int64 = 0
        var skipStart: Int64 = 0
        var skipEnd: Int64 = 0
        var first = true
        var count = 0
        while av_read_frame(ctx, pkt) >= 0 {
            defer { av_packet_unref(pkt) }
            guard pkt.pointee.stream_index == media.streamIndex else { continue }
            guard pkt.pointee.duration > 0 else { return nil }
            sum += pkt.pointee.duration
            count += 1
            var size: Int = 0
            if let side = av_packet_get_side_data(pkt, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
                let start = Int64(
                    UInt32(side[0]) | UInt32(side[1]) << 8 | UInt32(side[2]) << 16 | UInt32(side[3]) << 24)
                let end = Int64(UInt32(side[4]) | UInt32(side[5]) << 8 | UInt32(side[6]) << 16 | UInt32(side[7]) << 24)
                if first { skipStart = start }
                skipEnd = end
            } else {
                skipEnd = 0
            }
            first = false
        }
        guard count > 0, let frames = frames(sum, stream.pointee.time_base, rate: rate) else {
            return count == 0 ? 0 : nil
        }
        return max(0, frames - skipStart - skipEnd)
    }

    private static func fileSize(_ path: String) -> Int64? {
        // Unknown size: the length is taken from the decoder alone.
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size].flatMap { ($0 as? NSNumber)?.int64Value }
    }
}
