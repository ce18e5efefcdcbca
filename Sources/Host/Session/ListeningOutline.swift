import Foundation
import Readium

// What a player outside the host (the browser's audio element) needs of a listening session: the book's tracks and
// chapters on its timeline, and the place to start from. The host's own player uses the session's controls instead.

extension ListeningSession {
    /// The book's title, or its file's name when the manifest has none.
    public var title: String { book.title }

    /// The book's Readium manifest (its links name the cover).
    public var manifest: Manifest { book.manifest }

    /// One track (file) of the book.
    public struct Track: Sendable, Equatable {
        public let href: String
        public let title: String?
        /// Its media type, when the manifest says.
        public let type: String?
        /// Seconds on the book's timeline (0 while unknown: see `ListeningSession.duration`).
        public let duration: Double
        /// Whether it is whole here (a remote book's parts download while it plays).
        public let available: Bool
    }

    /// Every track, in reading order.
    public var tracks: [Track] {
        let timeline = engine.timeline
        return book.tracks.enumerated().map { index, track in
            Track(
                href: track.href, title: track.title, type: track.type,
                duration: timeline.lengths.indices.contains(index) ? timeline.seconds(timeline.lengths[index]) : 0,
                available: engine.isTrackAvailable(index))
        }
    }

    /// One chapter on the book's timeline.
    public struct ChapterSpan: Sendable, Equatable {
        public let title: String
        /// Where it starts and how long it lasts, in seconds on the book's timeline.
        public let start: Double
        public let duration: Double
        /// The track it starts in (an index into `tracks`), and whether that track is whole here.
        public let track: Int
        public let available: Bool
    }

    /// Every chapter, in order.
    public var chapterSpans: [ChapterSpan] {
        let timeline = engine.timeline
        return engine.chapters.indices.map { index in
            let start = engine.chapterStart(index), end = engine.chapterEnd(index)
            let track = engine.chapters[index].track
            return ChapterSpan(
                title: engine.chapters[index].title, start: timeline.seconds(start),
                duration: timeline.seconds(end - start),
                track: track, available: engine.isTrackAvailable(track))
        }
    }

    /// The saved place in seconds on the book's timeline: 0 when there is none, or when the book was finished
    /// (the place `start(from: .saved)` resumes at, without its replayed seconds).
    public func savedSeconds() throws -> Double {
        try resumableFrame().map(engine.timeline.seconds) ?? 0
    }

    /// The saved place in frames, unless there is none or it is within the book's last second (finished).
    func resumableFrame() throws -> Int64? {
        // Finished only when the book's length is known: a place in parts not measured yet is not past the end.
        guard let saved = try positions.restore(book: engine.book, timeline: engine.timeline),
            !engine.timeline.isLengthKnown || saved < engine.timeline.totalFrames - Int64(engine.sampleRate)
        else { return nil }
        return saved
    }
}
