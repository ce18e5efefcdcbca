import Foundation
import Glibc
import Host

/// Audiobook commands (play, listen, fetch, downloads); registered in main.swift.
let audioCommands: [Command] = [playCommand, listenCommand, fetchCommand, downloadsCommand]

/// A book to play: a local file, or a remote manifest whose parts download while it plays.
struct PlayableBook {
    let book: AudioBook
    let remote: RemoteAudiobook?

    static func open(_ target: String, context: Context) throws -> PlayableBook {
        if let url = URL(string: target), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let remote = try RemoteAudiobook(url: url, shelf: context.shelf)
            return PlayableBook(book: remote.book, remote: remote)
        }
        return PlayableBook(book: try AudioBook(path: downloadedPath(target, context: context) ?? target, router: context.shelf.router),
                            remote: nil)
    }

    /// An audiobook downloaded from a library (`shelf download ID`), named by its catalog ID (or a
    /// unique part of it) rather than its path: the manifest in the downloads folder.
    static func downloadedPath(_ target: String, context: Context) -> String? {
        guard !FileManager.default.fileExists(atPath: target), let library = openLibrary(context),
              let books = try? library.books() else { return nil }
        let audio = books.filter { $0.id.hasPrefix("catalog:") && $0.mediaType.hasPrefix("application/audiobook") && $0.path != nil }
        let exact = audio.filter { $0.id.hasSuffix(":" + target) }
        let matches = exact.isEmpty ? audio.filter { $0.id.localizedCaseInsensitiveContains(target) } : exact
        return matches.count == 1 ? matches[0].path : nil
    }

    /// Starts downloading the parts (if remote) and waits until the one holding `track` is whole.
    func startDownloads(store: DownloadStore?, waitFor track: Int) throws {
        guard let remote else { return }
        if let store {
            try? store.record(id: remote.id, manifestURL: remote.url, title: book.title, directory: remote.directory, pid: getpid())
            remote.downloader.onChange = { part in try? store.update(id: remote.id, part: part) }
        }
        remote.downloader.start()
        while !remote.downloader.isComplete(track) {
            if let part = remote.downloader.snapshot.first(where: { $0.index == track }), part.state == .failed {
                throw ShelfError(.temporary, "track \(track + 1) cannot be downloaded: \(part.reason ?? "unknown reason")",
                                 subject: remote.url.absoluteString, hint: "`shelf downloads` shows every part; try again later.")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        remote.adoptCompletedParts()
    }
}

func openLibrary(_ context: Context) -> LibraryDatabase? {
    guard let dirs = context.shelf.directories else { return nil }
    _ = try? dirs.createData()
    return try? LibraryDatabase(directories: dirs)
}

func makeSink(_ args: Arguments) throws -> AudioSink {
    if args.has("--null") { return NullSink() }
    if args.has("--raw") { return RawPCMSink() }
    if let out = args.value("--out") { return WAVFileSink(path: out) }
    return DeviceSink()
}

/// Where to start: --from, --chapter, else the saved position (unless the book was finished).
func startPosition(_ engine: PlaybackEngine, _ args: Arguments, store: PlaybackPositionStore?) throws -> String {
    if args.value("--from") != nil && args.value("--chapter") != nil {
        throw ShelfError(.usage, "--from and --chapter cannot be used together")
    }
    if let from = args.value("--from") {
        guard let s = PlaybackTime.parse(from) else {
            throw ShelfError(.usage, "--from takes a time such as 90, 1:30 or 1:02:03, not \"\(from)\"")
        }
        engine.seek(to: s)
        return "from \(PlaybackTime.clock(s))"
    }
    if let text = args.value("--chapter") {
        guard let n = Int(text), engine.chapters.indices.contains(n - 1) else {
            throw ShelfError(.usage, "--chapter takes a number from 1 to \(engine.chapters.count), not \"\(text)\"",
                             hint: "`shelf toc` lists the chapters.")
        }
        guard engine.goToChapter(n - 1) else {
            throw ShelfError(.temporary, "chapter \(n) is still downloading and cannot be chosen yet")
        }
        return "from chapter \(n), \(engine.chapters[n - 1].title)"
    }
    if let store, let saved = store.restore(book: engine.book, timeline: engine.timeline),
       saved < engine.timeline.totalFrames - Int64(engine.sampleRate) {
        engine.seek(toFrame: saved)
        return "resuming at \(PlaybackTime.clock(engine.timeline.seconds(saved)))"
    }
    return "from the start"
}

/// What `play` and `listen` start from: the book (a remote one's parts downloading in the background, each
/// playable once whole), an engine that saves its place and has the common options applied, the place it
/// starts from in words, and where the sound goes.
func startPlayback(_ args: Arguments, _ context: Context, options: PlaybackEngine.Options = PlaybackEngine.Options())
    throws -> (playable: PlayableBook, engine: PlaybackEngine, started: String, sink: AudioSink) {
    let playable = try PlayableBook.open(args.positionals[0], context: context)
    let library = openLibrary(context)
    let store = library.map(PlaybackPositionStore.init)
    try playable.startDownloads(store: library.map(DownloadStore.init), waitFor: 0)
    let engine = try PlaybackEngine(book: playable.book, options: options, isTrackAvailable: playable.remote.map { r in
        { i in
            if r.downloader.isComplete(i) { r.adoptCompletedParts(); return true }
            return false
        }
    })
    engine.positionStore = store
    try applyCommonSettings(engine, args)
    let started = try startPosition(engine, args, store: store)
    return (playable, engine, started, try makeSink(args))
}

func applyCommonSettings(_ engine: PlaybackEngine, _ args: Arguments) throws {
    if let text = args.value("--speed") {
        guard let v = Double(text.hasSuffix("x") ? String(text.dropLast()) : text), v >= 0.5, v <= 3.0 else {
            throw ShelfError(.usage, "--speed takes a number from 0.5 to 3.0 (in steps of 0.05), not \"\(text)\"")
        }
        engine.setSpeed(v)
    }
    if let text = args.value("--sleep") {
        guard let mode = SleepTimer.parse(text) else {
            throw ShelfError(.usage, "--sleep takes minutes (e.g. 20) or \"chapter\", not \"\(text)\"")
        }
        engine.setSleep(mode)
    }
    if let text = args.value("--volume") {
        guard let v = Double(text), v >= 0, v <= 200 else {
            throw ShelfError(.usage, "--volume takes a percentage from 0 to 200, not \"\(text)\"")
        }
        engine.setVolume(v / 100)
    }
}

struct PlayReport: Encodable {
    let title: String
    let output: String
    let started: String
    let stoppedBecause: String
    let state: PlaybackState
}

let playCommand = Command(
    name: "play", summary: "play an audiobook (file or URL) at once",
    usage: "shelf play FILE|URL [--from TIME | --chapter N] [--speed X] [--sleep MIN|chapter] [--volume PCT] [--out FILE.wav | --raw | --null] [--json]",
    details: """
    Plays at once: the command is the request. Without --from or --chapter it resumes where the
    last play stopped (the position is saved every few seconds, on pause and on quit).
      --from TIME      90, 1:30 or 1:02:03 on the book's timeline
      --chapter N      chapter N of `shelf toc` (1 is the first)
      --speed X        0.5 to 3.0 in steps of 0.05; the pitch is kept
      --sleep MIN      stop after MIN minutes of listening, or "chapter" for the end of this chapter
      --volume PCT     the book's own volume, 0 to 200 percent
      --out FILE.wav   write a WAV file (16-bit) instead of playing on the sound device
      --raw            raw signed 16-bit little-endian PCM on stdout
      --null           play into nothing (as fast as possible; for tests)
    File and null outputs run as fast as the machine allows. A URL is an audiobook manifest:
    its parts download into the cache (several at once) and each plays as soon as it is whole.
    """,
    valueOptions: ["--from", "--chapter", "--speed", "--sleep", "--out", "--volume"],
    flagOptions: ["--null", "--raw"],
    positionals: 1...1
) { args, context in
    let (playable, engine, started, sink) = try startPlayback(args, context)
    final class Reason: @unchecked Sendable { var text = "the end of the book" }
    let reason = Reason()
    engine.onEvent = { event in
        switch event {
        case .sleepStopped: reason.text = "the sleep timer"
        case .waiting(let what) where !context.json && !args.has("--raw"):
            Output.error("waiting for \(what) to download")
        default: break
        }
    }
    // Ctrl-C stops playback and saves the position.
    let watcher = Thread {
        while !HostServices.cancelRequested { Thread.sleep(forTimeInterval: 0.1) }
        reason.text = "an interruption"
        engine.quit()
    }
    watcher.start()
    let toStdout = args.has("--raw")
    if !context.json && !toStdout {
        Output.line("Playing \"\(playable.book.title)\" \(started), speed \(engine.state.speed)x, into \(sink.name).")
    }
    try engine.run(sink: sink)
    let state = engine.state
    if context.json && !toStdout {
        Output.json(PlayReport(title: playable.book.title, output: sink.name, started: started, stoppedBecause: reason.text, state: state))
    } else if !toStdout {
        Output.line("Stopped by \(reason.text) at \(PlaybackTime.clock(state.position)) of \(PlaybackTime.clock(state.duration)); "
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
    guard let url = URL(string: args.positionals[0]), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
        throw ShelfError(.usage, "fetch takes the http(s) URL of an audiobook manifest", subject: args.positionals[0])
    }
    let parallel = try args.int("--parallel", in: 1...8) ?? 3
    if args.has("--background") {
        return try spawnBackgroundFetch(url: url, parallel: parallel, context: context)
    }
    let remote = try RemoteAudiobook(url: url, shelf: context.shelf, concurrency: parallel)
    let store = openLibrary(context).map(DownloadStore.init)
    try? store?.record(id: remote.id, manifestURL: url, title: remote.book.title, directory: remote.directory, pid: getpid())
    let tty = isatty(STDERR_FILENO) != 0
    var lastLine = Date.distantPast
    remote.downloader.onChange = { part in
        try? store?.update(id: remote.id, part: part)
        let t = remote.downloader.totals
        if tty, !context.json, Date().timeIntervalSince(lastLine) > 0.2 || part.state != .downloading {
            lastLine = Date()
            let pct = t.total.map { $0 > 0 ? " (\(Int(Double(t.bytes) * 100 / Double($0)))%)" : "" } ?? ""
            fputs("\r\(t.complete) of \(t.count) parts, \(t.bytes / 1024) KiB\(pct); part \(part.index + 1) \(part.state.rawValue)   ", stderr)
        }
    }
    for part in remote.downloader.snapshot { try? store?.update(id: remote.id, part: part) }
    remote.downloader.run()
    if tty, !context.json { fputs("\n", stderr) }
    let parts = remote.downloader.snapshot
    let failed = parts.filter { $0.state != .complete }
    if context.json {
        Output.json(FetchReport(title: remote.book.title, directory: remote.directory.path,
                                parts: parts.map(PartReport.init)))
    } else {
        Output.line("\"\(remote.book.title)\": \(parts.count - failed.count) of \(parts.count) parts downloaded into \(remote.directory.path)")
        for p in failed { Output.line("  part \(p.index + 1): \(p.state.rawValue): \(p.reason ?? "")") }
    }
    return failed.isEmpty ? 0 : ShelfError.Kind.temporary.rawValue
}

struct PartReport: Encodable {
    let part: Int
    let state: String
    let bytes: Int64
    let total: Int64?
    let reason: String?
    let path: String
    init(_ p: PartDownloader.Part) {
        part = p.index + 1
        state = p.state.rawValue
        bytes = p.bytes
        total = p.total
        reason = p.reason
        path = p.destination.path
    }
}

struct FetchReport: Encodable {
    let title: String
    let directory: String
    let parts: [PartReport]
}

/// Runs `shelf fetch URL` detached (its own session, output to a log in the cache), so that the
/// download goes on after this command, the player or the terminal is gone.
func spawnBackgroundFetch(url: URL, parallel: Int, context: Context) throws -> Int32 {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let log = (context.shelf.directories?.cache.path ?? NSTemporaryDirectory()) + "/fetch-\(getpid()).log"
    _ = try? context.shelf.directories?.createCache()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    var arguments = [exe]
    arguments += ["fetch", url.absoluteString, "--parallel", "\(parallel)"]
    process.arguments = FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") ? arguments : Array(arguments.dropFirst())
    if !FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") { process.executableURL = URL(fileURLWithPath: exe) }
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let handle = FileHandle(forWritingAtPath: log)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if context.json {
        Output.json(["pid": "\(process.processIdentifier)", "log": log, "url": url.absoluteString])
    } else {
        Output.line("Downloading in the background (process \(process.processIdentifier)); `shelf downloads` shows progress. Log: \(log)")
    }
    return 0
}

let downloadsCommand = Command(
    name: "downloads", summary: "audiobook downloads and the state of each part",
    usage: "shelf downloads [--json]",
    details: "Lists every audiobook download with each part queued, downloading, paused, failed (with its reason) or complete.",
    positionals: 0...0
) { _, context in
    guard let library = openLibrary(context) else {
        throw ShelfError(.ioError, "the library database cannot be opened", hint: "Set HOME or SHELF_HOME.")
    }
    let downloads = try DownloadStore(database: library).all()
    struct Item: Encodable { let id: String; let title: String; let url: String; let directory: String; let active: Bool; let parts: [PartReport] }
    let items = downloads.map { d -> Item in
        let alive = d.pid.map { kill($0, 0) == 0 } ?? false
        let parts = d.parts.map { p -> PartReport in
            var p = p
            // A part left "downloading" by a process that is gone is paused: it resumes next time.
            if p.state == .downloading, !alive { p.state = .paused; p.reason = "the download stopped; `shelf fetch` resumes it" }
            return PartReport(p)
        }
        return Item(id: d.id, title: d.title, url: d.manifestURL, directory: d.directory, active: alive, parts: parts)
    }
    if context.json {
        Output.json(items)
    } else if items.isEmpty {
        Output.line("No audiobook downloads.")
    } else {
        for item in items {
            let done = item.parts.filter { $0.state == "complete" }.count
            Output.line("\(item.title): \(done) of \(item.parts.count) parts complete\(item.active ? ", downloading now" : "")")
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
