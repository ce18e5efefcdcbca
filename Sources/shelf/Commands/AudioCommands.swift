import Foundation
import Glibc
import Host

/// Audiobook commands (play, listen, fetch, downloads); registered in main.swift.
let audioCommands: [Command] = [playCommand, listenCommand, fetchCommand, downloadsCommand]

/// Where the sound goes: --null, --raw, --out FILE.wav (`-`: standard output, as a command line means it), else the
/// sound device.
func audioOutput(_ args: Arguments) -> AudioOutput {
    if args.has("--null") { return .nothing() }
    if args.has("--raw") { return .rawPCM() }
    if let out = args.value("--out") { return out == "-" ? .wavOnStandardOutput() : .wavFile(out) }
    return .device()
}

/// Whether the sound goes to standard output, which then carries nothing else.
func soundOnStandardOutput(_ args: Arguments) -> Bool { args.has("--raw") || args.value("--out") == "-" }

/// Where to start: --from, --chapter, else the saved position (unless the book was finished).
func startPoint(_ session: ListeningSession, _ args: Arguments) throws -> ListeningSession.Start {
    if args.value("--from") != nil && args.value("--chapter") != nil {
        throw CommandUsage.fromAndChapter.error
    }
    if let from = args.value("--from") {
        guard let s = PlaybackTime.parse(from) else {
            throw CommandUsage.notATime(given: from).error
        }
        return .time(s)
    }
    if let text = args.value("--chapter") {
        guard let n = Int(text), session.chapters.indices.contains(n - 1) else {
            throw CommandUsage.noSuchChapter(
                count: session.chapters.count, given: text, book: ShellWords.quoted(args.positionals[0])
            ).error
        }
        return .chapter(n - 1)
    }
    return .saved
}

/// What `play` and `listen` start from: the listening session (a remote book's parts downloading in the
/// background, each playable once whole) with the common options applied, the place it starts from in words, and
/// where the sound goes.
func startPlayback(_ args: Arguments, _ context: Context, options: ListeningOptions = ListeningOptions())
    throws -> (session: ListeningSession, started: String, output: AudioOutput)
{
    var options = options
    // A book read aloud starts speaking at the chapter asked for.
    if let chapter = args.value("--chapter").flatMap(Int.init) { options.chapter = chapter - 1 }
    // And at the book's start when a time is asked for: times count from there.
    options.startsAtTime = args.value("--from") != nil
    options.skipSkippable = args.has("--skip-extras")
    let session = try context.shelf.listen(args.positionals[0], options: options)
    try applyCommonSettings(session, args)
    // A time far into a book read aloud is some seconds away (it is spoken from the start): say how far it has come,
    // on one line rewritten in place, where a person watches.
    let showProgress = isatty(STDERR_FILENO) == 1 && !context.json
    var shown = false
    // Cleared before anything else is said, the error of a wait that failed too.
    defer { if shown { Output.standardError("\r\u{1B}[K") } }
    let started = try session.start(
        from: try startPoint(session, args),
        progress: showProgress
            ? { making in
                Output.standardError("\r\u{1B}[K" + making.words(for: .terminal).line)
                shown = true
            } : nil)
    let output = audioOutput(args)
    // Before a word says it plays: no sound device is said first, with what to do.
    try session.open(output)
    // A loan whose download stopped before every part came: said once, with the command that resumes it.
    if let parts = session.partsArriving, parts.stopped { Output.error(parts.words(for: .terminal).line) }
    return (session, started, output)
}

func applyCommonSettings(_ session: ListeningSession, _ args: Arguments) throws {
    if let text = args.value("--speed") {
        guard let v = Double(text.hasSuffix("x") ? String(text.dropLast()) : text), v >= 0.5, v <= 3.0 else {
            throw CommandUsage.notASpeed(given: text).error
        }
        session.setSpeed(v)
    }
    if let text = args.value("--sleep") {
        guard let mode = SleepTimer.parse(text) else {
            throw CommandUsage.notASleep(given: text).error
        }
        session.setSleep(mode)
    }
    if let text = args.value("--volume") {
        guard let v = Double(text), v >= 0, v <= 200 else {
            throw CommandUsage.notAVolume(given: text).error
        }
        session.setVolume(v / 100)
    }
}

let playCommand = Command(
    name: "play", summary: "play an audiobook (file or URL) at once",
    usage:
        "shelf play BOOK|URL [--from TIME | --chapter N] [--speed X] [--sleep MIN|chapter] [--volume PCT] [--skip-extras] [--out FILE.wav | --raw | --null] [--json]",
    details: """
        Plays at once: the command is the request. Without --from or --chapter it resumes where the
        last play stopped (the position is saved every few seconds, on pause and on quit). When that
        stop is more than 5 seconds ago it replays the 2 seconds before it, fading in; the saved place
        stays where it stopped until playback passes it again, so opening and closing never moves it.
        On a terminal a line shows the position, the chapter and the time left at the speed chosen.
          --from TIME      90, 1:30 or 1:02:03 on the book's timeline (a book read aloud: as spoken
                           from its start, once it is spoken that far)
          --chapter N      chapter N of `shelf toc` (1 is the first)
          --speed X        0.5 to 3.0 in steps of 0.05; the pitch is kept
          --sleep MIN      stop after MIN minutes of listening, or "chapter" for the end of this chapter
          --volume PCT     the book's own volume, 0 to 200 percent
          --skip-extras    a narrated book: leave out what it marks skippable (page
                           numbers, notes, sidebars); everything plays otherwise
          --out FILE.wav   write a WAV file (16-bit) instead of playing on the sound device;
                           --out - writes it on standard output
          --raw            raw signed 16-bit little-endian PCM on stdout
          --null           play into nothing (as fast as possible; for tests)
        File and null outputs run as fast as the machine allows. A URL is an audiobook manifest:
        its parts download into the cache (several at once) and each plays as its first bytes
        arrive; Ctrl-C stops at once and keeps what arrived for the next play or fetch.
        \(audioBookArgumentHelp)
        """,
    valueOptions: ["--from", "--chapter", "--speed", "--sleep", "--out", "--volume"],
    flagOptions: ["--null", "--raw", "--skip-extras"],
    positionals: 1...1
) { args, context in
    let (session, started, output) = try startPlayback(args, context)
    let toStdout = soundOnStandardOutput(args)
    let live =
        !context.json && !toStdout && LivePosition.isWanted(environment: context.shelf.environment)
        ? LivePosition(session: session) : nil
    session.onEvent = { event in
        switch event {
        // A book read aloud into a file waits for its speech as a matter of course: nothing to say.
        case .waiting(let what) where !context.json && !toStdout && !session.isReadAloud:
            if let live {
                live.draw()
            } else {
                Output.error(PlaybackNotice.waiting(track: what).words(for: .terminal).line)
            }
        case .trackProblem(_, let message):
            live?.clear()
            Output.error(message)
        case .chapter: live?.draw()
        default: break
        }
    }
    if !context.json && !toStdout {
        let playing = ListeningNotice.playing(
            title: session.title, from: started, speed: session.state.speed, into: output.name)
        Output.line(playing.words(for: .terminal).line)
    }
    // A partly narrated book: the parts the narration passes over are said before it plays.
    if let parts = session.unnarratedParts, !toStdout { Output.error(parts.words(for: .terminal).line) }
    live?.start()
    defer { live?.stop() }
    // Ctrl-C stops playback and saves the position.
    let reason: String
    switch try session.run(to: output, stopOnInterrupt: true) {
    case .end: reason = "the end of the book"
    case .sleepTimer: reason = "the sleep timer"
    case .interruption: reason = "an interruption"
    }
    live?.stop()
    // A narrated book whose audio is partly unplayable played the rest: what was silent is said.
    for trouble in session.narrationTroubles { Output.error(trouble.words(for: .terminal).line) }
    let state = session.state
    if context.json && !toStdout {
        var report = PlayReport(
            title: session.title, output: output.name, started: started, stoppedBecause: reason, state: state)
        report.marks = session.spokenMarks
        report.clips = session.narratedClips(until: state.position)
        Output.json(report)
    } else if !toStdout {
        Output.line(
            "Stopped by \(reason) at \(PlaybackTime.clock(state.position))\(state.duration.map { " of \(PlaybackTime.clock($0))" } ?? " (\(PlaybackState.lengthUnknown))"); "
                + "\(PlaybackTime.words(state.listened)) listened.")
    }
    return 0
}

let fetchCommand = Command(
    name: "fetch", summary: "download a whole remote audiobook, with progress",
    usage: "shelf fetch URL [--background] [--parallel N] [--json]",
    details: """
        Downloads the audiobook manifest at URL and every track into shelf's cache, several parts at
        once, resuming any part left by an interrupted run. A part refused with 401 or 403 makes the
        manifest be fetched again (signed links expire). --background hands the download to a shelf
        process of its own and returns at once; `shelf downloads` shows how each part is doing.
        """,
    valueOptions: ["--parallel"],
    flagOptions: ["--background"],
    positionals: 1...1
) { args, context in
    guard let url = URL(string: args.positionals[0]), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https"
    else {
        throw CommandUsage.notAManifestAddress(given: args.positionals[0]).error
    }
    let parallel = try args.int("--parallel", in: 1...8) ?? 3
    if args.has("--background") {
        return try spawnBackgroundFetch(url: url, parallel: parallel, context: context)
    }
    let tty = isatty(STDERR_FILENO) != 0
    var lastLine = Date.distantPast
    let report = try context.shelf.audiobookDownloads().fetch(url, concurrency: parallel) { part, t in
        if tty, !context.json, Date().timeIntervalSince(lastLine) > 0.2 || part.state != .downloading {
            lastLine = Date()
            let pct = t.total.map { $0 > 0 ? " (\(Int(Double(t.bytes) * 100 / Double($0)))%)" : "" } ?? ""
            Output.standardError(
                "\r\(t.complete) of \(Plural.count(t.count, "part")), \(t.bytes / 1024) KiB\(pct); part \(part.index + 1) \(part.state.rawValue)   "
            )
        }
    }
    if tty, !context.json { Output.standardError("\n") }
    let parts = report.parts
    let failed = parts.filter { $0.state != "complete" }
    if context.json {
        Output.json(report)
    } else {
        Output.line(
            "\"\(report.title)\": \(parts.count - failed.count) of \(Plural.count(parts.count, "part")) downloaded into \(report.directory)"
        )
        for p in failed { Output.line("  part \(p.part): \(p.state): \(p.reason ?? "")") }
    }
    if Shelf.interruptRequested {
        if !context.json {
            Output.line(AudiobookFetchNotice.interrupted(url: url.absoluteString).words(for: .terminal).line)
        }
        return ShelfError.Kind.cancelled.rawValue
    }
    return failed.isEmpty ? 0 : ShelfError.Kind.temporary.rawValue
}

/// Runs `shelf fetch URL` in a process of its own (AudiobookDownloads.fetchInBackground) and says where it logs.
func spawnBackgroundFetch(url: URL, parallel: Int, context: Context) throws -> Int32 {
    let (pid, log) = try context.shelf.audiobookDownloads().fetchInBackground(url, concurrency: parallel)
    if context.json {
        Output.json(BackgroundFetchJSON(pid: pid, log: log, url: url))
    } else {
        Output.line(AudiobookFetchNotice.inBackground(process: pid, log: log).words(for: .terminal).line)
    }
    return 0
}

let downloadsCommand = Command(
    name: "downloads", summary: "audiobook downloads and the state of each part",
    usage: "shelf downloads [--json]",
    details:
        "Lists every audiobook download with each part queued, downloading, paused, failed (with its reason) or complete.",
    positionals: 0...0
) { _, context in
    let items = try context.shelf.audiobookDownloads().all()
    if context.json {
        Output.json(items)
    } else if items.isEmpty {
        Output.line(EmptyListing.audiobookDownloads.words(for: .terminal).line)
    } else {
        for item in items {
            let done = item.parts.filter { $0.state == "complete" }.count
            Output.line(
                "\(item.title): \(done) of \(Plural.count(item.parts.count, "part")) complete\(item.active ? ", downloading now" : "")"
            )
            for p in item.parts {
                var line = "  part \(p.part): \(p.state)"
                if p.state != "complete", let total = p.total, total > 0 { line += ", \(p.bytes * 100 / total)%" }
                if let r = p.reason, p.state == "failed" || p.state == "paused" { line += " (\(r))" }
                Output.line(line)
            }
        }
    }
    return 0
}
