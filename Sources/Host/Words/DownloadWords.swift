// A download's state in the patron's words: `shelf download`'s last line, and what the browser app says as a download
// starts, goes on (at most every 15 seconds), ends or fails.

extension DownloadState: PatronOutcome {
    public var sentence: String {
        switch self {
        case .started(let entry):
            return "Downloading \(quoted(entry))."
        case .playable(let entry, _):
            return "\(quoted(entry)) can be listened to now: its first part is here, and the rest arrives as it plays."
        case .progress(let entry, let fraction):
            return "Downloading \(quoted(entry)): \(Int((min(1, max(0, fraction)) * 100).rounded())) percent."
        case .done(let outcome) where outcome.supported:
            return "Downloaded \(quoted(outcome.entry)) (\(outcome.entry.format.words)) to \(outcome.path)."
        case .done(let outcome):
            return "Downloaded \(quoted(outcome.entry)), but it is protected by "
                + "\(outcome.protection ?? "a format no installed plugin opens"), which shelf cannot open."
        case .failed(let entry, let error):
            return "The download of \(quoted(entry)) did not finish: "
                + ShelfError.sentence(error.message).lowercasedFirst
        }
    }

    public var next: NextStep? {
        switch self {
        case .started, .progress, .playable: return nil
        case .done(let outcome) where outcome.supported: return NextStep(terminal: nil, browser: "It is in My Books.")
        case .done(let outcome): return NextStep("The file is kept at \(outcome.path) for a tool that can.")
        case .failed(let entry, let error):
            if error.kind == .temporary {
                return NextStep(
                    terminal: "Run `shelf download \(entry.id)` again later: it resumes where it stopped.",
                    browser: "Try Download again later.")
            }
            return error.next
        }
    }
}

extension String {
    /// The text with its first letter in lower case, for a clause after a colon.
    var lowercasedFirst: String {
        guard let first else { return self }
        // An acronym or a name (“HTTP”, “OPDS”) keeps its capital: only a capital followed by a lower-case letter is lowered.
        guard dropFirst().first?.isLowercase ?? false else { return self }
        return first.lowercased() + dropFirst()
    }
}
