import Foundation

// What the smaller commands say they did: `shelf watch --install`, `shelf settings`, `shelf sniff`,
// `shelf open-notification`, `shelf info` on a book with damaged tracks, `shelf serve` once it is up.

/// One outcome of a command with little to say.
public enum CommandNotice: PatronOutcome, Sendable, Equatable {
    /// `shelf watch --install` wrote the systemd units `files`, run every `interval` (in words); `enable` is the
    /// command line that starts them.
    case watchUnitsWritten(files: [String], interval: String, enable: String)
    /// Reader settings changed for `book` (its title), or for every book.
    case settingsChanged(book: String?)
    /// `shelf sniff`: the plugin that opens the file, or none.
    case opensWith(plugin: String?)
    /// `shelf open-notification`: going where the notification leads (`place` in words, `route` as the app names it).
    case openingNotification(place: String, route: String)
    /// `shelf info`: some of the book's tracks are missing or damaged (each said before).
    case damagedTracks
    /// `shelf serve` serves in the foreground until Ctrl-C.
    case serving
    /// `shelf watch`: the sync of `account` failed with `error` for the first time in a row; tried again after
    /// `retry` (a day and time in words), or later.
    case watchSyncFailed(account: String, error: String?, retry: String?)
    /// `shelf annotations sync`: the book `title` was not synced, for `error`.
    case annotationsNotSynced(title: String, error: String)
    /// `shelf watch` with no account whose loans it could watch.
    case nothingToWatch
    /// `shelf serve --open` could not start a browser (xdg-open).
    case browserNotStarted
    /// `shelf serve --listen`: reachable on `listen`, where a browser signs in at `login` with the password.
    case listeningBeyondThisComputer(listen: String, login: String)

    public var sentence: String {
        switch self {
        case .watchUnitsWritten(let files, _, _): return "Wrote \(files.joined(separator: " and "))."
        case .settingsChanged(let book):
            return "Settings for \(book.map { quoted(DisplayText.oneLine($0)) } ?? "every book") changed."
        case .opensWith(let plugin?): return "Opens with \(plugin)."
        case .opensWith(nil): return "No installed plugin opens it."
        case .openingNotification(let place, let route): return "Opening \(place) (\(route))."
        case .damagedTracks: return "Playback warns and goes on past the tracks that are missing or damaged."
        case .serving: return "Serving in the foreground."
        case .annotationsNotSynced(let title, let error):
            var reason = error.trimmingCharacters(in: .whitespacesAndNewlines)
            while reason.hasSuffix(".") { reason.removeLast() }
            return "\(quoted(DisplayText.oneLine(title))) was not synced (\(reason)); nothing here changed."
        case .nothingToWatch: return "There is no library account with a loans feed to watch."
        case .browserNotStarted: return "Could not start a browser (xdg-open)."
        case .watchSyncFailed(let account, let error, _):
            return "The sync of \(account) failed (\(error ?? "unknown error")); nothing stored changed."
        case .listeningBeyondThisComputer(let listen, let login):
            return "Also listening on \(listen): a browser there signs in at \(login) with the password. "
                + "The connection is not encrypted."
        }
    }

    public var next: NextStep? {
        switch self {
        case .watchUnitsWritten(_, let interval, let enable):
            return NextStep(
                terminal: "They run `shelf watch --once` every \(interval). Start them with:\n  \(enable)", browser: nil
            )
        case .damagedTracks:
            return NextStep(
                terminal: "Copy or download those tracks again.",
                browser: "Download the book again to have them whole.")
        case .serving: return NextStep(terminal: "Press Ctrl-C to stop.", browser: nil)
        case .nothingToWatch:
            return NextStep(terminal: "Add one with `shelf account add URL`.", browser: "Add one on the Accounts page.")
        case .browserNotStarted: return NextStep(terminal: "Open the address above yourself.", browser: nil)
        case .watchSyncFailed(_, _, let retry):
            return NextStep("It is tried again \(retry.map { "after \($0)" } ?? "later").")
        default: return nil
        }
    }
}
