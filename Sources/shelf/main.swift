import Foundation
import Glibc
import Host

// shelf: the command line. It parses words, calls the Host library, and prints text or --json.
// The commands are listed in CommandTable.swift.

func usage() -> String {
    var text = """
        shelf \(Shelf.version): a reading host for library books, with formats and connectors as plugins.

        Usage: shelf [--plugin-path DIR]... COMMAND [ARGS] [--json]

        Commands:

        """
    for c in commands where !c.hidden {
        text +=
            "  " + c.name.padding(toLength: max(16, c.name.count + 2), withPad: " ", startingAt: 0) + c.summary + "\n"
    }
    text += """

        Every command takes --json (before or after the command) for output that scripts can rely on (docs/json.md).
        `shelf help COMMAND` explains one command.
        Plugin log lines go to standard error from warning up; SHELF_LOG=debug shows every plugin's
        debug lines, SHELF_LOG=org.example.fb2:debug one plugin's, SHELF_LOG=warning,org.example.*:info
        a family's (levels: debug, info, warning, error, none; plugin.h).

        """
    return text + ExitStatus.helpText
}

func help(for name: String) throws -> String {
    guard let c = commands.first(where: { $0.name == name }) else {
        throw CommandUsage.noCommand(name).error
    }
    return "Usage: \(c.usage)\n\n\(c.summary.prefix(1).uppercased() + c.summary.dropFirst()).\n\n\(c.details)\n"
}

func run(_ words: [String]) throws -> Int32 {
    // Global options (--json, --plugin-path) go before or after the command: `shelf --json loans` is `shelf loans --json`.
    var rest = words[...]
    var pluginPaths: [String] = []
    var jsonBeforeCommand = false
    while let first = rest.first, first.hasPrefix("-") {
        switch first {
        case "--help", "-h": Output.line(usage()); return 0
        case "--version": Output.line("shelf \(Shelf.version) (plugin ABI 1.0)"); return 0
        case "--json":
            jsonBeforeCommand = true
            rest = rest.dropFirst()
        case "--plugin-path":
            rest = rest.dropFirst()
            guard let dir = rest.first else { throw CommandUsage.pluginPathNeedsValue.error }
            pluginPaths.append(dir)
            rest = rest.dropFirst()
        default:
            if first.hasPrefix("--plugin-path=") {
                pluginPaths.append(String(first.dropFirst("--plugin-path=".count)))
                rest = rest.dropFirst()
            } else {
                throw CommandUsage.unknownOption(first, global: true).error
            }
        }
    }
    guard let name = rest.first else {
        FileHandle.standardError.write(Data(usage().utf8))
        return ShelfError.Kind.usage.rawValue
    }
    let words = Array(rest.dropFirst())
    if name == "help" {
        Output.line(words.isEmpty ? usage() : try help(for: words[0]))
        return 0
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        throw CommandUsage.noCommand(name).error
    }
    if words.contains("--help") || words.contains("-h") {
        Output.line(try help(for: name))
        return 0
    }
    var args: Arguments
    do {
        args = try Arguments(
            words, valueOptions: command.valueOptions.union(["--plugin-path"]),
            flagOptions: command.flagOptions.union(["--json"]))
    } catch var error as ShelfError where error.hint == nil {
        // An option this command does not take, or one without its value: the options it does take.
        error.hint = "Usage: \(command.usage)"
        throw error
    }
    pluginPaths += args.all("--plugin-path")
    args.values["--plugin-path"] = nil
    guard command.positionals.contains(args.positionals.count) else {
        throw command.argumentCountError(args.positionals)
    }
    let json = jsonBeforeCommand || args.has("--json")
    // Progress from plugins goes to stderr, and only where a person watches it.
    if !json && isatty(STDERR_FILENO) == 1 {
        Shelf.showPluginProgress { _, fraction, label in
            let percent = fraction >= 0 ? " \(Int((fraction * 100).rounded()))%" : ""
            Output.standardError("\r\u{1B}[K" + (label ?? "working") + percent)
            if fraction >= 1 { Output.standardError("\r\u{1B}[K") }
        }
    }
    let context = Context(json: json, pluginPaths: pluginPaths)
    if !command.runsUntilStopped { context.shelf.beginCommandDeadline() }
    // Notifications not yet seen on a terminal: one line each on stderr, before and after the command.
    announceNotificationsOnTerminal(json: json, shelf: context.shelf)
    defer { announceNotificationsOnTerminal(json: json, shelf: context.shelf) }
    return try command.run(args, context)
}

// Ctrl-C asks every call in flight to stop (plugins poll is_cancelled, transfers and waits poll the flag); a
// second one ends shelf with 130. The handler only sets a sig_atomic_t.
Shelf.installInterruptHandler()
signal(SIGPIPE, SIG_IGN)

do {
    exit(Output.finish(try run(Array(CommandLine.arguments.dropFirst()))))
} catch {
    exit(Output.finish(Output.failure(error)))
}
