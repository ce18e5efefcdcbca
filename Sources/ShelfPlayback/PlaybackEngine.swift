import ShelfCore
import Foundation
import ShelfValues

/// The host's audiobook player: one timeline over every track of an AudioBook, chapters from its
/// TOC, seek and skip across tracks, speed with pitch kept, a volume of its own, a sleep timer,
/// and the position saved in the library database. It drives any AudioSink.
///
/// Threading: `run` plays on the calling thread until the book ends, playback stops (sleep,
/// pause with `stopWhenPaused`) or `quit` is called. Every other method may be called from any
/// thread at any time; they take effect before the next chunk. Events are delivered on the
/// playing thread.
public final class PlaybackEngine: @unchecked Sendable {
    public struct Options: Sendable {
        /// Seconds skipped by `skipForward()` / `skipBackward()`.
        public var skipStep: Double = 30
        /// Save the position every this many seconds (listening time on unpaced sinks, wall time on devices).
        public var saveInterval: Double = 5
        /// Frames decoded per step on a sound device (about 90 ms at 44.1 kHz): controls act within a step.
        public var chunkFrames: Int = 4096
        /// Frames decoded per step into a file or nothing, which run as fast as they can: larger steps
        /// cost less per frame (fewer plugin calls, locks and stretcher passes).
        public var unpacedChunkFrames: Int = 32768
        /// `run` returns when playback pauses (for `shelf play`); otherwise it waits (for `shelf listen`).
        public var stopWhenPaused: Bool = true
        /// Seconds replayed when playback resumes after a stop longer than `replayAfter` seconds (a pause, the sleep
        /// timer, the last play), and the fade in over their start: the listener picks up the thread, as audiobook
        /// apps do. A shorter stop goes on where it stopped: replaying after every quick pause would walk back.
        public var resumeRewind: Double = ListeningRules.resumeRewind
        public var resumeFadeIn: Double = ListeningRules.resumeFadeIn
        public var replayAfter: Double = ListeningRules.replayAfter
        /// The clock a stop is measured by (a test moves it on instead of waiting).
        public var now: @Sendable () -> Date = { Date() }
        public init() {}
    }

    public let book: AudioBook
    public let chapters: [Chapter]
    public let sampleRate: Int
    public let channels: Int
    public let options: Options
    /// Frames per step of the current `run` (see Options).
    private var chunk = 4096
    public var positionStore: (any PlaybackPositionSaving)?
    public var onEvent: ((PlaybackEvent) -> Void)?
    /// Whether a track is whole here (a remote track whose part is still downloading is not).
    public var isTrackAvailable: (Int) -> Bool
    /// The file of a track still downloading that can play as far as it goes (see GrowingTrack), else nil.
    public var growingFile: (Int) -> String?
    /// Why a remote track cannot be had ("cannot be downloaded (the server answered 404)"), once its download gave
    /// up after its retries; nil while it may still arrive. Such a track is skipped as a missing one is.
    public var trackFailure: (Int) -> String? = { _ in nil }

    private let lock = NSCondition()
    private(set) public var timeline: Timeline
    private var position: Int64 = 0
    private var playing = false
    private var quitting = false
    private var ended = false
    private var speed = 1.0
    private var volume = 1.0
    private var sleep: SleepTimer?
    /// A fade in under way (resuming): frames of it done, and its length.
    private var fadeInDone: Int64 = 0
    private var fadeInLength: Int64 = 0
    /// Playback stopped where the listener was (a pause or the sleep timer) and no move has chosen a place since:
    /// the next `play` resumes as a new play does (`resume(at:)`).
    private var stoppedListening = false
    /// When listening stopped (for `replayAfter`).
    private var stoppedAt: Date?
    /// While replaying the seconds before a stop: the place where listening stopped, which stays the place heard (and
    /// saved) until playback passes it again. Opening and closing a book, or pausing, never walks the place back.
    private var stoppedPlace: Int64?
    private var listenedFrames: Int64 = 0
    private var lastSaveListened: Int64 = 0
    private var lastSaveWall = Date()
    private var decoder: TrackPCMDecoder?
    private var decoderTrack = -1
    private var decoderOffset: Int64 = -1
    /// The decoder reads a part still downloading, which held `decoderBytes` when it was opened.
    private var decoderGrowing = false
    private var decoderBytes: Int64 = 0
    /// A track still downloading whose decoder ran out of data: opened again once its file holds `bytes`.
    private var growingRetry: (track: Int, bytes: Int64)?
    /// Where decoding goes on (the track and the frame after the last one read), while no seek intervened: a track
    /// whose length is only an estimate plays on past it until its decoder ends.
    private var continuing: (track: Int, offset: Int64)?
    private var lastChapter: Int?
    private var waitingFor: String?
    private let stretcher: TimeStretcher
    private var limiter: VolumeLimiter
    private var clicks: ClickGuard
    /// The sound breaks off before the next output (a seek, a pause, the start): it fades in (ClickGuard).
    private var broken = true
    private var pendingEvents: [PlaybackEvent] = []
    /// The sink `open` started, which the next `run` plays into as it is.
    private var openedSink: ObjectIdentifier?
    /// Tracks already reported as damaged, and those that could not be played at all.
    private var warned: Set<Int> = []
    private var skipped: Set<Int> = []
    /// The first of the tracks skipped since a frame was last heard (or a move chose a place): a book that ends
    /// there ends where the sound did, so a missing or damaged track at the end never counts as listened.
    private var skippedFrom: Int?

    /// Loads the book: the first track sets the rate and channels (at most two); every track
    /// that is here is measured, the others keep the manifest's duration until they arrive.
    /// `growingFile` names the file of a track still downloading that can play so far.
    public init(
        book: AudioBook, options: Options = Options(), isTrackAvailable: ((Int) -> Bool)? = nil,
        growingFile: ((Int) -> String?)? = nil
    ) throws {
        self.book = book
        self.options = options
        let available = isTrackAvailable ?? { i in !book.tracks[i].isRemote || book.localFile(i) != nil }
        let growing = growingFile ?? { _ in nil }
        self.isTrackAvailable = available
        self.growingFile = growing
        guard book.tracks.indices.contains(where: { available($0) || growing($0) != nil }) else {
            // A manifest file whose tracks are on the web: shelf downloads a book's tracks from the book's address
            // (fetch and play take a URL), so the way on is that address, which the manifest may name itself.
            if isTrackAvailable == nil {
                let address = book.manifest.links.first {
                    ($0.rel ?? []).contains("self") && $0.href.lowercased().hasPrefix("http")
                }?.href
                throw ShelfError(
                    .unavailable, "the tracks of this audiobook are on the web and none is on this computer",
                    subject: book.input.uri,
                    next: NextStep(
                        terminal: "Play it from its address, which downloads the tracks as it plays: "
                            + "`shelf play \(address ?? "URL")` (`shelf fetch \(address ?? "URL")` downloads them all first)"
                            + (address == nil ? ", URL being the address this manifest came from." : "."),
                        browser: nil))
            }
            throw ShelfError(
                .temporary, "no track of this audiobook has been downloaded yet", subject: book.input.uri,
                next: NextStep(
                    terminal: "`shelf fetch URL` downloads it; `shelf downloads` shows how far it is.", browser: nil))
        }
        // The first track that opens sets the format: a missing or damaged one is skipped when played.
        var opened: (Int, TrackPCMDecoder, String?)?
        var firstError: Error?
        for i in book.tracks.indices {
            let part = available(i) ? nil : growing(i)
            guard available(i) || part != nil else { continue }
            do { opened = (i, try book.openDecoder(track: i, file: part), part); break } catch {
                firstError = firstError ?? error
            }
        }
        guard let (first, probe, firstPart) = opened else { throw firstError! }
        sampleRate = probe.sampleRate
        channels = min(probe.channels, 2)
        var lengths: [Int64] = []
        var exact: [Bool] = []
        var known: [Bool] = []
        for track in book.tracks {
            var length: Int64?
            var isExact = false
            var onlySoFar = false
            let reuse = track.index == first && probe.channels == channels
            if track.index == first, firstPart != nil {
                // Still downloading: the manifest's duration (below), else what is here so far; both estimates, and
                // the second says nothing of the part's length.
                length = track.declaredDuration == nil ? probe.totalFrames : nil
                onlySoFar = track.declaredDuration == nil
                // Measuring only: a track that does not open is estimated here, and says why when it is played.
            } else if available(track.index),
                let d = reuse
                    ? probe : try? book.openDecoder(track: track.index, sampleRate: sampleRate, channels: channels)
            {
                length = d.totalFrames
                isExact = d.framesExact
            }
            if length == nil, let s = track.declaredDuration { length = Int64((s * Double(sampleRate)).rounded()) }
            lengths.append(length ?? 0)
            exact.append(isExact)
            // A remote part with no duration in its manifest, not here yet: its length is learnt when it arrives
            // (trackBecameAvailable) or plays. A track that is here but cannot be measured plays as damaged.
            known.append(length != nil && !onlySoFar || available(track.index))
        }
        timeline = Timeline(sampleRate: sampleRate, lengths: lengths, exact: exact, known: known)
        chapters = Chapters.from(book.manifest)
        stretcher = TimeStretcher(sampleRate: sampleRate, channels: channels)
        limiter = VolumeLimiter(sampleRate: sampleRate)
        clicks = ClickGuard(sampleRate: sampleRate, channels: channels)
        // The first track's decoder is already open at frame 0: keep it for playing.
        if probe.channels == channels {
            decoder = probe
            decoderTrack = first
            decoderOffset = 0
            if let firstPart {
                decoderGrowing = true
                decoderBytes = GrowingTrack.size(firstPart)
            }
        }
    }

    // MARK: Controls

    /// Plays; after a pause or the sleep timer longer than `replayAfter`, from a little before where it stopped
    /// (`resume(at:)`).
    public func play() {
        change {
            guard !playing else { return }
            if stoppedListening {
                let away = stoppedAt.map { options.now().timeIntervalSince($0) } ?? .infinity
                if away > options.replayAfter {
                    resumeLocked(at: heardLocked(), after: away)
                } else {
                    // On from where the sound stopped, which may be inside seconds still replaying: the place stays.
                    let place = stoppedPlace
                    seekLocked(max(0, position - Int64(stretcher.pendingInputFrames.rounded())))
                    if let place, position < place { stoppedPlace = place }
                }
            }
            playing = true
            ended = false
            emit(.resumed)
        }
    }

    public func pause() {
        change {
            guard playing else { return }
            playing = false
            stopListeningLocked()
            emit(.paused)
            saveLocked()
        }
    }

    /// Goes to `global`, a place where listening stopped `away` seconds ago: after more than `options.replayAfter`,
    /// to `options.resumeRewind` seconds before it, rising from silence over `options.resumeFadeIn` (every resume,
    /// after a pause in this run or a stop in an earlier one, does this); the place stays `global` until it plays.
    public func resume(at global: Int64, after away: TimeInterval = .infinity) {
        change { resumeLocked(at: global, after: away) }
    }

    public func togglePlay() { if state.playing { pause() } else { play() } }

    /// Seconds on the book's timeline; clamped to the book.
    public func seek(to seconds: Double) {
        change { seekLocked(timeline.frames(seconds)) }
    }

    public func seek(toFrame global: Int64) { change { seekLocked(global) } }

    public func skip(by seconds: Double) {
        change { seekLocked(position + Int64((seconds * Double(sampleRate)).rounded())) }
    }

    public func skipForward() { skip(by: options.skipStep) }
    public func skipBackward() { skip(by: -options.skipStep) }

    /// Whether a track can start playing now: whole here, or downloading with its first bytes here.
    public func isTrackPlayable(_ index: Int) -> Bool { isTrackAvailable(index) || growingFile(index) != nil }

    /// Starts chapter `index` (0-based). False when there is no such chapter or its track has not started arriving.
    @discardableResult
    public func goToChapter(_ index: Int) -> Bool {
        guard chapters.indices.contains(index), isTrackPlayable(chapters[index].track) else { return false }
        change { seekLocked(chapterStart(index)) }
        return true
    }

    public func nextChapter() {
        change {
            let c = chapterIndex(at: position) ?? -1
            if chapters.indices.contains(c + 1) {
                seekLocked(chapterStart(c + 1))
            } else {
                seekLocked(timeline.totalFrames)
            }
        }
    }

    /// To the start of this chapter, or of the previous one when within 3 seconds of the start.
    public func previousChapter() {
        change {
            guard let c = chapterIndex(at: position) else { seekLocked(0); return }
            let into = position - chapterStart(c)
            seekLocked(into < Int64(3 * sampleRate) && c > 0 ? chapterStart(c - 1) : chapterStart(c))
        }
    }

    /// 0.5 to 3.0 in steps of 0.05; pitch is kept.
    public func setSpeed(_ value: Double) {
        let clamped = Self.clampSpeed(value)
        change {
            speed = clamped
            stretcher.setSpeed(clamped)
            emit(.speed(clamped))
        }
    }

    public static func clampSpeed(_ value: Double) -> Double {
        guard value.isFinite else { return 1 }
        return (min(max(value, 0.5), 3.0) * 20).rounded() / 20
    }

    /// The book's own volume, 0 to 2 (1 is as recorded), independent of the system's.
    public func setVolume(_ value: Double) {
        change {
            volume = value.isFinite ? min(max(value, 0), 2) : 1
            emit(.volume(volume))
        }
    }

    /// Sets, changes or (nil) cancels the sleep timer.
    public func setSleep(_ mode: SleepTimer.Mode?) {
        change {
            sleep = mode.map { SleepTimer($0) }
            switch mode {
            case .minutes(let m)?: emit(.sleepSet("\(m) minutes"))
            case .endOfChapter?: emit(.sleepSet("end of chapter"))
            case nil: emit(.sleepSet(nil))
            }
        }
    }

    /// Ends `run` after the chunk in flight; the position is saved.
    public func quit() { change { quitting = true } }

    /// A track that arrived (downloaded) or was measured: its exact length replaces the estimate.
    public func trackBecameAvailable(_ index: Int) {
        change {
            guard book.tracks.indices.contains(index), !timeline.exact[index],
                // As at the start: not measured, the estimate stays, and playing the track says what is wrong.
                let d = try? book.openDecoder(track: index, sampleRate: sampleRate, channels: channels),
                let frames = d.totalFrames
            else { return }
            // The place as playback sees it: waiting at the end of what a part held (its estimate reached), the
            // timeline alone would take that frame for the next part's start and skip the rest of this one.
            let before = placeLocked()
            timeline.setLength(frames, ofTrack: index, exact: d.framesExact)
            position = timeline.global(track: before.track, offset: before.offset)
        }
    }

    public var state: PlaybackState {
        lock.lock()
        defer { lock.unlock() }
        return stateLocked()
    }

    public var currentPosition: Double { state.position }

    // MARK: Chapters

    public func chapterStart(_ index: Int) -> Int64 {
        guard chapters.indices.contains(index) else { return timeline.totalFrames }
        return timeline.global(track: chapters[index].track, offset: chapterOffset(index))
    }

    /// Where chapter `index` starts inside its track: its `#t=`, put at the track's end when past it. In a track
    /// whose length is not known yet (still being made or downloaded) it stands as written: what the track holds so
    /// far is not its end, and a chapter further in is still ahead (a seek there waits at what is here).
    private func chapterOffset(_ index: Int) -> Int64 {
        let c = chapters[index]
        guard timeline.lengths.indices.contains(c.track) else { return 0 }
        let offset = timeline.frames(c.offset)
        return timeline.known[c.track] ? min(offset, timeline.lengths[c.track]) : offset
    }

    /// The chapter playing at `global`: the last one starting at or before its place. Compared by place, not by
    /// frame: at the end of what a part still downloading holds, the next part starts on the same frame, and the
    /// place is still the downloading part's (it plays on there), so its chapter is too.
    public func chapterIndex(at global: Int64) -> Int? {
        let place = placeLocked(global)
        var found: Int?
        for i in chapters.indices {
            let track = chapters[i].track
            if track < place.track || track == place.track && chapterOffset(i) <= place.offset {
                found = i
            } else {
                break
            }
        }
        return found ?? (chapters.isEmpty ? nil : 0)
    }

    /// Whether where chapter `index` ends is known: every track before the one its end is in has a length. Until
    /// then the chapter runs on (the sleep timer at its end waits, and its time left is not said).
    public func isChapterEndKnown(_ index: Int) -> Bool {
        var next = index + 1
        while chapters.indices.contains(next), chapterStart(next) <= chapterStart(index) { next += 1 }
        let endTrack = chapters.indices.contains(next) ? chapters[next].track : timeline.trackCount
        return !timeline.known.prefix(endTrack).contains(false)
    }

    public func chapterEnd(_ index: Int) -> Int64 {
        var next = index + 1
        while chapters.indices.contains(next), chapterStart(next) <= chapterStart(index) { next += 1 }
        return chapters.indices.contains(next) ? chapterStart(next) : timeline.totalFrames
    }

    // MARK: Running

    /// Opens `sink` at the book's rate and channels before `run`, so that a front end learns that the sound
    /// device is missing before it says the book plays. `run` plays into it without opening it again.
    public func open(_ sink: AudioSink) throws {
        try sink.start(sampleRate: sampleRate, channels: channels)
        change { openedSink = ObjectIdentifier(sink) }
    }

    /// Plays into `sink` (see the type's threading note), opening it unless `open` did. Starts playing unless
    /// `startPaused`, which leaves the state the controls gave before it began: a front end that reads keys while
    /// this thread starts keeps a play pressed at once (the engine is paused until something plays it).
    public func run(sink: AudioSink, startPaused: Bool = false) throws {
        lock.lock()
        let opened = openedSink == ObjectIdentifier(sink)
        openedSink = nil
        lock.unlock()
        if !opened { try sink.start(sampleRate: sampleRate, channels: channels) }
        if !startPaused {
            change {
                playing = true
                emit(.started)
            }
        }
        defer {
            change { saveLocked() }
            flushEvents()
        }
        change { chunk = sink.isPaced ? options.chunkFrames : max(options.chunkFrames, options.unpacedChunkFrames) }
        var input = [Float](repeating: 0, count: chunk * channels)
        var output: [Float] = []
        output.reserveCapacity(chunk * channels * 2 + 8192)
        while true {
            flushEvents()
            lock.lock()
            if !playing || quitting {
                // Playback stops here (a pause, the sleep timer, quit): the sound held back fades out to silence.
                let tail = clicks.close()
                broken = true
                if !tail.isEmpty {
                    lock.unlock()
                    try tail.withUnsafeBufferPointer { try sink.write($0) }
                    lock.lock()
                }
            }
            while !playing, !quitting {
                if options.stopWhenPaused { lock.unlock(); try sink.finish(); return }
                _ = lock.wait(until: Date().addingTimeInterval(0.25))
                lock.unlock()
                flushEvents()
                lock.lock()
            }
            if quitting { lock.unlock(); try sink.finish(); return }
            let produced: Int
            do {
                produced = try produceLocked(into: &input, output: &output)
            } catch {
                playing = false
                saveLocked()
                lock.unlock()
                flushEvents()
                // The error that stopped playback is the one thrown; the sink's own, after it, would only hide it.
                try? sink.finish()
                throw error
            }
            lock.unlock()
            if produced < 0 {
                // Waiting for a download: nothing to play yet.
                Thread.sleep(forTimeInterval: 0.2)
                continue
            }
            if !output.isEmpty {
                try output.withUnsafeBufferPointer { try sink.write($0) }
            }
        }
    }

    /// One step: decodes, stretches, applies volume and the sleep timer into `output`. Returns
    /// the frames produced, or -1 when the next track is not here yet.
    private func produceLocked(into input: inout [Float], output: inout [Float]) throws -> Int {
        output.removeAll(keepingCapacity: true)
        if position >= timeline.totalFrames, continuing == nil || continuing.map({ timeline.exact[$0.track] }) == true,
            // A track whose length is not known yet is still to play, not past the end.
            timeline.known[timeline.locate(position).track]
        {
            stretcher.flush(into: &output)
            finishOutput(&output)
            if let track = skippedFrom {
                position = timeline.start(ofTrack: track)
                skippedFrom = nil
            }
            // What the stretcher still held is heard too.
            listenedFrames += Int64(output.count / channels)
            clicks.pass(&output, afterBreak: broken)
            broken = true
            output += clicks.close()
            ended = true
            playing = false
            emit(.ended)
            return output.count / channels
        }
        let (track, offset) = placeLocked()
        let whole = isTrackAvailable(track)
        let part = whole ? nil : growingFile(track)
        if !whole, part == nil, let failure = trackFailure(track) { return skipLocked(track, saying: failure) }
        guard whole || part != nil else { return waitLocked(track) }
        // A decoder on a part still downloading gives way to the whole file once it is here.
        if whole, decoderGrowing { decoder = nil }
        if decoderTrack != track || decoder == nil {
            decoder = nil
            if let part {
                let size = GrowingTrack.size(part)
                if let retry = growingRetry, retry.track == track, size < retry.bytes { return waitLocked(track) }
                // A probe of a growing file: see below.
                guard
                    let opened = try? book.openDecoder(
                        track: track, sampleRate: sampleRate, channels: channels, file: part)
                else {
                    // Not enough of it to open yet (or a container that needs its end): wait for more.
                    growingRetry = (track, size + GrowingTrack.reopenStep)
                    return waitLocked(track)
                }
                decoder = opened
                decoderGrowing = true
                decoderBytes = size
            } else {
                do {
                    decoder = try book.openDecoder(track: track, sampleRate: sampleRate, channels: channels)
                } catch {
                    return skipLocked(track, because: error)
                }
                decoderGrowing = false
                growingRetry = nil
                // A track that arrived: its measured length replaces the manifest's estimate.
                if !timeline.exact[track], decoder!.framesExact, let frames = decoder!.totalFrames {
                    timeline.setLength(frames, ofTrack: track, exact: true)
                }
            }
            decoderTrack = track
            decoderOffset = 0
            if let problem = book.tracks[track].problem, !warned.contains(track) {
                warned.insert(track)
                emit(.trackProblem(track, "\(trackName(track)) \(problem); playing what it holds"))
            }
        }
        waitingFor = nil
        if decoderOffset != offset {
            do { try decoder!.seek(toFrame: offset) } catch {
                if decoderGrowing { return ranDryLocked(track) }
                return skipLocked(track, because: error)
            }
            decoderOffset = offset
        }
        var want = min(chunk, input.count / channels)
        // Exact tracks stop at their length; estimated ones play until the decoder ends.
        if timeline.exact[track] { want = Int(min(Int64(want), max(0, timeline.lengths[track] - offset))) }
        // The sleep timer at the end of a chapter stops right there.
        var chapterStop: Int64?
        if sleep?.mode == .endOfChapter, let c = chapterIndex(at: position), isChapterEndKnown(c) {
            let end = chapterEnd(c)
            chapterStop = end
            want = Int(min(Int64(want), max(0, end - position)))
        }
        var n = 0
        if want > 0 {
            do {
                n = try input.withUnsafeMutableBufferPointer {
                    try decoder!.read(into: $0.baseAddress!, capacity: want)
                }
            } catch {
                if decoderGrowing { return ranDryLocked(track) }
                return skipLocked(track, because: error)
            }
        }
        // The end of what has downloaded is not the end of the track.
        if n == 0, want > 0, decoderGrowing { return ranDryLocked(track) }
        if n == 0 && want > 0 || (timeline.exact[track] && offset >= timeline.lengths[track]) {
            // The track ended here: that is its true length; go on with the next one.
            if !timeline.exact[track] || timeline.lengths[track] != offset {
                timeline.setLength(offset, ofTrack: track, exact: true)
            }
            position = timeline.start(ofTrack: track + 1)
            decoder = nil
            decoderTrack = -1
            continuing = nil
            return 0
        }
        if !timeline.exact[track] { timeline.grow(offset + Int64(n), ofTrack: track) }
        position += Int64(n)
        skippedFrom = nil
        decoderOffset += Int64(n)
        continuing = (track, decoderOffset)
        input.withUnsafeBufferPointer { stretcher.process($0.baseAddress!, frames: n, into: &output) }
        var stopForSleep = false
        if let stop = chapterStop, position >= stop {
            var rest: [Float] = []
            stretcher.flush(into: &rest)
            output += rest
            stretcher.reset()
            stopForSleep = true
        }
        if var timer = sleep, let remaining = timer.remainingFrames(sampleRate: sampleRate) {
            let frames = Int64(output.count / channels)
            timer.fadeOut(&output, channels: channels, remaining: remaining, sampleRate: sampleRate)
            if frames >= remaining {
                let keep = Int(remaining)
                let dropped = frames - remaining
                output.removeLast(Int(dropped) * channels)
                // Give back what was decoded but not heard.
                position -= Int64((Double(dropped) * speed + stretcher.pendingInputFrames).rounded())
                position = max(0, position)
                stretcher.reset()
                decoderOffset = -1
                timer.heard += Int64(keep)
                stopForSleep = true
            } else {
                timer.heard += frames
            }
            sleep = timer
        }
        finishOutput(&output)
        let produced = output.count / channels
        listenedFrames += Int64(produced)
        clicks.pass(&output, afterBreak: broken)
        broken = false
        if let place = stoppedPlace, position - Int64(stretcher.pendingInputFrames.rounded()) >= place {
            stoppedPlace = nil
        }
        if let c = chapterIndex(at: position), c != lastChapter {
            lastChapter = c
            emit(.chapter(c, chapters[c].title))
        }
        if stopForSleep {
            sleep = nil
            playing = false
            stopListeningLocked()
            emit(.sleepStopped)
            saveLocked()
        } else if shouldSave() {
            saveLocked()
        }
        return produced
    }

    /// Where the frame at `global` (the next one to play when nil) comes from: the track being decoded, when
    /// playback runs on past its estimated length or waits at the end of what a downloading part holds, else the
    /// timeline's place for it.
    private func placeLocked(_ global: Int64? = nil) -> (track: Int, offset: Int64) {
        let global = global ?? position
        if let c = continuing, timeline.lengths.indices.contains(c.track),
            timeline.global(track: c.track, offset: c.offset) == global
        {
            return c
        }
        return timeline.locate(global)
    }

    /// Nothing to play until `track` downloads further: said once, and `run` waits.
    private func waitLocked(_ track: Int) -> Int {
        let name = book.tracks[track].title ?? "track \(track + 1)"
        if waitingFor != name { waitingFor = name; emit(.waiting(name)) }
        return -1
    }

    /// A part still downloading was played to the end of what is here: its decoder is opened again once the file
    /// has grown, at the frame where it stopped.
    private func ranDryLocked(_ track: Int) -> Int {
        growingRetry = (track, decoderBytes + GrowingTrack.reopenStep)
        decoder = nil
        decoderOffset = -1
        return waitLocked(track)
    }

    /// A track that cannot be opened or decoded further: said once, and playback goes on with the
    /// next track. Its length stays as the book declares it, so chapter times do not move.
    private func skipLocked(_ track: Int, because error: Error) -> Int {
        skipLocked(track, saying: "cannot be played (\(ShelfError.words(error)))")
    }

    /// `problem` says what is wrong with the track, after its name.
    private func skipLocked(_ track: Int, saying problem: String) -> Int {
        if !skipped.contains(track) {
            warned.insert(track)
            emit(.trackProblem(track, "\(trackName(track)) \(problem); going on with the next track"))
        }
        skipped.insert(track)
        skippedFrom = skippedFrom ?? track
        waitingFor = nil
        // A track of unknown length that cannot play lasts nothing: the next one plays after it.
        if !timeline.known[track] { timeline.setLength(0, ofTrack: track, exact: false) }
        continuing = nil
        position = timeline.start(ofTrack: track + 1)
        decoder = nil
        decoderTrack = -1
        decoderOffset = -1
        return 0
    }

    private func trackName(_ track: Int) -> String {
        let t = book.tracks[track]
        return TrackProblem.name(track: track + 1, href: t.href, title: t.title)
    }

    private func finishOutput(_ output: inout [Float]) {
        if fadeInDone < fadeInLength {
            // Raised cosine, as the sleep timer's fade out.
            let frames = output.count / channels
            for f in 0..<frames where fadeInDone + Int64(f) < fadeInLength {
                let x = Double(fadeInDone + Int64(f)) / Double(fadeInLength)
                let gain = Float(0.5 - 0.5 * cos(Double.pi * x))
                for c in 0..<channels { output[f * channels + c] *= gain }
            }
            fadeInDone += Int64(frames)
        }
        limiter.apply(Float(volume), to: &output, channels: channels)
    }

    private func shouldSave() -> Bool {
        let interval = options.saveInterval
        if Date().timeIntervalSince(lastSaveWall) >= interval { return true }
        return listenedFrames - lastSaveListened >= Int64(interval * Double(sampleRate))
    }

    private func saveLocked() {
        lastSaveWall = Date()
        lastSaveListened = listenedFrames
        guard let store = positionStore else { return }
        let heard = heardLocked()
        do {
            try store.save(book: book, timeline: timeline, at: heard)
            emit(.saved(timeline.seconds(heard)))
        } catch {
            emit(.error("the position could not be saved: \(error)"))
        }
    }

    private func stopListeningLocked() {
        stoppedListening = true
        stoppedAt = options.now()
    }

    private func resumeLocked(at global: Int64, after away: TimeInterval) {
        guard away > options.replayAfter else {
            seekLocked(global)
            return
        }
        let place = min(max(0, global), timeline.totalFrames)
        seekLocked(place - timeline.frames(options.resumeRewind))
        if position < place { stoppedPlace = place }
        fadeInDone = 0
        fadeInLength = timeline.frames(options.resumeFadeIn)
    }

    /// The frame being heard: the position less what the stretcher holds and has not given out yet; while the
    /// seconds before a stop replay, the place where it stopped.
    private func heardLocked() -> Int64 {
        let heard = max(0, position - Int64(stretcher.pendingInputFrames.rounded()))
        return max(heard, stoppedPlace ?? 0)
    }

    private func seekLocked(_ global: Int64) {
        position = min(max(0, global), timeline.totalFrames)
        skippedFrom = nil
        stoppedListening = false
        stoppedPlace = nil
        fadeInLength = 0
        decoderOffset = -1
        continuing = nil
        stretcher.reset()
        broken = true
        ended = false
        emit(.seeked(timeline.seconds(position)))
    }

    private func stateLocked() -> PlaybackState {
        let heard = heardLocked()
        let c = chapterIndex(at: heard)
        let start = c.map(chapterStart) ?? 0
        let end = c.map(chapterEnd) ?? timeline.totalFrames
        var sleepText: String?
        var sleepLeft: Double?
        if let s = sleep {
            switch s.mode {
            case .minutes(let m):
                sleepText = "\(m)";
                sleepLeft = Double(s.remainingFrames(sampleRate: sampleRate) ?? 0) / Double(sampleRate)
            case .endOfChapter: sleepText = "end of chapter"
            }
        }
        return PlaybackState(
            playing: playing, ended: ended, position: timeline.seconds(heard),
            duration: timeline.isLengthKnown ? timeline.duration : nil,
            track: placeLocked(heard).track, chapter: c, chapterTitle: c.map { chapters[$0].title },
            chapterElapsed: timeline.seconds(max(0, heard - start)),
            chapterRemaining: c.map(isChapterEndKnown) == false ? nil : timeline.seconds(max(0, end - heard)),
            speed: speed, volume: volume, sleep: sleepText, sleepRemaining: sleepLeft,
            listened: Double(listenedFrames) / Double(sampleRate), waitingFor: waitingFor)
    }

    // MARK: Plumbing

    private func change(_ body: () -> Void) {
        lock.lock()
        body()
        lock.broadcast()
        lock.unlock()
    }

    private func emit(_ event: PlaybackEvent) { pendingEvents.append(event) }

    private func flushEvents() {
        lock.lock()
        let events = pendingEvents
        pendingEvents.removeAll()
        lock.unlock()
        for e in events { onEvent?(e) }
    }
}
