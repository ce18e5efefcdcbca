import Foundation
import Glibc
import Host

/// Bookshelf and reading commands (add, books, remove, read, bookmark, settings, share, sample); registered in main.swift.
let bookshelfCommands: [Command] = [
    addCommand, booksCommand, removeCommand, readCommand, bookmarkCommand, bookmarksCommand, settingsCommand,
    shareCommand, sampleCommand
]

func openBookshelf(_ context: Context) throws -> Bookshelf { try context.shelf.bookshelf() }

/// "3 days ago", "today", or the date: how a person says when.
func relativeDay(_ date: Date, now: Date = Date()) -> String {
    let calendar = RelativeDays.calendar
    let days =
        calendar.dateComponents([.day], from: RelativeDays.startOfDay(date), to: RelativeDays.startOfDay(now)).day ?? 0
    switch days {
    case 0: return "today"
    case 1: return "yesterday"
    case 2...13: return "\(days) days ago"
    case -1: return "tomorrow"
    case -13 ... -2: return "in \(-days) days"
    default:
        return localDay(date)
    }
}

/// When a loan ends, as a sentence can say it: "due back in 3 days", "due back today", "on loan until Dec 22, 2026",
/// "loan ended yesterday" ("on loan until in 3 days" is no English).
func loanEndWords(_ end: Date, now: Date = Date()) -> String {
    let when = relativeDay(end, now: now)
    if end < now { return "loan ended \(when)" }
    return when == "today" || when == "tomorrow" || when.hasPrefix("in ") ? "due back \(when)" : "on loan until \(when)"
}

/// What `relativeDay` needs, made once per process (a listing of 10,000 books calls it for each).
private enum RelativeDays {
    static let calendar = Calendar.current
    /// The last days asked for (a listing is sorted by date, so neighbours share a day).
    nonisolated(unsafe) static var days: [DateInterval] = []
    static func startOfDay(_ date: Date) -> Date {
        if let day = days.first(where: { $0.start <= date && date < $0.end }) { return day.start }
        guard let day = calendar.dateInterval(of: .day, for: date) else { return calendar.startOfDay(for: date) }
        days.insert(day, at: 0)
        if days.count > 4 { days.removeLast() }
        return day.start
    }
}

// MARK: add

let addCommand = Command(
    name: "add", summary: "put book files on the shelf",
    usage: "shelf add FILE... [--link] [--json]",
    details: """
        Opens each FILE (only a book an installed plugin opens is added) and copies it into shelf's data folder,
        so that the shelf keeps working when the original moves; with --link shelf keeps only the path (as it does
        for an audiobook manifest, whose tracks are the files beside it).
        Adding a book that is already on the shelf (same publication identifier) replaces its file with this
        edition and keeps the position, bookmarks and settings. Books downloaded from a library
        (`shelf download`) are on the shelf already. --json prints {"added": [book…], "failed": [{"path", "error"}]}.
        Exit 0 when every file was added, else the code of the first failure.
        """,
    flagOptions: ["--link"],
    positionals: 1...10_000
) { args, context in
    let bookshelf = try openBookshelf(context)
    var document = AddedBooksJSON()
    var code: Int32 = 0
    for path in args.positionals {
        do {
            let result = try bookshelf.add(path: path, link: args.has("--link"))
            document.added.append(AddedBooksJSON.Added(result))
            if !context.json {
                let b = result.book
                let change =
                    result.replacedEdition
                    ? ShelfChange.replacedFile(title: b.book.title, authors: b.book.authors, path: path)
                    : ShelfChange.added(
                        title: b.book.title, authors: b.book.authors, how: "\(b.formatInWords), \(b.storage.words)",
                        audiobook: b.format == .audiobook)
                Output.line(change.words(for: .terminal).line)
            }
        } catch let error as ShelfError {
            document.failed.append(AddedBooksJSON.Failure(path: path, error: error.description))
            if code == 0 { code = error.exitCode }
            if !context.json { Output.error("cannot add \(path): \(error.description)") }
        }
    }
    if context.json { Output.json(document) }
    return code
}

// MARK: books

let booksCommand = Command(
    name: "books", summary: "the bookshelf: your books and how far you have read",
    usage: "shelf books [--json]",
    details: """
        Lists the books on the shelf, most recently opened first: title, authors, the format in words, how far you
        are (the percentage read; for an audiobook the time listened of its length and the percentage), when last
        opened, and for a borrowed book when the loan ends. --json prints an array of books (docs/json.md).
        """,
    positionals: 0...0
) { _, context in
    let bookshelf = try openBookshelf(context)
    let books = try bookshelf.books()
    if context.json {
        Output.line(ShelfBookJSON.prettyArray(books.map(ShelfBookJSON.init)))
        return 0
    }
    if books.isEmpty {
        Output.line(EmptyListing.shelf.words(for: .terminal).line)
        return 0
    }
    var text = ""
    for b in books {
        var first = "  " + DisplayText.oneLine(b.book.title)
        if !b.book.authors.isEmpty {
            first += " — " + b.book.authors.prefix(3).map(DisplayText.oneLine).joined(separator: ", ")
        }
        var facts = [b.isSample ? "\(b.formatInWords) sample" : b.formatInWords]
        if let heard = b.listening {
            facts.append(
                "\(PlaybackTime.clock(heard.seconds)) of \(PlaybackTime.clock(heard.duration)) listened (\(heard.percent)%)"
            )
        } else {
            facts.append(b.progress == nil ? "not started" : "\(b.percentRead)% read")
        }
        facts.append(b.book.openedAt.map { "opened \(relativeDay($0))" } ?? "never opened")
        if let ends = b.loanEndsAt { facts.append(loanEndWords(ends)) }
        text += first + "\n    " + facts.joined(separator: " · ") + "\n    ID: " + DisplayText.oneLine(b.book.id) + "\n"
    }
    text += Plural.count(books.count, "book")
    Output.line(text)
    return 0
}

// MARK: remove

let removeCommand = Command(
    name: "remove", summary: "take a book off the shelf",
    usage: "shelf remove BOOK [--return] [--json]",
    details: """
        Removes the book with its position, bookmarks and own settings, and deletes shelf's copy of its file (a
        file added with --link stays where it is). A borrowed book stays on loan unless --return is given, which
        returns it to the library first (when the library refuses, nothing is removed). \(changingBookArgumentHelp)
        --json prints {"removed": book, "deletedFile"?, "returned": bool}.
        """,
    flagOptions: ["--return"],
    positionals: 1...1
) { args, context in
    let bookshelf = try openBookshelf(context)
    let book = try bookshelf.findToChange(args.positionals[0], action: "remove a book") {
        "Remove “\(DisplayText.oneLine($0.book.title))” (\(DisplayText.oneLine($0.book.id))) from the shelf, with its place and bookmarks?"
    }
    var returned = false
    if args.has("--return") {
        try context.library().returnLoan(of: book)
        returned = true
    }
    let removed = try bookshelf.remove(book)
    if context.json {
        Output.json(RemovedBookJSON(book, removed, returned: returned))
        return 0
    }
    Output.line(ShelfChange.removed(title: book.book.title, returned: returned).words(for: .terminal).line)
    if !returned, let ends = book.loanEndsAt, let entry = book.loanEntryID {
        Output.line(ShelfChange.stillOnLoan(entryID: entry, until: relativeDay(ends)).words(for: .terminal).line)
    }
    return 0
}
