import Foundation
import Glibc
import Host

/// `shelf listen`: an interactive player on the terminal. It starts paused; keys drive the
/// engine; the status is a line of words, written when something changes and once a minute
/// while playing, so that a screen reader reads each one and nothing floods.
let listenCommand = Command(
    name: "listen", summary: "an interactive player on the terminal (starts paused)",
    usage:
        "shelf listen BOOK|URL [--from TIME | --chapter N] [--speed X] [--sleep MIN|chapter] [--volume PCT] [--step SECONDS] [--skip-extras] [--out FILE.wav | --null] [--json]",
    details: """
        Opens the book paused at the saved position, or at --from TIME or --chapter N as `shelf play`
        takes them. Playing after a pause (or the last play) of more than 5 seconds replays the 2
        seconds before the stop, fading in; a shorter pause goes on where it stopped. The saved place
        stays where you stopped until playback passes it again. Keys:
          space or p   play / pause            q          quit (the position is saved)
          f or →       forward by the step     b or ←     back by the step (30 seconds)
          .  ,         forward / back 5 seconds
          n  or ]      next chapter            [          this chapter's start, or the previous one
          c            list the chapters       g          go to a chapter (type its number, Enter)
          +  -         speed up / down by 0.05
          v  V         volume down / up by 10 percent
          z            sleep timer: off, 15, 30, 60 minutes, end of chapter (press again to change)
          t            say the status now      h or ?     this help
        A book with text is read aloud, the sentence heard shown; a narrated book (EPUB 3 media
        overlays) plays its own narration, the phrase heard shown. --skip-extras leaves out what a
        narrated book marks skippable (page numbers, notes, sidebars). With --json, each clip of the
        narration is a line of JSON as it is played (text, audio, clipBegin, clipEnd, time, types,
        phrase), and what is said goes to standard error.
        \(audioBookArgumentHelp)
        """,
    valueOptions: ["--from", "--chapter", "--speed", "--sleep", "--out", "--volume", "--step"],
    flagOptions: ["--null", "--skip-extras"],
    positionals: 1...1
) { args, context in
    var options = ListeningOptions()
    options.stopWhenPaused = false
    if args.value("--out") == "-" {
        throw CommandRefusal.listenSoundOnStandardOutput.error
    }
    if let step = args.value("--step") {
        guard let s = Double(step), s >= 1, s <= 3600 else {
            throw CommandUsage.notAStep.error
        }
        options.skipStep = s
    }
    let (session, started, output) = try startPlayback(args, context, options: options)
    let player = TerminalPlayer(session: session, json: context.json)
    let opened = ListeningNotice.opened(
        title: session.title, chapters: session.chapters.count,
        length: session.duration.map(PlaybackTime.words) ?? PlaybackState.lengthUnknown, from: started)
    player.tell(opened)
    // A partly narrated book: the parts the narration passes over are said before it plays.
    if let parts = session.unnarratedParts { player.say(parts.words(for: .terminal).line) }
    player.say()
    session.onEvent = { player.handle($0) }
    let clips = context.json && session.isNarrated ? ClipFeed(session: session) : nil
    clips?.start()
    // The output belongs to the playing thread from here on: nothing below uses it on this thread.
    let playing = Thread {
        // Said once, as it happens (the patron is still at the keys), on standard error as any command's error is;
        // the command then ends with its exit status without saying it again.
        do { try session.run(to: output, startPaused: true) } catch {
            Output.flush(); player.failureStatus = Output.failure(error)
        }
        player.finished = true
    }
    playing.start()
    player.readKeys()
    session.quit()
    while !player.finished { Thread.sleep(forTimeInterval: 0.02) }
    clips?.stop()
    for trouble in session.narrationTroubles { player.say(trouble.words(for: .terminal).line) }
    player.say(PlaceSaved.listening(seconds: session.state.position).words(for: .terminal).line)
    return player.failureStatus ?? 0
}

/// Unchecked Sendable: its flags are read and written under `lock`; the session is safe from several threads itself.
final class TerminalPlayer: @unchecked Sendable {
    let session: ListeningSession
    private let lock = NSLock()
    private var finishedFlag = false
    private var status: Int32?
    /// Set by the playing thread when `run` returns; the key loop, on the main thread, ends on it.
    var finished: Bool {
        get { lock.withLock { finishedFlag } }
        set { lock.withLock { finishedFlag = newValue } }
    }
    /// The exit status of the error that stopped playback, if one did.
    var failureStatus: Int32? {
        get { lock.withLock { status } }
        set { lock.withLock { status = newValue } }
    }
    private var lastSaid = Date()
    private let sleepCycle: [SleepTimer.Mode?] = [.minutes(15), .minutes(30), .minutes(60), .endOfChapter, nil]
    private var sleepIndex = -1

    /// With --json the standard output carries the clips played (ClipFeed): what is said goes to standard error.
    let json: Bool

    init(session: ListeningSession, json: Bool = false) { (self.session, self.json) = (session, json) }

    func say(_ text: String? = nil) {
        lastSaid = Date()
        // A book read aloud shows the sentence (a narrated book the phrase) being heard after where playback is.
        let line = text ?? session.spokenSentence.map { "\(session.state.sentence) \($0)" } ?? session.state.sentence
        if json {
            Output.standardError(line + "\n", flush: true)
            return
        }
        Output.line(line)
        Output.flush()
    }

    func handle(_ event: PlaybackEvent) {
        switch event {
        case .chapter(let i, let title): tell(.chapter(number: i + 1, title: title))
        case .sleepStopped:
            say(ListeningPageNotice.sleepStopped.words(for: .terminal).line + " " + session.state.sentence)
        case .ended: say(ListeningPageNotice.ended.words(for: .terminal).line)
        // A book read aloud waits only for its speech, which catches up: nothing to say.
        case .waiting(let what) where !session.isReadAloud:
            say(PlaybackNotice.waiting(track: what).words(for: .terminal).line)
        case .error(let message), .trackProblem(_, let message): tell(.problem(message))
        case .saved:
            if session.state.playing, Date().timeIntervalSince(lastSaid) >= 60 { say() }
        default: break
        }
    }

    /// Reads keys until q, the end of input, or playback stopping by itself for an error (then the command ends with
    /// the error's status, with no key to wait for). TerminalKeys: raw mode on a terminal, plain bytes otherwise.
    func readKeys() {
        let keys = TerminalKeys()
        defer { keys.restore() }
        var number = ""
        var choosing = false
        while let key = keys.next(stop: { self.finished }) {
            if choosing {
                // Typing a chapter's number: digits, Backspace, Enter to go; Escape or any other key leaves it, and
                // that key then does what it always does (c lists the chapters, q quits).
                switch key {
                case .character(let d) where d.isNumber: number.append(d); tell(.choosingChapter(number)); continue
                case .backspace: if !number.isEmpty { number.removeLast() }; tell(.choosingChapter(number)); continue
                case .enter:
                    choosing = false
                    defer { number = "" }
                    let count = session.chapters.count
                    if let i = Int(number), session.chapters.indices.contains(i - 1) {
                        if session.goToChapter(i - 1) {
                            say()
                        } else {
                            tell(.chapterStillDownloading(number: i))
                        }
                    } else if number.isEmpty {
                        tell(.noChapterChosen)
                    } else {
                        tell(.noSuchChapter(typed: number, count: count))
                    }
                    continue
                default:
                    choosing = false
                    number = ""
                    tell(.noChapterChosen)
                    if case .escape = key { continue }
                }
            }
            let c: Character
            switch key {
            case .character(let typed): c = typed
            case .right: skip(session.skipForward, by: session.skipStep); continue
            case .left: skip(session.skipBackward, by: -session.skipStep); continue
            default:
                if let name = key.name { tell(.unknownKey(name)) }
                continue
            }
            switch c {
            case " ", "p": session.togglePlay(); say()
            case "q": return
            case "f": skip(session.skipForward, by: session.skipStep)
            case "b": skip(session.skipBackward, by: -session.skipStep)
            case ".": skip({ self.session.skip(by: 5) }, by: 5)
            case ",": skip({ self.session.skip(by: -5) }, by: -5)
            case "n", "]": session.nextChapter(); say()
            case "[": session.previousChapter(); say()
            case "+", "=": session.setSpeed(session.state.speed + 0.05); tell(.speed(session.state.speed))
            case "-", "_": session.setSpeed(session.state.speed - 0.05); tell(.speed(session.state.speed))
            case "v":
                session.setVolume(session.state.volume - 0.1);
                tell(.volume(percent: Int((session.state.volume * 100).rounded())))
            case "V":
                session.setVolume(session.state.volume + 0.1);
                tell(.volume(percent: Int((session.state.volume * 100).rounded())))
            case "z":
                sleepIndex = (sleepIndex + 1) % sleepCycle.count
                let mode = sleepCycle[sleepIndex]
                session.setSleep(mode)
                tell(.sleepTimer(mode))
            case "c": listChapters()
            case "g": choosing = true; tell(.choosingChapter)
            case "t": say()
            case "h", "?":
                say(
                    "Keys: space play or pause; f and b skip; period and comma 5 seconds; n and [ chapters; c list; g go to chapter; plus and minus speed; v and V volume; z sleep timer; t status; q quit."
                )
            default: tell(.unknownKey(key.name ?? String(c)))
            }
        }
    }

    /// Says what a control did, in the host's words.
    func tell(_ control: ListeningControl) { say(control.words(for: .terminal).line) }
    func tell(_ notice: ListeningNotice) { say(notice.words(for: .terminal).line) }

    /// Skips (by the step, or 5 seconds) and says how far and where it landed.
    func skip(_ move: () -> Void, by seconds: Double) {
        move()
        tell(.skipped(seconds: seconds, now: session.state.position))
    }

    func listChapters() {
        let current = session.state.chapter
        for c in session.chapters {
            let start = session.start(of: c)
            var line =
                String(repeating: "  ", count: c.depth) + "\(c.index + 1). \(c.title), at \(PlaybackTime.clock(start))"
            if c.index == current { line += session.state.playing ? " (playing)" : " (you are here, paused)" }
            if !session.isPlayable(c) { line += " (still downloading, cannot be chosen yet)" }
            say(line)
        }
    }
}

/// `shelf listen --json` of a narrated book: each clip, as playback passes its start, as a line of JSON on standard
/// output, in order and none left out (a position that jumps, at a file's speed or after a skip forward, gives every
/// clip up to it). Unchecked Sendable: `stopped` and `printed` are under `lock`; the session is safe from any thread.
final class ClipFeed: @unchecked Sendable {
    private let session: ListeningSession
    private let lock = NSLock()
    private var stopped = false
    private var printed = 0

    init(session: ListeningSession) { self.session = session }

    func start() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ !stopped }) {
                emit()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// Prints what playback has reached since the last time.
    private func emit() {
        lock.withLock {
            let clips = session.narratedClips(until: session.state.position) ?? []
            guard clips.count > printed else { return }
            for clip in clips[printed...] { Output.jsonLine(clip) }
            printed = clips.count
            Output.flush()
        }
    }

    /// The clips up to where playback stopped, then no more.
    func stop() {
        emit()
        lock.withLock { stopped = true }
    }
}
