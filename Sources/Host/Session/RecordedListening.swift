internal import ShelfCore
internal import ShelfPlayback
internal import ShelfPlugins
import Foundation

/// A book whose tracks are made while it is listened to: read aloud (ReadAloud: a speech plugin speaks them) or
/// narrated (Narration: cut from the book's own audio). Both play as an audiobook whose parts are still arriving:
/// the track being made plays as it grows, and a track made whole is adopted as its file and measured on the
/// session's timeline at once, as a downloaded part is (PartArrivals), so that the book's length and where its
/// chapters start are known before playback reaches them.
protocol RecordedListening: AnyObject, Sendable {
    associatedtype Mark: Sendable
    var tracks: ChapterTracks<Mark> { get }
    var book: AudioBook { get }
    var chapterCount: Int { get }
    /// Whether making began at the book's first item (ListeningOptions.startsAtTime): only then has it times.
    var startsAtBookStart: Bool { get }
    /// What the book is and how its tracks are made, for the session's errors ("a narration", "cut").
    static var making: (book: String, made: String, readAloud: Bool) { get }
}

extension RecordedListening {
    /// Those made before this are measured here; the rest as each is made whole.
    func attach(_ engine: PlaybackEngine) {
        tracks.onComplete = { [weak self, weak engine] chapter in
            guard let self else { return }
            self.book.adoptLocalFile(self.tracks.path(of: chapter).path, track: chapter)
            engine?.trackBecameAvailable(chapter)
        }
        for chapter in tracks.firstChapter..<max(tracks.firstChapter, chapterCount) where isTrackAvailable(chapter) {
            engine.trackBecameAvailable(chapter)
        }
    }

    func isTrackAvailable(_ track: Int) -> Bool {
        guard tracks.isComplete(track) else { return false }
        book.adoptLocalFile(tracks.path(of: track).path, track: track)
        return true
    }

    func growingFile(_ track: Int) -> String? { tracks.growingFile(track) }

    /// Waits until the book is made and measured on `engine`'s timeline as far as `seconds` into it (from its first
    /// item), so that playback can start there; a time past the end, once the whole book is made, is refused with
    /// its length. Making runs at many times real time: an hour into a book is some 25 s away, so `progress` is told
    /// how far it has come once a second after the first. Ctrl-C stops the wait.
    func waitForTracks(to seconds: Double, engine: PlaybackEngine, progress: ((MakingAhead) -> Void)?) throws {
        var nextReport = Date().addingTimeInterval(1)
        let making = Self.making
        guard startsAtBookStart else {
            throw ShelfError(
                .software, "\(making.book) from the reader's place has no times: open it with startsAtTime")
        }
        while true {
            if let error = tracks.error { throw error }
            if HostServices.cancelRequested {
                throw ShelfError(
                    .cancelled, "stopped while \(making.book) was \(making.made) up to \(PlaybackTime.clock(seconds))")
            }
            let timeline = engine.timeline
            // The tracks made whole and measured, in order: the time is in one of them, or past all of them.
            var made: Int64 = 0
            var track = 0
            while track < chapterCount, tracks.isComplete(track), timeline.known[track] {
                made += timeline.lengths[track]
                if timeline.seconds(made) > seconds { return }
                track += 1
            }
            if let progress, Date() >= nextReport {
                nextReport = Date().addingTimeInterval(1)
                // The chapters made whole and measured: the one growing has no length on the timeline yet.
                progress(MakingAhead(time: seconds, made: timeline.seconds(made), readAloud: making.readAloud))
            }
            if track == chapterCount {
                guard seconds <= timeline.seconds(made) else {
                    throw TimePastTheEnd(time: seconds, length: timeline.seconds(made), readAloud: making.readAloud)
                        .error
                }
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
