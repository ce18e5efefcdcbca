import Foundation
import Host

let annotationCommands: [Command] = [annotationsCommand]

let annotationsCommand = Command(
    name: "annotations", summary: "sync reading positions and bookmarks with the library",
    usage: "shelf annotations sync [BOOK] [--json]",
    details: """
        Where the library keeps annotations for a borrowed book (the http://www.w3.org/ns/oa#annotationService link
        in Palace feeds), sends and fetches the book's reading position and bookmarks as W3C Web Annotations, so you
        continue on another device. The furthest read position wins; bookmarks from every device are kept, and a
        bookmark removed on one device (after it was synced) is removed on the others. When the library cannot be
        reached or answers nonsense, nothing stored here changes. Without BOOK, every downloaded loan that has the
        link is synced; `shelf sync` does the same after fetching loans. \(bookArgumentHelp)
        --json prints an array of results (docs/json.md).
        """,
    positionals: 1...2
) { args, context in
    guard args.positionals[0] == "sync" else {
        throw CommandUsage.annotationsTakesSync(given: args.positionals[0]).error
    }
    let bookshelf = try openBookshelf(context)
    let library = try context.library()
    let single = args.positionals.count == 2
    let books = single ? [try bookshelf.find(args.positionals[1])] : try bookshelf.booksOnLoan()
    let results = try library.syncAnnotations(of: books, single: single, keepGoing: context.json)
    let failures = results.filter { $0.error != nil || !$0.problems.isEmpty }.count
    if context.json {
        Output.json(results)
        return failures > 0 ? ShelfError.Kind.temporary.rawValue : 0
    }
    if results.isEmpty { Output.line(EmptyListing.annotatedLoans.words(for: .terminal).line); return 0 }
    for r in results {
        if let error = r.error {
            Output.line(CommandNotice.annotationsNotSynced(title: r.title, error: error).words(for: .terminal).line)
            continue
        }
        var facts: [String] = []
        switch r.position {
        case "fetched": facts.append("continues at page \(r.page ?? 0) of \(r.pages ?? 0) from another device")
        case "sent": facts.append("position sent (page \(r.page ?? 0) of \(r.pages ?? 0))")
        default:
            facts.append("position " + (r.page.map { "page \($0) of \(r.pages ?? 0), " } ?? "") + "already in step")
        }
        if r.bookmarksFetched > 0 { facts.append("\(Plural.count(r.bookmarksFetched, "bookmark")) fetched") }
        if r.bookmarksRemovedHere > 0 { facts.append("\(r.bookmarksRemovedHere) removed elsewhere") }
        if r.bookmarksSent > 0 { facts.append("\(r.bookmarksSent) sent") }
        if r.bookmarksRemovedThere > 0 { facts.append("\(Plural.count(r.bookmarksRemovedThere, "removal")) sent") }
        Output.line("“\(r.title)”: " + facts.joined(separator: " · "))
        for problem in r.problems { Output.line("  Not done, tried again next time: \(problem)") }
    }
    return failures > 0 ? ShelfError.Kind.temporary.rawValue : 0
}
