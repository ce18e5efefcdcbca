import CFFmpeg
import Foundation
import PluginAPI
import PluginKit

/// FFmpeg constants that are C macros Swift cannot import, and small helpers.
enum FF {
    static let eof: Int32 = -0x2046_4F45  // AVERROR_EOF = -MKTAG('E','O','F',' ')
    static let again: Int32 = -EAGAIN  // AVERROR(EAGAIN)
    static let noPTS: Int64 = Int64.min  // AV_NOPTS_VALUE
    static let timeBase: Int64 = 1_000_000  // AV_TIME_BASE

    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// FFmpeg prints to stderr by default; a plugin never prints.
    static let quiet: Void = { av_log_set_level(-8) }()  // AV_LOG_QUIET

    static func tag(_ dict: OpaquePointer?, _ key: String) -> String? {
        guard let dict, let entry = av_dict_get(dict, key, nil, 0), let value = entry.pointee.value else { return nil }
        let s = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? nil : s
    }

    static func seconds(_ value: Int64, _ tb: AVRational) -> Double? {
        guard value != noPTS, tb.den != 0 else { return nil }
        let s = Double(value) * Double(tb.num) / Double(tb.den)
        return s.isFinite ? s : nil
    }
}

/// An opened container with its best audio stream: what probing and decoding share.
final class MediaFile {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let streamIndex: Int32
    let path: String

    init(path: String) throws {
        _ = FF.quiet
        self.path = path
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_open_input(&ctx, path, nil, nil)
        guard status >= 0, let ctx else {
            if status == -ENOENT {
                throw PluginFailure.notFound("the track file is missing", at: path)
            }
            throw PluginFailure.badData("is not audio that FFmpeg can read (\(FF.message(status)))", at: path)
        }
        context = ctx
        status = avformat_find_stream_info(ctx, nil)
        guard status >= 0 else {
            var c: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&c)
            context = nil
            throw PluginFailure.badData("has no readable streams (\(FF.message(status)))", at: path)
        }
        let index = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0 else {
            var c: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&c)
            context = nil
            throw PluginFailure.badData("holds no audio stream", at: path)
        }
        streamIndex = index
    }

    deinit {
        if context != nil { avformat_close_input(&context) }
    }

    var stream: UnsafeMutablePointer<AVStream> { context!.pointee.streams[Int(streamIndex)]! }

    var formatName: String { context?.pointee.iformat?.pointee.name.map { String(cString: $0) } ?? "" }

    /// The container's or stream's duration in seconds (a header value, not measured).
    var declaredDuration: Double? {
        let s = stream.pointee
        if let d = FF.seconds(s.duration, s.time_base), d > 0 { return d }
        guard let ctx = context, ctx.pointee.duration != FF.noPTS, ctx.pointee.duration > 0 else { return nil }
        return Double(ctx.pointee.duration) / Double(FF.timeBase)
    }

    func tag(_ key: String) -> String? {
        FF.tag(context?.pointee.metadata, key) ?? FF.tag(stream.pointee.metadata, key)
    }

    /// Chapters (M4B chapter atoms and tracks, ID3 CHAP frames), with start times in seconds.
    var chapters: [(title: String?, start: Double)] {
        guard let ctx = context, ctx.pointee.nb_chapters > 0, let list = ctx.pointee.chapters else { return [] }
        var out: [(String?, Double)] = []
        for i in 0..<Int(min(ctx.pointee.nb_chapters, 100_000)) {
            guard let ch = list[i] else { continue }
            let start = FF.seconds(ch.pointee.start, ch.pointee.time_base) ?? 0
            out.append((FF.tag(ch.pointee.metadata, "title"), max(0, start)))
        }
        return out.sorted { $0.1 < $1.1 }
    }
}
