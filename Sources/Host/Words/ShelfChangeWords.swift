import Foundation

// What `shelf add` and `shelf remove` did to the shelf, in the patron's words.

/// A book added to the shelf, its file replaced, or a book taken off it. Titles and authors are said on one line.
public enum ShelfChange: PatronOutcome, Sendable, Equatable {
    /// Added: `authors` as the book names them, `how` its format and where its file is kept ("EPUB, copied").
    case added(title: String, authors: [String], how: String, audiobook: Bool)
    /// A new edition's file put in place of the old one (`path`): what the patron made of the book is kept.
    case replacedFile(title: String, authors: [String], path: String)
    /// Removed, and given back to the library first when `returned`.
    case removed(title: String, returned: Bool)
    /// A book removed from the shelf but not returned: the loan runs until `until` (words: "tomorrow").
    case stillOnLoan(entryID: String, until: String)

    public var sentence: String {
        switch self {
        case .added(let title, let authors, let how, _):
            return "Added \(quoted(DisplayText.oneLine(title)))\(by(authors)) (\(how))."
        case .replacedFile(let title, let authors, let path):
            return "Replaced the file of \(quoted(DisplayText.oneLine(title)))\(by(authors)) with \(path); your place, "
                + "bookmarks and settings are kept."
        case .removed(let title, let returned):
            return "Removed \(quoted(DisplayText.oneLine(title))) from the shelf"
                + (returned ? " and returned it to the library." : ".")
        case .stillOnLoan(_, let until): return "It is still on loan to you until \(until)."
        }
    }

    public var next: NextStep? {
        switch self {
        case .added(let title, _, _, let audiobook):
            let command = audiobook ? "Listen to it with: shelf play" : "Read it with: shelf read"
            return NextStep(
                terminal: "\(command) \"\(DisplayText.oneLine(title))\"",
                browser: audiobook ? "Listen opens it, in My Books." : "Read opens it, in My Books.")
        case .stillOnLoan(let entryID, _):
            return NextStep(terminal: "Return it with `shelf return \(entryID)`.", browser: "Return it from My Books.")
        default: return nil
        }
    }
}

/// " by A, B", or nothing for a book that names no author.
private func by(_ authors: [String]) -> String {
    authors.isEmpty ? "" : " by " + authors.map(DisplayText.oneLine).joined(separator: ", ")
}
