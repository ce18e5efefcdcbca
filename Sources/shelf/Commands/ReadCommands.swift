import Foundation
import Glibc
import Host

/// The terminal's width in columns: --width, else the terminal's, else $COLUMNS, else 72.
func readingWidth(_ args: Arguments, _ context: Context) throws -> Int {
    if let width = try args.int("--width", in: 20...1000) { return width }
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
    if let columns = context.shelf.environment["COLUMNS"].flatMap(Int.init), columns >= 20 { return min(columns, 1000) }
    return 72
}

enum TerminalReaderCommand {
    /// `shelf read BOOK` opens the interactive reader only for a person: the keyboard and the screen both a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }
}

/// Prints a page as `shelf read` shows it: the text, a blank line, the status line, then any notes.
func printPage(_ result: BookReader.Result, json: Bool, theme: TerminalTheme? = nil) {
    let page = result.page
    if json {
        Output.json(PageJSON(result))
        return
    }
    if result.book.isSample {
        Output.line(
            "[Sample of “\(DisplayText.oneLine(result.book.book.title))” — the library's preview, not the whole book]\n"
        )
    }
    let text =
        (page.text.isEmpty ? "[This page has no text]" : page.text) + "\n\n" + (result.book.isSample ? "Sample · " : "")
        + DisplayText.oneLine(page.status)
    Output.line(theme?.paint(text) ?? text)
    for note in result.notes { Output.line(note) }
}

/// The book's theme (its own setting over everyone's) as terminal colours, when stdout is a terminal without NO_COLOR.
func terminalTheme(_ book: ShelfBook, _ bookshelf: Bookshelf, _ context: Context) -> TerminalTheme? {
    guard !context.json, isatty(STDOUT_FILENO) == 1 else { return nil }
    return TerminalTheme.colours(
        theme: bookshelf.theme(of: book), environment: context.shelf.environment, terminal: true)
}

let readCommand = Command(
    name: "read", summary: "read a book from the shelf where you left off",
    usage:
        "shelf read BOOK [--next | --prev | --goto PAGE | --toc N | --search QUERY [--hit N] | --bookmark ID] [--width N] [--json]",
    details: """
        On a terminal (keyboard and screen), with no move, opens the book full screen where you left off: space, the
        arrows and PgUp/PgDn turn pages, t the table of contents, / searches (n and N: next and previous hit), b
        bookmarks the page and B lists the bookmarks, + and - widen and narrow the text, ? shows the keys, q quits.
        It redraws at the terminal's size, always shows the status line, and saves your place on every turn.
        With a move, --json, or without a terminal (a pipe, a script), it does one thing and exits:
        prints the page you are on — its text at the terminal's width (or --width), then a status line in words:
        "Chapter 3 · page 48 of 340 · 14%" — and saves your place (without a move it only looks: a place saved
        meanwhile elsewhere stays). A first open starts where a reader opens the
        book (after the cover, at the body matter). A page is one of the book's positions (one per 1024 bytes of
        each chapter's file, as Readium counts them), so page numbers do not change with the width.
        --next and --prev turn the page, across chapters; --goto PAGE jumps; --toc N goes to entry N of the table of
        contents (`shelf read BOOK --toc 0` lists them); --search QUERY goes to the first hit, --hit N to the Nth;
        --bookmark ID goes to a bookmark, and says so when the passage it marks is not in this edition (your place
        is then unchanged). Your place is saved in one transaction: a crash keeps the old page or the new one.
        Audiobooks are played with `shelf play`. \(bookArgumentHelp) --json: docs/json.md.
        """,
    valueOptions: ["--goto", "--toc", "--search", "--hit", "--bookmark", "--width"],
    flagOptions: ["--next", "--prev"],
    positionals: 1...1
) { args, context in
    let moves =
        ["--goto", "--toc", "--search", "--bookmark"].filter { args.value($0) != nil }
        + ["--next", "--prev"].filter { args.has($0) }
    guard moves.count <= 1 else { throw CommandUsage.onlyOneOf(moves).error }
    if args.value("--hit") != nil && args.value("--search") == nil {
        throw CommandUsage.hitWithoutSearch.error
    }
    let bookshelf = try openBookshelf(context)
    let book = try bookshelf.find(args.positionals[0])
    let reader = BookReader(bookshelf: bookshelf)
    let width = try readingWidth(args, context)
    if args.value("--toc") == "0" {
        let session = try reader.session(book, width: width)
        let toc = session.tableOfContents
        if context.json { Output.json(toc); return 0 }
        for entry in toc {
            Output.line(
                String(repeating: "  ", count: entry.depth) + "\(entry.number). \(entry.title)"
                    + (entry.page.map { " (page \($0))" } ?? ""))
        }
        return 0
    }
    let move: BookReader.Move
    if args.has("--next") {
        move = .next
    } else if args.has("--prev") {
        move = .previous
    } else if let page = try args.int("--goto", in: 1...Int(Int32.max)) {
        move = .goTo(page)
    } else if let entry = try args.int("--toc", in: 0...Int(Int32.max)) {
        move = .tableOfContents(entry)
    } else if let query = args.value("--search") {
        guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CommandUsage.searchWithoutWords.error
        }
        move = .search(query, hit: try args.int("--hit", in: 1...1_000_000) ?? 1)
    } else if let id = args.value("--bookmark") {
        guard let number = Int64(id), number > 0 else {
            throw CommandUsage.notABookmarkNumber(option: "--bookmark", given: id).error
        }
        move = .bookmark(number)
    } else if !context.json, TerminalReaderCommand.isInteractive {
        let status = try TerminalReader(
            reader: reader, book: book, width: width, theme: terminalTheme(book, bookshelf, context)
        ).run()
        // Another reader (the browser, a second `shelf read`) may have moved the place after this one's last turn; the
        // place kept is then theirs (a look never writes over it), and "saved at" this one's page would be untrue.
        let title = book.book.title
        // A place that cannot be read back now leaves what this reader itself saved to say: each of its turns wrote
        // the place before showing the page.
        if let kept = try? reader.read(book, move: .resume, width: width).page.status, kept != status {
            Output.line(
                PlaceSaved.movedByAnotherReader(title: title, kept: kept, stopped: status).words(for: .terminal).line)
        } else {
            Output.line(PlaceSaved.reading(title: title, page: status).words(for: .terminal).line)
        }
        return 0
    } else {
        move = .resume
    }
    printPage(
        try reader.read(book, move: move, width: width), json: context.json,
        theme: terminalTheme(book, bookshelf, context))
    return 0
}
