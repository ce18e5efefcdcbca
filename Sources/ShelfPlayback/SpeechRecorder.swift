import ShelfCore
import ShelfPlugins
import ShelfValues
import Readium
import Foundation

/// A book's text spoken by a speech plugin ahead of playback, a chapter at a time, each into a WAV file of its own
/// that grows as it is spoken (16-bit, at the plugin's rate): the listening session plays those files as an
/// audiobook's tracks, the one still being spoken as a part still downloading (GrowingTrack), and a browser can
/// be served them as any audiobook's tracks. Beside each finished track, NNN.marks.json holds its word and sentence
/// marks (frames of the track, bytes of the chapter's text).
///
/// Speaking runs on a thread of its own, from the chapter and passage where listening starts to the end of the
/// book; chapters before it are not spoken in this session; the tracks' progress is `tracks` (ChapterTracks, shared
/// with a narration). Unchecked Sendable: safe from any thread, the state is under `tracks`' lock or `own`, and the
/// speaking thread's own values (the file, the counts) are its alone.
public final class SpeechRecorder: @unchecked Sendable {
    /// One reading-order item read aloud: where it is in the book; its text is read when it is first needed.
    public struct Chapter: Sendable {
        public let href: String
        public let type: String?
        public let title: String?
        public init(href: String, type: String?, title: String?) {
            (self.href, self.type, self.title) = (href, type, title)
        }
    }

    /// A chapter's passages, and where each begins in the chapter's text (the passages joined by newlines), which
    /// marks and places count in.
    public struct ChapterText: Sendable {
        public let passages: [SpeechPassage]
        public let starts: [Int]
        public let text: String

        public init(passages: [SpeechPassage]) {
            self.passages = passages
            var starts: [Int] = []
            var at = 0
            for passage in passages {
                starts.append(at)
                at += passage.text.utf8.count + 1
            }
            self.starts = starts
            text = passages.map(\.text).joined(separator: "\n")
        }

        /// The passage holding byte `offset` of the chapter's text, and the offset inside it.
        public func passage(at offset: Int) -> (index: Int, offset: Int) {
            guard !passages.isEmpty else { return (0, 0) }
            let index = max(0, (starts.lastIndex { $0 <= offset }) ?? 0)
            return (index, min(max(0, offset - starts[index]), passages[index].text.utf8.count))
        }

        /// Bytes `offset..<offset+length` of the text.
        public func slice(_ offset: Int, _ length: Int) -> String {
            let bytes = text.utf8
            let from = bytes.index(bytes.startIndex, offsetBy: min(max(0, offset), bytes.count))
            let to = bytes.index(from, offsetBy: min(max(0, length), bytes.distance(from: from, to: bytes.endIndex)))
            return String(decoding: bytes[from..<to], as: UTF8.self)
        }
    }

    /// A word or sentence heard: the chapter, bytes of its text, and the frame of its track where it starts.
    public struct Mark: Sendable, Codable, Equatable {
        public let kind: String
        public let offset: Int
        public let length: Int
        public let frame: Int64
    }

    /// Where speaking starts: a chapter, a passage and a byte inside it (a sentence's start).
    public struct Start: Sendable, Equatable {
        public var chapter: Int
        public var passage: Int
        public var offset: Int
        public init(chapter: Int, passage: Int = 0, offset: Int = 0) {
            (self.chapter, self.passage, self.offset) = (chapter, passage, offset)
        }
    }

    public let chapters: [Chapter]
    public let start: Start
    /// Reads a chapter's text (the book's XHTML through its plugin); called once a chapter, on any thread.
    let load: (Int) throws -> ChapterText
    public let tracks: ChapterTracks<Mark>
    let synthesis: SpeechSynthesis
    let bookLanguage: String?
    /// Silence between passages and after a chapter, as a reader pauses.
    static let passagePause = 0.35

    /// The chapters' texts read so far, and the plugin's sample rate once it has spoken.
    private let own = NSLock()
    private var texts: [Int: ChapterText] = [:]
    private var rate: Int?

    public init(
        synthesis: SpeechSynthesis, chapters: [Chapter], start: Start, folder: URL, bookLanguage: String?,
        load: @escaping (Int) throws -> ChapterText
    ) {
        self.synthesis = synthesis
        self.load = load
        self.chapters = chapters
        self.start = start
        self.tracks = ChapterTracks(folder: folder, firstChapter: start.chapter)
        self.bookLanguage = bookLanguage
    }

    /// Starts speaking on a thread of its own.
    public func begin() {
        tracks.begin(count: chapters.count, initial: {}) { [self] chapter, _ in try record(chapter) }
    }

    /// Waits until the first chapter's track holds `frames` of sound, or is whole, so that playback can begin;
    /// throws what stopped speaking before it did.
    public func waitForFirstSound(frames wanted: Int64 = 4096, timeout: TimeInterval = 30) throws {
        try tracks.waitForFirstSound(frames: wanted, timeout: timeout) {
            ShelfError(
                .temporary, "the speech plugin \(synthesis.plugin.descriptor.id) said nothing within \(Int(timeout)) s")
        }
    }

    public var sampleRate: Int? { own.withLock { rate } }

    /// A chapter's text, read once.
    public func text(of chapter: Int) throws -> ChapterText {
        if let known = own.withLock({ texts[chapter] }) { return known }
        let text = try load(chapter)
        own.withLock { texts[chapter] = text }
        return text
    }

    // MARK: Speaking one chapter

    private func record(_ index: Int) throws {
        let chapter = try text(of: index)
        // Started at the first sound, when the engine has said its rate.
        let file = WAVFileSink(path: tracks.path(of: index).path)
        tracks.starting(index)
        var written: Int64 = 0
        let first = index == start.chapter ? min(start.passage, max(0, chapter.passages.count - 1)) : 0
        for p in first..<chapter.passages.count {
            let passage = chapter.passages[p]
            // A session that starts inside a passage speaks it from that byte (a sentence's start).
            let skip = index == start.chapter && p == first ? min(start.offset, passage.text.utf8.count) : 0
            let text = skip == 0 ? passage.text : String(decoding: passage.text.utf8.dropFirst(skip), as: UTF8.self)
            let base = chapter.starts[p] + skip
            let startFrame = written
            var pending: [Mark] = []
            do {
                try synthesis.speak(
                    text, options: options(passage, skip: skip),
                    into: .init(
                        pcm: { samples, format in
                            if self.tracks.isStopped { return false }
                            do {
                                if file.format == nil {
                                    try file.start(sampleRate: format.sampleRate, channels: format.channels)
                                }
                                try file.write(samples)
                            } catch {
                                self.tracks.fail(error)
                                return false
                            }
                            written += Int64(samples.count / max(1, format.channels))
                            self.publish(index, frames: written, marks: &pending, rate: format.sampleRate)
                            return true
                        },
                        mark: { mark in
                            guard mark.kind != .unknown else { return true }
                            pending.append(
                                Mark(
                                    kind: mark.kind.rawValue, offset: base + mark.offset, length: mark.length,
                                    frame: startFrame + mark.frame))
                            return true
                        }))
            } catch is SpeechSynthesis.Stopped {
                return
            }
            if !pending.isEmpty { publish(index, frames: written, marks: &pending, rate: file.format?.rate ?? 22050) }
            try file.silence(Self.passagePause)
            written = file.frames
            publish(index, frames: written, marks: &pending, rate: file.format?.rate ?? 22050)
        }
        // A chapter with nothing to say is still a track, of no frames.
        if file.format == nil { try file.start(sampleRate: 22050, channels: 1) }
        try file.finish()
        let done = tracks.marks(of: index)
        // The marks beside the track, for a player outside the host (the browser's, following the text).
        try? Data(ReadiumJSON.encode(done).utf8).write(
            to: tracks.path(of: index).deletingPathExtension().appendingPathExtension("marks.json"))
        tracks.finished(index)
    }

    private func publish(_ chapter: Int, frames count: Int64, marks pending: inout [Mark], rate: Int) {
        // The rate is known before the frames that need it are announced.
        own.withLock { self.rate = self.rate ?? rate }
        tracks.grew(chapter, to: count, adding: pending)
        pending.removeAll()
    }

    /// speech.h's options for a passage: its language (the book's when it gives none), its pronunciations moved to
    /// the text actually spoken.
    func options(_ passage: SpeechPassage, skip: Int) -> String {
        var object: [String: Any] = [:]
        if let language = passage.language ?? bookLanguage { object["language"] = language }
        let spans: [[String: Any]] = passage.pronunciations.compactMap { p in
            guard p.offset >= skip else { return nil }
            var span: [String: Any] = ["offset": p.offset - skip, "length": p.length, "ph": p.ph]
            if let alphabet = p.alphabet { span["alphabet"] = alphabet }
            return span
        }
        if !spans.isEmpty { object["pronunciations"] = spans }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
