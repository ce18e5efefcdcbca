import Foundation
import Host

let bookmarkCommand = Command(
    name: "bookmark", summary: "add or remove a bookmark",
    usage:
        "shelf bookmark add BOOK [--page N | --locator JSON] [--note TEXT] [--json] | shelf bookmark remove ID [--json]",
    details: """
        `add` bookmarks the page you are on, page N, or a Readium Locator. A bookmark is stored as a Readium
        Locator with a quote of the passage, so it still lands on the same words when the book is replaced by
        another edition (`shelf add` of a new file). `remove` deletes bookmark ID (`shelf bookmarks BOOK` lists
        them). \(bookArgumentHelp) --json prints the bookmark (docs/json.md).
        """,
    valueOptions: ["--page", "--locator", "--note"],
    positionals: 2...2
) { args, context in
    let bookshelf = try openBookshelf(context)
    switch args.positionals[0] {
    case "add":
        guard args.value("--page") == nil || args.value("--locator") == nil else {
            throw CommandUsage.pageAndLocator.error
        }
        let book = try bookshelf.find(args.positionals[1])
        var locator: Locator?
        if let json = args.value("--locator") {
            do { locator = try Locator.parse(json) } catch {
                throw CommandUsage.notALocator.error
            }
        }
        let (bookmark, page) = try BookReader(bookshelf: bookshelf).addBookmark(
            book, page: try args.int("--page", in: 1...Int(Int32.max)), locator: locator, note: args.value("--note"))
        if context.json {
            Output.json(BookmarkJSON(bookmark, resolution: .page(page.number)))
        } else {
            Output.line("Bookmark \(bookmark.id): “\(book.book.title)”, \(page.status)")
            if let quote = bookmark.locator.text?.highlight { Output.line("  “\(quote)…”") }
        }
        return 0
    case "remove":
        guard let id = Int64(args.positionals[1]), id > 0 else {
            throw CommandUsage.notABookmarkNumber(option: "bookmark remove", given: args.positionals[1]).error
        }
        guard let bookmark = try bookshelf.removeBookmark(id: id) else {
            throw CommandLookup.noBookmark(id: id).error
        }
        if context.json {
            Output.json(RemovedBookmarkJSON(bookmark))
        } else {
            Output.line(ReaderNotice.bookmarkRemoved(id: id).words(for: .terminal).line)
        }
        return 0
    default:
        throw CommandUsage.bookmarkTakes(given: args.positionals[0]).error
    }
}

let bookmarksCommand = Command(
    name: "bookmarks", summary: "a book's bookmarks",
    usage: "shelf bookmarks BOOK [--json]",
    details: """
        Lists the book's bookmarks with the page each stands for in the file on the shelf now; a bookmark whose
        passage is not in this edition says so. Go to one with `shelf read BOOK --bookmark ID`.
        \(bookArgumentHelp) --json prints an array of bookmarks (docs/json.md).
        """,
    positionals: 1...1
) { args, context in
    let bookshelf = try openBookshelf(context)
    let book = try bookshelf.find(args.positionals[0])
    let marks = try BookReader(bookshelf: bookshelf).bookmarks(book)
    if context.json {
        Output.json(marks.map { BookmarkJSON($0.bookmark, resolution: $0.resolution) })
        return 0
    }
    if marks.isEmpty {
        Output.line(EmptyListing.bookmarks(title: book.book.title).words(for: .terminal).line)
        return 0
    }
    for mark in marks {
        let b = mark.bookmark
        let place: String
        switch mark.resolution {
        case .page(let p): place = "page \(p)" + (b.locator.title.map { " · \($0)" } ?? "")
        case .lost(let why): place = "cannot be found: \(why)"
        }
        Output.line("\(b.id)\t\(place)")
        if let quote = b.locator.text?.highlight { Output.line("\t“\(quote)…”") }
        if let note = b.note { Output.line("\tNote: \(note)") }
    }
    return 0
}
