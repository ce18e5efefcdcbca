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
        /// Whether it can play now: whole here (a remote book's parts download while it plays) and sound.
        public var available: Bool { hold == nil }
        /// Why it cannot play now, nil when it can.
        public let hold: TrackHold?
        /// The hold in the patron's words ("Part 2 cannot be played: it is missing."), nil when it can play.
        public var held: TrackHeld? { hold.map { TrackHeld(name: title ?? href, hold: $0) } }
        /// `held`'s sentence.
        public var why: String? { held?.sentence }
        /// What a player says while it waits for the track to arrive before playing it ("Waiting for Part 2 to
        /// download."), nil unless it is still downloading.
        public var wait: String? { hold == .downloading ? PlaybackNotice.waiting(track: title ?? href).sentence : nil }
    }

    /// Every track, in reading order.
    public var tracks: [Track] {
        let timeline = engine.timeline
        return book.tracks.enumerated().map { index, track in
            Track(
                href: track.href, title: track.title, type: track.type,
                duration: timeline.lengths.indices.contains(index) ? timeline.seconds(timeline.lengths[index]) : 0,
                hold: hold(of: index))
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
                track: track, available: hold(of: track) == nil)
        }
    }

    /// Why track `index` cannot play now: still downloading, or it cannot be had (its download gave up) or played (the
    /// plugin found it missing or damaged, and it does not open as audio); nil when it can play.
    func hold(of index: Int) -> TrackHold? {
        if let failure = engine.trackFailure(index) { return .unplayable(problem: failure) }
        guard engine.isTrackAvailable(index) else { return .downloading }
        // A track the plugin found damaged may still play what it holds (one cut short does).
        guard let problem = book.tracks[index].problem else { return nil }
        guard (try? book.openDecoder(track: index)) != nil else { return .unplayable(problem: problem) }
        return nil
    }

    /// Seconds since the saved place was saved (since listening stopped there), nil when none is: a player outside
    /// the host replays before it by `ListeningRules` as the engine does.
    public func secondsSinceSaved() throws -> Double? {
        try positions.savedAt(book: book).map { Date().timeIntervalSince($0) }
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

/// Why a track cannot play now, for a player outside the host (which marks it and says why).
public enum TrackHold: Sendable, Equatable {
    /// A remote part still downloading.
    case downloading
    /// It cannot be had or played; `problem` says why, after "it" ("is missing", "cannot be downloaded (...)").
    case unplayable(problem: String)
}

extension ListeningSession {
    /// How far the parts of a book still arriving have come (a loan listened to as it downloads); nil once every
    /// part is here, and for a book whose tracks are all its own.
    public var partsArriving: PartsArriving? { arriving?.report() }
}
