import Foundation

// What `shelf play` and `shelf listen` say of playback as it starts and goes on, past the controls' own words
// (`ListeningControl`): the chapter reached, the timer, the volume, a chapter typed that cannot be played. The end of
// the book and the sleep timer running out are said as the browser says them (`ListeningPageNotice`).

/// One thing playback did, or a chapter choice that went nowhere.
public enum ListeningNotice: PatronOutcome, Sendable, Equatable {
    /// `shelf listen` opened the book, paused: its chapters, its `length` in words, and where it starts (`from`).
    case opened(title: String, chapters: Int, length: String, from: String)
    /// Playback began: `from` says where ("from the start", "at 1:30"), `into` the sink's name.
    case playing(title: String, from: String, speed: Double, into: String)
    /// Chapter `number` (from 1) began.
    case chapter(number: Int, title: String)
    /// A chapter typed that has not downloaded that far yet.
    case chapterStillDownloading(number: Int)
    /// Enter with no digits, or a key that left the choice.
    case noChapterChosen
    /// A number typed that is no chapter of a book of `count`.
    case noSuchChapter(typed: String, count: Int)
    /// The volume now, in percent.
    case volume(percent: Int)
    /// The sleep timer now: nil is off.
    case sleepTimer(SleepTimer.Mode?)
    /// g pressed: a chapter's number comes next.
    case choosingChapter
    /// Playback met trouble (`message`: an error's or a damaged track's words) and goes on past it, or stopped.
    case problem(String)

    public var sentence: String {
        switch self {
        case .playing(let title, let from, let speed, let into):
            return "Playing \(quoted(DisplayText.oneLine(title))) \(from), speed \(speed)x, into \(into)."
        case .opened(let title, let chapters, let length, let from):
            return "\(quoted(DisplayText.oneLine(title))), \(Plural.count(chapters, "chapter")), \(length); \(from)."
        case .chapter(let number, let title): return "Chapter \(number), \(DisplayText.oneLine(title))."
        case .chapterStillDownloading(let number):
            return "Chapter \(number) is still downloading and cannot be chosen yet."
        case .noChapterChosen: return "No chapter chosen."
        case .noSuchChapter(let typed, let count):
            return "There is no chapter \(typed): "
                + (count == 1 ? "the book has one." : "the chapters are 1 to \(count).")
        case .volume(let percent): return "Volume \(percent) percent."
        case .sleepTimer(.minutes(let minutes)?): return "Sleep timer: \(Int(minutes)) minutes."
        case .sleepTimer(.endOfChapter?): return "Sleep timer: at the end of this chapter."
        case .sleepTimer(nil): return "Sleep timer off."
        case .choosingChapter: return "Type a chapter number and press Enter (Escape: none)."
        case .problem(let message):
            var clause = message.trimmingCharacters(in: .whitespacesAndNewlines)
            while clause.hasSuffix(".") { clause.removeLast() }
            return "Problem: \(clause)."
        }
    }

    public var next: NextStep? {
        switch self {
        case .noSuchChapter: return NextStep(terminal: "Press c to list them, g to choose again.", browser: nil)
        case .opened:
            return NextStep(terminal: "Paused: press space to play, h for help, q to quit.", browser: "Press Play.")
        default: return nil
        }
    }
}
