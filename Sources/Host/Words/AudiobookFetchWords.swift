// What `shelf fetch` says of a remote audiobook's download when it does not end with every part: stopped by Ctrl-C,
// or sent on in a process of its own.

/// A fetch of an audiobook's parts from the address of its manifest (`url`).
public enum AudiobookFetchNotice: PatronOutcome, Sendable, Equatable {
    /// Ctrl-C stopped it; the parts downloaded are kept.
    case interrupted(url: String)
    /// Going on in `process`, which writes to `log`.
    case inBackground(process: Int32, log: String)

    public var sentence: String {
        switch self {
        case .interrupted: return "Stopped by an interruption; the parts downloaded are kept."
        case .inBackground(let process, let log):
            return "Downloading in the background (process \(process)), with its log in \(log)."
        }
    }

    public var next: NextStep? {
        switch self {
        case .interrupted(let url):
            return NextStep(terminal: "`shelf fetch \(url)` resumes where it stopped.", browser: nil)
        case .inBackground: return NextStep(terminal: "`shelf downloads` shows progress.", browser: nil)
        }
    }
}
