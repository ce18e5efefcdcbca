import ShelfCore
import ShelfPlugins
import Foundation
import PluginAPI

/// One track's decoder on the plugin side (`shelf_audio_decoder`): interleaved float32 frames.
public final class TrackPCMDecoder {
    public let sampleRate: Int
    public let channels: Int
    /// Frames, when known; `framesExact` says whether it is the count read will deliver.
    public let totalFrames: Int64?
    public let framesExact: Bool
    let book: AudioBook
    private let raw: OpaquePointer
    public let href: String

    init(book: AudioBook, href: String, options: String?, sampleRate: Int, channels: Int) throws {
        self.book = book
        self.href = href
        var format = shelf_audio_format()
        format.struct_size = UInt32(MemoryLayout<shelf_audio_format>.size)
        format.sample_rate = UInt32(clamping: sampleRate)
        format.channels = UInt32(clamping: channels)
        var out: OpaquePointer?
        var error = PluginCall.newError()
        let table = book.audio
        let status = book.plugin.call {
            book.withHandle { handle in
                href.withCString { cHref in
                    withOptionalCString(options) { cOptions in
                        table.pointee.open_decoder(handle, cHref, cOptions, &format, &out, &error)
                    }
                }
            }
        }
        do { try PluginCall.check(status, &error, book.plugin) } catch let failure as PluginCallError {
            throw failure.shelfError(subject: href)
        }
        guard let out else {
            throw ShelfError(.software, "plugin \(book.plugin.descriptor.id) returned no decoder", subject: href)
        }
        raw = out
        guard format.sample_format == UInt32(SHELF_AUDIO_SAMPLE_F32), (1...768_000).contains(format.sample_rate),
            (1...16).contains(format.channels)
        else {
            book.plugin.call { table.pointee.close_decoder(out) }
            throw ShelfError(
                .software, "plugin \(book.plugin.descriptor.id) described an impossible PCM format", subject: href)
        }
        self.sampleRate = Int(format.sample_rate)
        self.channels = Int(format.channels)
        self.totalFrames = format.total_frames >= 0 ? format.total_frames : nil
        self.framesExact = format.frames_exact != 0 && format.total_frames >= 0
    }

    deinit {
        let (table, raw) = (book.audio, self.raw)
        book.plugin.call { table.pointee.close_decoder(raw) }
    }

    public func seek(toFrame frame: Int64) throws {
        var error = PluginCall.newError()
        let table = book.audio
        let status = book.plugin.call { table.pointee.seek(raw, max(0, frame), &error) }
        do { try PluginCall.check(status, &error, book.plugin) } catch let failure as PluginCallError {
            throw failure.shelfError(subject: href)
        }
    }

    /// Reads up to `capacity` frames into `buffer` (capacity * channels floats); 0 at the end.
    public func read(into buffer: UnsafeMutablePointer<Float>, capacity: Int) throws -> Int {
        var got = 0
        var error = PluginCall.newError()
        let table = book.audio
        let status = book.plugin.call { table.pointee.read(raw, buffer, capacity, &got, &error) }
        do { try PluginCall.check(status, &error, book.plugin) } catch let failure as PluginCallError {
            throw failure.shelfError(subject: href)
        }
        return min(max(got, 0), capacity)
    }

    /// Reads the rest of the track (for tests and measuring).
    public func readAll(limit: Int = Int.max) throws -> [Float] {
        var out: [Float] = []
        var chunk = [Float](repeating: 0, count: 8192 * channels)
        while out.count / channels < limit {
            let n = try chunk.withUnsafeMutableBufferPointer {
                try read(into: $0.baseAddress!, capacity: min(8192, limit - out.count / channels))
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<(n * channels)])
        }
        return out
    }
}
