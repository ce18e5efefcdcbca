internal import ShelfReader
internal import ShelfLibrary
internal import ShelfCore
internal import ShelfPlayback
internal import ShelfPlugins
import Foundation
import Glibc

/// One audiobook being listened to: the book (a local file, a downloaded loan named by its catalog ID, or a remote
/// manifest whose parts download while it plays), the engine that plays it, and the saved position it resumes from
/// and keeps up to date. The controls are the engine's; `reportPosition` is for a player that is not the host's
/// own (a browser's `<audio>`), whose place is saved the same way. Every change is published on `shelf.events`.
///
/// Safe from several threads: the engine takes its lock for every control and for its state, the position store
/// writes through the database's lock, and the listener for events is kept under `lock`.
public final class ListeningSession: @unchecked Sendable {
    public let shelf: Shelf
    let book: AudioBook
    /// The remote book's downloads, when it is one.
    let remote: RemoteAudiobook?
    // The engine and where the place is kept stay behind the session: a front end uses its controls (one place for
    // what every control does).
    let engine: PlaybackEngine
    let positions: PlaybackPositionStore
    public let bookID: String
    /// The book's text read aloud, when the book is one with text (an EPUB) and not an audiobook (ReadAloud).
    let readAloud: ReadAloud?
    /// The parts of a book on the shelf still arriving (a loan listened to as it downloads), when it has any.
    let arriving: ArrivingParts?
    /// The book's narration, when it is a narrated book (media overlays) and its narration was chosen (Narration).
    let narration: Narration?
    /// The one of the two whose tracks are made while it plays (RecordedListening).
    var recorded: (any RecordedListening)? { narration ?? readAloud }

    private let lock = NSLock()
    private var listener: ((PlaybackEvent) -> Void)?
    /// Why the playback running now stopped, once something stopped it; and whether it runs.
    private var stopReason: StopReason?
    private var running = false

    /// Why `run` returned.
    public enum StopReason: Sendable, Equatable {
        /// The end of the book, or `engine.quit()` from the front end (which knows it asked).
        case end
        /// The sleep timer.
        case sleepTimer
        /// Ctrl-C (with `stopOnInterrupt`).
        case interruption
    }

    /// Where playback starts.
    public enum Start: Equatable {
        /// The saved position, unless the book was finished (then the start).
        case saved
        /// Seconds on the book's timeline.
        case time(Double)
        /// A chapter, by index (0 is the first).
        case chapter(Int)
    }

    /// Opens `target` (a file, a downloaded audiobook's catalog ID or a unique part of it, or an http(s) manifest)
    /// and waits until its first part can play: whole, or enough of it downloaded to start (GrowingTrack). The
    /// database that keeps the position must open: a session that could not save where the patron is would lose it
    /// silently.
    init(
        shelf: Shelf, target: String, options: PlaybackEngine.Options = PlaybackEngine.Options(), chapter: Int? = nil,
        narration choice: NarrationChoice = .play(skipping: false), fromBookStart: Bool = false
    ) throws {
        self.shelf = shelf
        let database = try shelf.openDatabase(losing: "the listening position cannot be saved")
        var onShelf: ShelfBook?
        if let url = URL(string: target), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let remote = try RemoteAudiobook(url: url, cache: shelf.directories?.cache, router: shelf.router)
            (book, self.remote, readAloud, narration) = (remote.book, remote, nil, nil)
        } else {
            onShelf = try Self.shelfBook(target, database: database)
            let path = onShelf?.book.path ?? target
            // A narrated book plays its narration; any other book with text and no audio of its own is read aloud
            // (`chapter` starts either there).
            if case .play(let skipping) = choice {
                narration = try Narration.open(
                    shelf: shelf, path: path, shelfBook: onShelf, database: database, chapter: chapter,
                    skipping: skipping, fromBookStart: fromBookStart)
            } else {
                narration = nil
            }
            readAloud =
                narration != nil
                ? nil
                : try ReadAloud.open(
                    shelf: shelf, path: path, shelfBook: onShelf, database: database, chapter: chapter,
                    fromBookStart: fromBookStart)
            book = try narration?.book ?? readAloud?.book ?? AudioBook(path: path, router: shelf.router)
            remote = nil
        }
        arriving =
            remote == nil && readAloud == nil && narration == nil
            ? ArrivingParts(
                book: book, cache: shelf.directories?.cache, downloadID: onShelf?.book.id,
                store: DownloadStore(database: database), loan: Self.loan(of: onShelf, database: database)) : nil
        positions = PlaybackPositionStore(database: database, shelfID: onShelf?.book.id)
        bookID = positions.id(for: book)
        let arrivals = PartArrivals()
        try Self.startDownloads(remote, store: DownloadStore(database: database), waitFor: 0, arrivals: arrivals)
        let recorded: (any RecordedListening)? = narration ?? readAloud
        engine = try PlaybackEngine(
            book: book, options: options,
            isTrackAvailable: recorded.map { r in { i in r.isTrackAvailable(i) } }
                ?? remote.map { r in
                    { i in
                        if r.downloader.isComplete(i) { r.adoptCompletedParts(); return true }
                        return false
                    }
                }
                // A manifest none of whose parts is here keeps the engine's own answer, which says where they are.
                ?? arriving.flatMap { a in a.anyHere ? { i in a.isHere(i) } : nil },
            growingFile: recorded.map { r in { i in r.growingFile(i) } }
                ?? remote.map { r in { i in r.growingFile(i) } })
        if let remote {
            arrivals.attach(engine, remote)
            engine.trackFailure = { i in Self.failure(of: i, in: remote) }
        }
        if let arriving { engine.trackFailure = { i in arriving.failure(of: i) } }
        engine.positionStore = positions
        recorded?.attach(engine)
        if let readAloud { engine.positionStore = ReadAloudPlace(readAloud) }
        if let narration { engine.positionStore = NarrationPlace(narration) }
        engine.onEvent = { [weak self] event in self?.handle(event) }
    }

    /// Called with each of the engine's events (on the engine's thread), after it is published on `shelf.events`.
    public var onEvent: ((PlaybackEvent) -> Void)? {
        get { lock.withLock { listener } }
        set { lock.withLock { listener = newValue } }
    }

    private func handle(_ event: PlaybackEvent) {
        if case .sleepStopped = event { lock.withLock { stopReason = .sleepTimer } }
        let state = engine.state
        shelf.events.publish(.listening(bookID: bookID, position: state.position, playing: state.playing))
        onEvent?(event)
    }

    // MARK: Where to start

    /// Moves to where playback starts and says it in words ("from 1:30", "resuming at 12:04", "from the start").
    /// A book read aloud or narrated is made from its start as far as a time to start from: `progress` hears how far
    /// it has come while the patron waits (`MakingAhead`), once a second after the first.
    public func start(from start: Start, progress: ((MakingAhead) -> Void)? = nil) throws -> String {
        if let recorded, case .time(let seconds) = start {
            // Speaking (or cutting the narration) began at the book's start (ListeningOptions.startsAtTime):
            // playback starts at the time once the book is made that far.
            try recorded.waitForTracks(to: seconds, engine: engine, progress: progress)
            engine.seek(to: seconds)
            return "from \(PlaybackTime.clock(seconds))"
        }
        if let startWords = readAloud?.startWords ?? narration?.startWords {
            // Speaking (or cutting the narration) began where it was asked to (ReadAloud.open, Narration.open): the
            // engine starts there.
            if case .time = start {
                throw ShelfError(
                    .usage, "a book read aloud has no times before it is spoken",
                    hint: "Start at a chapter with --chapter N (`shelf toc BOOK` lists them), or where you stopped.")
            }
            return startWords
        }
        switch start {
        case .time(let seconds):
            guard seconds <= engine.timeline.duration else {
                guard let duration else {
                    throw ShelfError(
                        .temporary,
                        "\(PlaybackTime.clock(seconds)) is past the \(PlaybackTime.clock(engine.timeline.duration)) measured "
                            + "so far: the book's length is known once every part has downloaded",
                        subject: remote?.url.absoluteString,
                        next: NextStep(
                            terminal: "`shelf fetch URL` downloads every part; then start where you like.", browser: nil
                        ))
                }
                throw TimePastTheEnd(time: seconds, length: duration, readAloud: false).error
            }
            engine.seek(to: seconds)
            return "from \(PlaybackTime.clock(seconds))"
        case .chapter(let index):
            guard engine.chapters.indices.contains(index) else {
                throw ShelfError(.usage, "there is no chapter \(index + 1); the book has \(engine.chapters.count)")
            }
            guard engine.goToChapter(index) else {
                throw ShelfError(.temporary, "chapter \(index + 1) is still downloading and cannot be chosen yet")
            }
            return "from chapter \(index + 1), \(engine.chapters[index].title)"
        case .saved:
            if let saved = try resumableFrame() {
                // A couple of seconds again, fading in, as after a pause longer than a few seconds; the place said
                // (and saved until it plays again) is the one saved, where the last play said it stopped.
                let away = try positions.savedAt(book: book).map { Date().timeIntervalSince($0) } ?? .infinity
                engine.resume(at: saved, after: away)
                return "resuming at \(PlaybackTime.clock(engine.timeline.seconds(saved)))"
            }
            return "from the start"
        }
    }

    // MARK: A book read aloud

    /// Whether the book is read aloud (a book with text, spoken or narrated), not an audiobook.
    public var isReadAloud: Bool { readAloud != nil || narration != nil }

    /// Whether the book plays its own narration (media overlays).
    public var isNarrated: Bool { narration != nil }

    /// The sentence (or a narrated book's phrase) being heard when the book is read aloud, for a front end to show;
    /// nil for an audiobook.
    public var spokenSentence: String? {
        let timeline = engine.timeline
        if let narration { return narration.phrase(at: timeline.frames(engine.state.position), timeline: timeline) }
        guard let readAloud else { return nil }
        return readAloud.sentence(at: timeline.frames(engine.state.position), timeline: timeline)
    }

    /// A narrated book's clips played so far, in order, up to `until` seconds on the session's timeline when given;
    /// nil for any other book.
    public func narratedClips(until: Double? = nil) -> [NarratedClip]? {
        narration?.clipsPlayed(timeline: engine.timeline, until: until)
    }

    /// The parts of a partly narrated book, from where listening starts, that have no narration of their own (the
    /// narration passes over them); nil for any other book, and when every part is narrated.
    public var unnarratedParts: UnnarratedParts? {
        narration.flatMap { $0.unnarrated.isEmpty ? nil : UnnarratedParts(titles: $0.unnarrated) }
    }

    /// The audio files of a narrated book that could not be played so far (their phrases are silent); empty for any
    /// other book.
    public var narrationTroubles: [NarrationAudioTrouble] {
        (narration?.recorder.problems ?? []).map { NarrationAudioTrouble(audio: $0.audio, reason: $0.reason) }
    }

    /// Every word and sentence spoken so far, with when it is heard, when the book is read aloud; nil for an
    /// audiobook.
    public var spokenMarks: [SpokenMark]? { readAloud?.spokenMarks(timeline: engine.timeline) }

    // MARK: Controls (the engine's)

    public var state: PlaybackState { engine.state }
    public var chapters: [Chapter] { engine.chapters }
    public func play() { engine.play() }
    public func pause() { engine.pause() }
    public func seek(to seconds: Double) { engine.seek(to: seconds) }
    public func skip(by seconds: Double) { engine.skip(by: seconds) }
    @discardableResult public func goToChapter(_ index: Int) -> Bool { engine.goToChapter(index) }
    public func setSpeed(_ speed: Double) { engine.setSpeed(speed) }
    public func setVolume(_ volume: Double) { engine.setVolume(volume) }
    public func setSleep(_ mode: SleepTimer.Mode?) { engine.setSleep(mode) }
    public func togglePlay() { engine.togglePlay() }
    /// The skip step of the options the session was opened with (30 seconds unless chosen).
    public var skipStep: Double { engine.options.skipStep }
    public func skipForward() { engine.skipForward() }
    public func skipBackward() { engine.skipBackward() }
    public func nextChapter() { engine.nextChapter() }
    public func previousChapter() { engine.previousChapter() }
    /// Stops `run` (the position is saved as it stops).
    public func quit() { engine.quit() }
    /// The book's length in seconds.
    /// The book's length in seconds; nil while a part whose manifest gives no duration has not arrived to be
    /// measured (it is never 0 as if known).
    public var duration: Double? { engine.timeline.isLengthKnown ? engine.timeline.duration : nil }
    /// Where a chapter starts on the book's timeline, in seconds.
    public func start(of chapter: Chapter) -> Double { engine.timeline.seconds(engine.chapterStart(chapter.index)) }
    /// Whether a chapter can be chosen now: its part is here (a remote book's parts download while it plays).
    public func isPlayable(_ chapter: Chapter) -> Bool { engine.isTrackPlayable(chapter.track) }

    /// The file the track `href` was downloaded to, when the book is a remote one (`shelf listen URL`, `shelf fetch
    /// URL`, a loan listened to as it downloads) and that part is whole here; nil for any other book, whose tracks are
    /// its own resources.
    public func downloadedFile(of href: String) -> URL? {
        remote?.adoptCompletedParts()
        guard let index = book.tracks.firstIndex(where: { $0.href == href }) else { return nil }
        _ = arriving?.isHere(index)
        return book.localFile(index).map { URL(fileURLWithPath: $0) }
    }

    /// Plays into `sink` until the end, the sleep timer, `engine.quit()` or (with `stopOnInterrupt`) Ctrl-C; the
    /// position is saved as it goes, and when it stops. Says what stopped it.
    @discardableResult
    func run(sink: AudioSink, startPaused: Bool = false, stopOnInterrupt: Bool = false) throws -> StopReason {
        lock.withLock {
            stopReason = nil
            running = true
        }
        defer { lock.withLock { running = false } }
        if stopOnInterrupt {
            // Ctrl-C only sets a flag (the signal handler may do no more): a thread of this session watches it and
            // stops the engine, which saves the position, while `run` is playing.
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }) {
                    if HostServices.cancelRequested {
                        lock.withLock { stopReason = .interruption }
                        engine.quit()
                        return
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
        }
        try engine.run(sink: sink, startPaused: startPaused)
        return lock.withLock { stopReason } ?? .end
    }

    /// Saves the place a player outside the host has reached (seconds on the book's timeline), as the engine saves
    /// its own, and publishes it. An error says the position was not saved.
    public func reportPosition(seconds: Double, playing: Bool) throws {
        let clamped = max(0, min(seconds, duration ?? seconds))
        // A book read aloud keeps the sentence heard as the reading place (ReadAloudPlace).
        let store: any PlaybackPositionSaving =
            narration.map { NarrationPlace($0) } ?? readAloud.map { ReadAloudPlace($0) } ?? positions
        try store.save(book: book, timeline: engine.timeline, at: engine.timeline.frames(clamped))
        shelf.events.publish(.listening(bookID: bookID, position: clamped, playing: playing))
    }

    // MARK: Finding and fetching the book

    /// The book on the shelf `target` names, as every command finds one (BookReference): a file added with `shelf
    /// add` (by its path or the path it was added from), a download named by its catalog ID, a title or part of one.
    /// Nil for a file that is not on the shelf, which plays as it is; a name that is no file must name a book.
    static func shelfBook(_ target: String, database: LibraryDatabase) throws -> ShelfBook? {
        if FileManager.default.fileExists(atPath: target) {
            let found = try BookReference.candidates(target, in: database, byTitle: false)
            guard found.count == 1, let path = found[0].book.path, FileManager.default.fileExists(atPath: path) else {
                return nil
            }
            return found[0]
        }
        if target.contains("/") { return nil }
        return try BookReference.find(target, in: database)
    }

    /// The loan a book on the shelf was downloaded from, as a command names it: its id, and its account when the
    /// patron has several libraries (a command without `--account` acts at the one in use).
    static func loan(of book: ShelfBook?, database: LibraryDatabase) -> PartsArriving.Loan? {
        guard let entryID = book?.loanEntryID else { return nil }
        // Accounts that cannot be read name none: the command is then the one for the library in use.
        let several = ((try? database.accounts().count) ?? 0) > 1
        return PartsArriving.Loan(entryID: entryID, account: several ? book?.loanAccountID : nil)
    }

    /// What is wrong with a remote track whose download gave up (after the HTTP client's retries with back-off), in
    /// the words the player says after the track's name; nil while it may still arrive.
    static func failure(of track: Int, in remote: RemoteAudiobook) -> String? {
        guard let part = remote.downloader.snapshot.first(where: { $0.index == track }), part.state == .failed else {
            return nil
        }
        return "cannot be downloaded (\(part.reason ?? "unknown reason"))"
    }

    /// Starts downloading the parts (if remote) and waits until the one holding `track`, or the first after it that
    /// can be had, can play: whole, or its first bytes here and opening as audio (a container that keeps its index
    /// at the end waits to be whole). A part that cannot be downloaded is passed over as a missing track is, and
    /// said when playback reaches it. Each part that arrives whole goes to `arrivals`.
    static func startDownloads(
        _ remote: RemoteAudiobook?, store: DownloadStore, waitFor first: Int, arrivals: PartArrivals
    ) throws {
        guard let remote else { return }
        AudiobookDownloads.track(remote, in: store) { part in
            if part.state == .complete { arrivals.arrived(part.index, of: remote) }
        }
        remote.downloader.start()
        var triedAt: Int64 = 0
        var track = first
        while !remote.downloader.isComplete(track) {
            if let part = remote.growingFile(track),
                GrowingTrack.size(part) >= triedAt + GrowingTrack.reopenStep || triedAt == 0
            {
                triedAt = GrowingTrack.size(part)
                // A probe: not opening yet means "not enough of it here"; the loop waits for more.
                if (try? remote.book.openDecoder(track: track, file: part)) != nil { return }
            }
            // Ctrl-C: the part in flight stops at once and stays for the next run to resume.
            if HostServices.cancelRequested {
                throw ShelfError(
                    .cancelled, "stopped while track \(track + 1) was downloading; what arrived is kept",
                    subject: remote.url.absoluteString,
                    next: NextStep(
                        terminal: "The next `shelf play` or `shelf fetch` of this URL resumes it.",
                        browser: "Playing it again resumes it."))
            }
            if let part = remote.downloader.snapshot.first(where: { $0.index == track }), part.state == .failed {
                guard track + 1 < remote.book.tracks.count else {
                    throw ShelfError(
                        .temporary, "track \(track + 1) cannot be downloaded: \(part.reason ?? "unknown reason")",
                        subject: remote.url.absoluteString,
                        next: NextStep(
                            terminal: "`shelf downloads` shows every part; try again later.",
                            browser: "Try again later."))
                }
                track += 1
                triedAt = 0
                continue
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        remote.adoptCompletedParts()
    }
}
