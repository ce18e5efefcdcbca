import ShelfCore
import Foundation

/// A narrated book's media overlay made into tracks the listening session plays: for each narrated chapter (a
/// reading-order item with clips), the audio spans of its clips in play order, cut from the book's audio files and
/// joined into one WAV file that grows as it is cut (16-bit, at the first audio file's rate), as SpeechRecorder
/// speaks a book with text. The session plays those files as an audiobook's tracks, the one still being cut as a
/// part still downloading (GrowingTrack); each clip's place in its track is a mark, so that the phrase heard, the
/// place and the clips played are known from the playing position.
///
/// Clips the patron chose to skip (`skip`) are left out of the tracks. Cutting runs on a thread of its own, from
/// the chapter and clip where listening starts to the end of the book; chapters before it are not cut in this
/// session. A clip whose audio cannot be had or decoded plays nothing (its mark has no frames) and the rest goes
/// on; `problems` says which. The tracks' progress is `tracks` (ChapterTracks, shared with a book read aloud).
/// Unchecked Sendable: the state is under `tracks`' lock or `own`, the cutting thread's values are its own.
public final class NarrationRecorder: @unchecked Sendable {
    /// One phrase of the narration: the text it reads (`href#id`) and the audio span that reads it.
    public struct Clip: Sendable, Equatable {
        public let text: String
        public let audio: String?
        public let begin: Double
        /// Nil: to the end of the audio.
        public let end: Double?
        public let types: [String]
        public let structure: String?

        public init(text: String, audio: String?, begin: Double, end: Double?, types: [String], structure: String?) {
            (self.text, self.audio, self.begin, self.end, self.types, self.structure) = (
                text, audio, begin, end, types, structure
            )
        }
    }

    /// A narrated reading-order item.
    public struct Chapter: Sendable {
        public let href: String
        public let type: String?
        public let title: String?
        public let clips: [Clip]

        public init(href: String, type: String?, title: String?, clips: [Clip]) {
            (self.href, self.type, self.title, self.clips) = (href, type, title, clips)
        }
    }

    /// A clip in its track: which clip of the chapter, the frame where it starts and how many frames it lasts.
    public struct Mark: Sendable, Equatable {
        public let clip: Int
        public let frame: Int64
        public let frames: Int64
    }

    /// Where cutting starts.
    public struct Start: Sendable, Equatable {
        public var chapter: Int
        public var clip: Int
        public init(chapter: Int, clip: Int = 0) { (self.chapter, self.clip) = (chapter, clip) }
    }

    public let chapters: [Chapter]
    public let start: Start
    public let tracks: ChapterTracks<Mark>
    /// Whether a clip is left out (a skippable structure the patron skips).
    let skip: @Sendable (Clip) -> Bool
    /// Opens the audio file a clip names (an href of the book) as an audiobook of one track.
    let open: (String) throws -> AudioBook
    /// No clip plays further than this into its audio: a hostile clipBegin cannot ask for a frame past Int64.
    static let maxSeconds = 1e7

    /// The tracks' format once the first audio opened, and the audio files that could not be played.
    private let own = NSLock()
    private var format: (rate: Int, channels: Int)?
    private var troubles: [Problem] = []

    public init(
        chapters: [Chapter], start: Start, folder: URL, skip: @escaping @Sendable (Clip) -> Bool,
        open: @escaping (String) throws -> AudioBook
    ) {
        (self.chapters, self.start, self.skip, self.open) = (chapters, start, skip, open)
        tracks = ChapterTracks(folder: folder, firstChapter: start.chapter)
    }

    /// Starts cutting on a thread of its own.
    public func begin() {
        // The decoders are the cutting thread's alone, kept from one chapter to the next.
        tracks.begin(count: chapters.count, initial: { [self] in Sources(open: open) }) { [self] in
            try record($0, sources: &$1)
        }
    }

    /// Waits until the first chapter's track holds `frames` of sound, or is whole, so that playback can begin;
    /// throws what stopped cutting before it did.
    public func waitForFirstSound(frames wanted: Int64 = 4096, timeout: TimeInterval = 30) throws {
        try tracks.waitForFirstSound(frames: wanted, timeout: timeout) {
            ShelfError(.temporary, "the narration's audio gave no sound within \(Int(timeout)) s")
        }
    }

    public var sampleRate: Int? { own.withLock { format?.rate } }
    /// An audio file of the book that could not be played, and why; its clips are silent.
    public struct Problem: Sendable, Equatable {
        public let audio: String
        public let reason: String
    }

    /// What could not be played so far, each audio file once.
    public var problems: [Problem] { own.withLock { troubles } }

    // MARK: Cutting one chapter

    /// The decoders of the audio files, kept while consecutive clips read on in one file (the usual case: a
    /// narration's clips follow one another in its audio), opened again when a clip starts elsewhere.
    struct Sources {
        let open: (String) throws -> AudioBook
        var books: [String: AudioBook] = [:]
        var failed: [String: Error] = [:]
        var current: (audio: String, decoder: TrackPCMDecoder, at: Int64)?

        mutating func book(_ href: String) throws -> AudioBook {
            if let book = books[href] { return book }
            if let error = failed[href] { throw error }
            do {
                let book = try open(href)
                books[href] = book
                return book
            } catch {
                failed[href] = error
                throw error
            }
        }
    }

    private func record(_ index: Int, sources: inout Sources) throws {
        let chapter = chapters[index]
        let first = index == start.chapter ? min(start.clip, chapter.clips.count) : 0
        // The track's format is the first audio's that opens: every clip is decoded to it.
        if own.withLock({ format }) == nil {
            for clip in chapter.clips[first...] {
                guard let audio = clip.audio, let decoder = try? sources.book(audio).openDecoder(track: 0) else {
                    continue
                }
                own.withLock { format = (decoder.sampleRate, min(decoder.channels, 2)) }
                break
            }
        }
        let (rate, channels) = own.withLock { format } ?? (22050, 1)
        let sink = WAVFileSink(path: tracks.path(of: index).path)
        try sink.start(sampleRate: rate, channels: channels)
        tracks.starting(index)
        var written: Int64 = 0
        var buffer = [Float](repeating: 0, count: 8192 * channels)
        for (i, clip) in chapter.clips.enumerated() where i >= first && !skip(clip) {
            if tracks.isStopped { return }
            let from = written
            // The clip is marked as it starts: the phrase is known from its first sound.
            tracks.grew(index, to: written, adding: [Mark(clip: i, frame: from, frames: 0)])
            if let audio = clip.audio {
                do {
                    written += try cut(
                        clip, audio: audio, format: (rate, channels), chapter: index, after: written, into: sink,
                        buffer: &buffer, sources: &sources)
                } catch {
                    sources.current = nil
                    note(Problem(audio: audio, reason: "\(error)"))
                }
            }
            tracks.grew(index, to: written, last: Self.lasting(written - from))
        }
        try sink.finish()
        tracks.finished(index)
    }

    /// Writes one clip's frames into `sink` after the track's first `base` frames; how many.
    private func cut(
        _ clip: Clip, audio: String, format: (rate: Int, channels: Int), chapter: Int, after base: Int64,
        into sink: WAVFileSink, buffer: inout [Float], sources: inout Sources
    ) throws -> Int64 {
        let (rate, channels) = format
        let begin = Int64(min(Self.maxSeconds, max(0, clip.begin)) * Double(rate))
        let end = clip.end.map { Int64(min(Self.maxSeconds, max(0, $0)) * Double(rate)) } ?? Int64.max
        guard end > begin else { return 0 }
        if let current = sources.current, current.audio == audio, current.at == begin {
            // Reading on where the last clip ended.
        } else {
            let decoder = try sources.book(audio).openDecoder(track: 0, sampleRate: rate, channels: channels)
            if begin > 0 { try decoder.seek(toFrame: begin) }
            sources.current = (audio, decoder, begin)
        }
        guard let decoder = sources.current?.decoder else { return 0 }
        var done: Int64 = 0
        while begin + done < end {
            if tracks.isStopped { break }
            let want = Int(min(Int64(8192), end - begin - done))
            let got = try buffer.withUnsafeMutableBufferPointer {
                try decoder.read(into: $0.baseAddress!, capacity: want)
            }
            if got == 0 { break }
            try buffer.withUnsafeBufferPointer {
                try sink.write(UnsafeBufferPointer(rebasing: $0[0..<(got * channels)]))
            }
            done += Int64(got)
            // Published as it grows, so that the first sound does not wait for a long clip.
            tracks.grew(chapter, to: base + done, last: Self.lasting(done))
        }
        sources.current?.at = begin + done
        return done
    }

    /// The clip being cut (a chapter's last mark), now `count` frames long.
    private static func lasting(_ count: Int64) -> (Mark) -> Mark {
        { Mark(clip: $0.clip, frame: $0.frame, frames: count) }
    }

    private func note(_ problem: Problem) {
        own.withLock { if !troubles.contains(where: { $0.audio == problem.audio }) { troubles.append(problem) } }
    }
}
