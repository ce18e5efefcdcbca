import Foundation
import Glibc
import Host

let watchCommand = Command(
    name: "watch", summary: "sync every account periodically and notify (or install a systemd timer for it)",
    usage: "shelf watch [--interval 15m] [--once | --cycles N] [--install] [--json]",
    details: "Syncs every account, runs the notification rules and hands new notifications to the desktop, then "
        + "waits --interval (30s, 15m, 2h, 1d; 15m by default) and does it again, until Ctrl-C; --once stops after "
        + "one pass, --cycles N after N. It prints only what changed: new notifications on stdout, an account that "
        + "starts failing on stderr. An account whose sync fails is tried again later and later (twice the interval "
        + "per failure in a row, up to six hours), and nothing stored changes for it. Only one watcher runs at a "
        + "time (a lock in shelf's data folder): a second one exits with 75.\n\n"
        + "--install writes shelf-watch.service (runs `shelf watch --once`) and shelf-watch.timer (every --interval; with "
        + "SHELF_HOME set, shelf-watch-FOLDER-HASH, so the units of your own shelf stay as they are) "
        + "into systemd's user folder ($XDG_CONFIG_HOME/systemd/user) and says how to start them; it enables nothing.",
    valueOptions: ["--interval", "--cycles"], flagOptions: ["--once", "--install"], positionals: 0...0,
    runsUntilStopped: true
) { args, context in
    let interval: TimeInterval
    if let text = args.value("--interval") {
        guard let parsed = WatchInterval.parse(text) else {
            throw CommandUsage.notAnInterval(given: text).error
        }
        interval = parsed
    } else {
        interval = WatchInterval.standard
    }
    if args.has("--install") { return try installWatch(interval: interval, context: context) }
    if args.has("--once") && args.value("--cycles") != nil {
        throw CommandUsage.onceAndCycles.error
    }
    let cycles = args.has("--once") ? 1 : try args.int("--cycles", in: 1...1_000_000)

    let library = try context.library()
    if try !library.hasAccountToWatch {
        Output.error(CommandNotice.nothingToWatch.words(for: .terminal).line)
        return 0
    }
    let lock = try library.watchLock()
    defer { lock.release() }
    let watcher = library.watcher(interval: interval)
    var failed = false
    try watcher.run(cycles: cycles) { cycle in
        failed = cycle.failed
        if context.json {
            guard cycles == 1 || cycle.changed else { return }
            Output.json(WatchCycleJSON(cycle))
            Output.flush()
            return
        }
        for account in cycle.accounts where account.newlyFailing {
            let failed = CommandNotice.watchSyncFailed(
                account: account.accountID, error: account.error, retry: account.retryAt.map(localDayAndTime))
            Output.error(failed.words(for: .terminal).line)
        }
        for record in cycle.notifications { Output.line(record.terminalLine) }
        // What this watcher printed on a terminal counts as shown there.
        if isatty(STDOUT_FILENO) == 1 { library.markShownOnTerminal(cycle.notifications.map(\.id)) }
        Output.flush()
    }
    return failed && cycles == 1 ? ShelfError.Kind.temporary.rawValue : 0
}

private func installWatch(interval: TimeInterval, context: Context) throws -> Int32 {
    let units = try context.shelf.installWatchUnits(interval: interval)
    let written = units.files
    if context.json {
        Output.json(
            WatchInstallJSON(
                files: written, interval: WatchInterval.systemd(interval),
                enable: "systemctl --user daemon-reload && systemctl --user enable --now \(units.timerName)"))
        return 0
    }
    let wrote = CommandNotice.watchUnitsWritten(
        files: written, interval: WatchInterval.words(interval),
        enable: "systemctl --user daemon-reload && systemctl --user enable --now \(units.timerName)")
    Output.line(wrote.words(for: .terminal).line)
    return 0
}
