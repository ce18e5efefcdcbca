import Foundation
import Host
import Web

let serveCommand = Command(
    name: "serve", summary: "the library app in your browser",
    usage: "shelf serve [--open [FILE]] [--port N] [--listen ADDR --password-file FILE] [--json]",
    details: "Serves shelf's browser app on 127.0.0.1 and prints its address with a key; the key lets one browser "
        + "in (it becomes a cookie) and stays valid while this server runs. --open starts your browser on it "
        + "(xdg-open), or on FILE in the reader or player (a file on this computer: an audiobook on the web plays with "
        + "`shelf play URL`). A second `shelf serve --open` opens the server that "
        + "runs. --port N chooses the port (any free one by default). --listen ADDR serves on another address "
        + "too, for a browser on another machine; it needs a password (--password-file FILE, or "
        + "SHELF_SERVE_PASSWORD), which that browser gives at /login.html, and the connection is not encrypted. "
        + "The library is synced every 15 minutes while it serves. Ctrl-C stops it.",
    valueOptions: ["--port", "--listen", "--password-file"], flagOptions: ["--open"], positionals: 0...1,
    runsUntilStopped: true
) { args, context in
    var options = Serve.Options()
    options.open = args.has("--open") || !args.positionals.isEmpty
    if let given = args.positionals.first, given.hasPrefix("http://") || given.hasPrefix("https://") {
        throw CommandRefusal.serveOpensFiles(address: given).error
    }
    options.file = args.positionals.first.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    if let port = try args.int("--port", in: 0...65535) { options.port = UInt16(port) }
    options.listen = args.value("--listen")
    if let listen = options.listen {
        if let file = args.value("--password-file") {
            // Missing, unreadable or not text: the error names the file, which is what the patron checks.
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CommandLookup.passwordFileUnreadable(path: file).error
            }
            options.password = text.trimmingCharacters(in: .newlines)
        } else {
            options.password = context.shelf.environment["SHELF_SERVE_PASSWORD"]
        }
        guard let password = options.password, password.count >= 8 else {
            throw CommandRefusal.serveListensWithoutPassword(listen: listen).error
        }
    }
    let directories = try context.shelf.requireDirectories()
    let executable = URL(fileURLWithPath: context.shelf.executablePath)
    try Serve.run(options, executable: executable, environment: context.shelf.environment, cache: directories.cache) {
        started in
        if context.json {
            Output.line(
                #"{"url": "\#(started.url)", "open": "\#(started.launchURL)", "reused": \#(started.reused), "pid": \#(started.pid)}"#
            )
        } else {
            Output.line((started.reused ? "shelf is already serving at " : "shelf is serving at ") + started.url)
            Output.line("Open this address to let your browser in: \(started.launchURL)")
            if let listen = options.listen {
                let beyond = CommandNotice.listeningBeyondThisComputer(
                    listen: listen, login: "\(started.url)login.html")
                Output.line(beyond.words(for: .terminal).line)
            }
            if options.open && !started.opened {
                Output.error(CommandNotice.browserNotStarted.words(for: .terminal).line)
            }
            if !started.reused { Output.line(CommandNotice.serving.words(for: .terminal).line) }
        }
        Output.flush()
    }
    return 0
}
