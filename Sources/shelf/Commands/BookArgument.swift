import Foundation
import Glibc
import Host

// The BOOK argument of every command that takes a book from the shelf, found by one resolver (BookReference).

/// How BOOK is explained in every bookshelf command's help.
let bookArgumentHelp =
    "BOOK is a path, a library id (`shelf books` shows them), or any unique part of a title; "
    + "a part that fits several books lists them (exit 64)."

/// The same for `play` and `listen`, which also take a file that is not on the shelf.
let audioBookArgumentHelp =
    "BOOK is an audiobook file, or a book on the shelf by its path, library id, catalog ID "
    + "or any unique part of its title; its place is kept with the book on the shelf (`shelf books`)."

/// The same for the commands that read a book's file (`info`, `toc`, `render`, ...), which take any file.
let fileArgumentHelp =
    " FILE may also be a book on the shelf, named as `shelf read` names one (a title or a unique part "
    + "of it, a library id, a download's catalog ID)."

/// The same, for a command that changes or deletes something.
let changingBookArgumentHelp =
    "BOOK is a path, a library id (`shelf books` shows them) or the whole title; a part "
    + "of a title is asked about on a terminal and refused elsewhere (exit 64), as is a part that fits several books."

extension Bookshelf {
    /// The book BOOK names, for a command that changes or deletes something: a part of a title is only taken when
    /// the patron answers `question` with yes on a terminal.
    func findToChange(_ text: String, action: String, question: @escaping (ShelfBook) -> String) throws -> ShelfBook {
        try find(
            text, for: .change(action),
            confirm: TerminalQuestion.isAvailable ? { TerminalQuestion.ask(question($0)) } : nil)
    }
}

/// A yes-or-no question on the terminal, asked only when both the keyboard and stderr are one.
enum TerminalQuestion {
    static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// True only for an answer that starts with y: the safe answer is the default.
    static func ask(_ question: String) -> Bool {
        Output.standardError(question + " [y/N] ", flush: true)
        guard let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() else {
            return false
        }
        return answer.hasPrefix("y")
    }
}
