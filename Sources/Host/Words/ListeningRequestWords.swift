// What the browser app's listening routes (the player's `/api/player`, the reader's read-aloud `/api/listen`, and the
// tracks they serve) say when a request cannot be answered: a book of the other kind, a track that is not there, a
// place that could not be saved. The request's general shape (a parameter missing, a body that is no JSON) is
// `RequestProblem`'s.

/// One way a request to listen went wrong.
public enum ListeningRequestProblem: Sendable, Equatable {
    /// The player was asked to play a book that is not an audiobook.
    case notAnAudiobook(title: String)
    /// Listen (read aloud) was pressed on an audiobook.
    case anAudiobook(title: String)
    /// The book has nothing a speech plugin can read.
    case noTextToReadAloud(title: String)
    /// The book's read-aloud session ended or never began (the server restarted, Listen was never pressed).
    case notBeingListenedTo
    /// `href` is not one of the book's tracks (empty: the address names no book).
    case notATrack(href: String)
    /// The session read aloud has no such track now: the book was read aloud afresh since.
    case noSpokenTrack
    /// The audiobook track's file went from shelf's cache.
    case trackFileMissing
    /// The file of a track being read aloud is gone.
    case spokenTrackFileMissing
    /// A track taken from the book could not be kept in shelf's cache (`folder`).
    case trackNotKept(folder: String)
    /// `"seconds"` is not a time from the start of the book.
    case secondsNotATime
    /// `"track"` and `"seconds"` do not say where in the book read aloud listening is.
    case spokenPlaceNotGiven
    /// The place listened to could not be saved; `detail` is why, as the host said it.
    case placeNotSaved(detail: String)

    /// The place could not be saved because of `error`: its words, not its debugging description.
    public static func placeNotSaved(because error: Error) -> ListeningRequestProblem {
        .placeNotSaved(detail: ShelfError.words(error))
    }
}

extension ListeningRequestProblem: PatronOutcome {
    public var sentence: String {
        switch self {
        case .notAnAudiobook(let title): return "“\(title)” is not an audiobook."
        case .anAudiobook(let title): return "“\(title)” is an audiobook."
        case .noTextToReadAloud(let title): return "“\(title)” has no text to read aloud."
        case .notBeingListenedTo: return "This book is not being listened to."
        case .notATrack(let href):
            return href.isEmpty ? "No track is at this address." : "This book has no track \(href)."
        case .noSpokenTrack: return "This spoken track is no longer being read aloud."
        case .trackFileMissing: return "The track’s file is missing."
        case .spokenTrackFileMissing: return "The spoken track’s file is missing."
        case .trackNotKept(let folder): return "The track could not be kept in \(folder)."
        case .secondsNotATime: return "“seconds” must be a time in seconds from the start of the book."
        case .spokenPlaceNotGiven: return "“track” and “seconds” (seconds into the track) must say where listening is."
        case .placeNotSaved(let detail):
            return ShelfError.sentence("The place listened to could not be saved: \(detail)")
        }
    }

    public var next: NextStep? {
        switch self {
        case .notAnAudiobook: return NextStep(terminal: nil, browser: "Read it in the reader.")
        case .anAudiobook: return NextStep(terminal: nil, browser: "Listen to it in the player.")
        case .notBeingListenedTo: return NextStep(terminal: nil, browser: "Press Listen.")
        case .noSpokenTrack, .spokenTrackFileMissing: return NextStep(terminal: nil, browser: "Press Listen again.")
        case .trackFileMissing: return NextStep(terminal: nil, browser: "Press Play again.")
        case .trackNotKept: return NextStep(terminal: nil, browser: "Make room in that folder, then press Play again.")
        case .placeNotSaved: return NextStep(terminal: nil, browser: "Try again in a moment.")
        default: return nil
        }
    }
}
